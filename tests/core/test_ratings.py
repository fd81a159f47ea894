"""Ratings: sensible invariants of both models (a win never lowers the winner, a period's order does not matter,
symmetry, byes and intentional draws ignored, the Corp's edge counted) and the unrated default."""
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.pairing.formats import Side
from app.core.ratings import SCALES, Game, Model, Rating, Ratings, rate, rate_events, rate_period, strengths

MODELS = list(Model)
OUTCOMES = [Fraction(1), Fraction(1, 2), Fraction(0)]


@st.composite
def histories(draw, players=6, max_periods=4):
    seed = draw(st.integers(0, 10**6))
    rnd = random.Random(seed)
    games = []
    for period in range(draw(st.integers(0, max_periods))):
        for _ in range(rnd.randrange(1, 8)):
            a, b = rnd.sample(range(players), 2)
            games.append(Game(a, b, rnd.choice(OUTCOMES), rnd.choice([Side.CORP, Side.RUNNER, None]), period))
    return games


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), history=histories(), side=st.sampled_from([Side.CORP, Side.RUNNER, None]),
       a=st.integers(0, 7), b=st.integers(0, 7))
def test_a_win_never_lowers_the_winner_nor_raises_the_loser(model, history, side, a, b):
    if a == b:
        return
    before = rate(history, model)
    after = rate_period(before, [Game(a, b, Fraction(1), side, "next")])
    assert after[a].mu >= before[a].mu
    assert after[b].mu <= before[b].mu
    lost = rate_period(before, [Game(a, b, Fraction(0), side, "next")])
    drawn = rate_period(before, [Game(a, b, Fraction(1, 2), side, "next")])
    assert lost[a].mu <= drawn[a].mu <= after[a].mu


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), history=histories(), seed=st.integers(0, 1000))
def test_the_order_of_a_periods_games_does_not_matter(model, history, seed):
    shuffled = []
    for period in sorted({g.period for g in history}):
        block = [g for g in history if g.period == period]
        random.Random(seed).shuffle(block)
        shuffled += block
    assert rate(shuffled, model).ratings == rate(history, model).ratings


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), history=histories())
def test_who_is_named_first_does_not_matter(model, history):
    flipped = [Game(g.second, g.first, 1 - g.outcome, g.first_side and Side(g.first_side).other, g.period)
               for g in history]
    a, b = rate(flipped, model).ratings, rate(history, model).ratings
    assert a.keys() == b.keys()
    for p in a:  # the same to the last bits or so (openskill's arithmetic is not written symmetric)
        assert (a[p].mu, a[p].sigma, a[p].games) == (pytest.approx(b[p].mu, rel=1e-12, abs=1e-9),
                                                     pytest.approx(b[p].sigma, rel=1e-12), b[p].games)


@settings(max_examples=40, deadline=None)
@given(model=st.sampled_from(MODELS), history=histories())
def test_byes_and_intentional_draws_are_not_counted(model, history):
    noisy = []
    for g in history:
        noisy.append(g)
        noisy.append(Game(g.first, None, Fraction(1), None, g.period))
        noisy.append(Game(g.first, g.second, Fraction(1, 2), g.first_side, g.period, intentional_draw=True))
    assert rate(noisy, model) == rate(history, model)


@pytest.mark.parametrize("model", MODELS)
def test_an_unrated_player_has_the_mean_and_a_wide_uncertainty(model):
    scale = SCALES[model]
    assert Ratings(model)["nobody"] == Rating(scale.mu, scale.sigma)
    state = rate([Game("a", "b", Fraction(1), None, 1), Game("c", "d", Fraction(1), None, 1)], model)
    newcomer = state["e"]
    assert newcomer.mu == pytest.approx(sum(state[p].mu for p in "abcd") / 4)
    assert newcomer.sigma == scale.sigma > max(state[p].sigma for p in "abcd")
    assert state["a"].mu > newcomer.mu > state["b"].mu
    assert strengths(state, {10: "a", 11: "b", 12: "e"})[10] > strengths(state, {12: "e"})[12]


@pytest.mark.parametrize("model", MODELS)
def test_the_corps_edge_is_learnt_and_counted(model):
    """When Corps win most games, a Corp win says less about the player than a Runner win."""
    rnd = random.Random(1)
    games = [Game(f"p{i}", f"q{i}", Fraction(1) if rnd.random() < 0.8 else Fraction(0), Side.CORP, 0)
             for i in range(200)]
    state = rate(games, model)
    assert state.side_advantage > 1
    as_corp = rate_period(state, [Game("x", "y", Fraction(1), Side.CORP, 1)])
    as_runner = rate_period(state, [Game("x", "y", Fraction(1), Side.RUNNER, 1)])
    assert as_runner["x"].mu > as_corp["x"].mu > state["x"].mu


@pytest.mark.parametrize("model", MODELS)
def test_ratings_separate_a_strong_player_and_grow_surer(model):
    games = [Game("strong", f"o{i}", Fraction(1), None, i // 3) for i in range(12)]
    state = rate(games, model)
    assert state["strong"].mu > state["o0"].mu
    assert state["strong"].sigma < SCALES[model].sigma
    assert state["strong"].games == 12
    assert state["strong"].conservative == state["strong"].mu - 2 * state["strong"].sigma


def test_a_side_may_be_given_by_its_value():
    games = [Game("a", "b", Fraction(1), Side.CORP, 0), Game("c", "d", Fraction(0), Side.RUNNER, 0)]
    as_text = [Game(g.first, g.second, g.outcome, Side(g.first_side).value, g.period) for g in games]
    assert rate(as_text) == rate(games)


# Churn (docs/domain.md 15.1): the newcomers' learnt prior and the seeding's estimate.

@st.composite
def churned(draw, founders=6, newcomers=4):
    """Founders play period 0 among themselves; newcomers n0.. join in period 1 against founders, winning each game
    with the drawn probability; a founders-only period 2 after."""
    rnd = random.Random(draw(st.integers(0, 10**6)))
    p_new = draw(st.floats(0, 1))
    games = []
    for _ in range(rnd.randrange(3, 10)):
        a, b = rnd.sample(range(founders), 2)
        games.append(Game(a, b, rnd.choice(OUTCOMES), rnd.choice([Side.CORP, Side.RUNNER, None]), 0))
    for k in range(newcomers):
        for _ in range(rnd.randrange(1, 4)):
            out = Fraction(1) if rnd.random() < p_new else Fraction(0)
            games.append(Game(f"n{k}", rnd.randrange(founders), out, rnd.choice([Side.CORP, Side.RUNNER]), 1))
    return games


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), history=churned())
def test_a_newcomers_start_is_learnt_from_earlier_newcomers(model, history):
    state = rate(history, model)
    founders = {p for g in history if g.period == 0 for p in (g.first, g.second)}
    new = [p for p in state.ratings if p not in founders]  # the newcomers and founders first seen in period 1
    assert state.newcomers == tuple(rate(history[:len([g for g in history if g.period <= 1])], model).newcomers)
    assert len(state.newcomers) == len(new)  # the founders of period 0 are not newcomers
    mean_new, club = sum(state.newcomers) / len(new), state.club_mean()
    prior = state.newcomer_prior()
    assert min(mean_new, club) - 1e-9 <= prior <= max(mean_new, club) + 1e-9
    if mean_new <= club:  # newcomers underperform: a newcomer never starts above the club's mean
        assert prior <= club + 1e-9
    assert state["never seen"] == Rating(prior, SCALES[model].sigma)
    assert rate_period(state, [Game("x", 0, Fraction(1, 2), None, 3)])["x"].start == prior  # where x started


def test_newcomers_who_lose_start_below_the_mean_and_the_old_rules_keep_the_mean():
    for model in MODELS:
        history = [Game(a, b, Fraction(1), Side.CORP, 0) for a, b in [(0, 1), (2, 3), (1, 2), (3, 0)]]
        history += [Game(f"n{k}", k % 4, Fraction(0), Side.RUNNER, 1) for k in range(6)]
        state = rate(history, model)
        assert state.newcomer_prior() < state.club_mean()
        assert strengths(state, {1: "someone new"})[1] < round(1000 * state.club_mean())
        old = rate(history, model, start=Ratings(model, learnt=False))
        assert old.newcomers == () and old.newcomer_prior() == old.club_mean()
        assert strengths(old, {1: "n0", 2: "someone new"}) == {1: round(1000 * old["n0"].mu),
                                                               2: round(1000 * old.club_mean())}


@settings(max_examples=100, deadline=None)
@given(model=st.sampled_from(MODELS), mu=st.floats(-3, 3), start=st.floats(-3, 3),
       sigmas=st.lists(st.floats(0, 1), min_size=2, max_size=2), others=st.lists(st.floats(-3, 3), min_size=2))
def test_more_uncertainty_moves_a_strength_less(model, mu, start, sigmas, others):
    scale = SCALES[model]
    low, high = sorted(scale.sigma * s for s in sigmas)
    table = {f"o{i}": Rating(scale.mu + x * scale.sigma / 3, scale.sigma / 4) for i, x in enumerate(others)}
    at = scale.mu + start * scale.sigma / 3
    table["sure"] = Rating(scale.mu + mu * scale.sigma / 3, low, 10, at)
    table["unsure"] = Rating(scale.mu + mu * scale.sigma / 3, high, 10, at)
    state = Ratings(model, ratings=table)
    sure, unsure = state.estimate("sure") - at, state.estimate("unsure") - at
    assert abs(unsure) <= abs(sure) + 1e-9 and sure * unsure >= 0  # the same way, less far
    assert abs(sure) <= abs(table["sure"].mu - at) + 1e-9  # never beyond the rating's own mean
    if low == 0:
        assert sure == pytest.approx(table["sure"].mu - at)
    s = strengths(state, {1: "sure", 2: "unsure", 3: "new"})
    assert all(type(v) is int for v in s.values())


@settings(max_examples=30, deadline=None)
@given(model=st.sampled_from(MODELS), history=churned())
def test_strengths_are_deterministic_ints(model, history):
    keys = {i: k for i, k in enumerate([0, 1, "n0", "n1", "never seen"])}
    a, b = strengths(rate(history, model), keys), strengths(rate(list(history), model), keys)
    assert a == b and all(type(v) is int for v in a.values())


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), history=st.one_of(histories(max_periods=6), churned()),
       byes=st.lists(st.integers(0, 9), max_size=4), learnt=st.booleans())
def test_rating_on_from_any_events_snapshot_equals_rating_from_scratch(model, history, byes, learnt):
    """The series' pages rate a changed event again from the ratings before it (app/services/series/series_ratings.py):
    the answer must be exactly the one from the first game, whichever event it resumes at."""
    events = [[g for g in history if g.period == p] for p in sorted({g.period for g in history})]
    for i in byes:  # uncounted games (a bye, an event with nothing rated) change nothing either way
        if events:
            events[i % len(events)].append(Game(i, None, Fraction(1), None, events[i % len(events)][0].period))
    events.append([Game(0, None, Fraction(1), None, "only a bye")])
    origin = Ratings(model, learnt=learnt)
    after = rate_events(events, start=origin)
    flat = [g for event in events for g in event]
    assert len(after) == len(events)
    assert after[-1] == rate(flat, start=origin)
    for k in range(len(events)):
        assert after[k] == rate([g for event in events[:k + 1] for g in event], start=origin)
        assert rate_events(events[k:], start=after[k - 1] if k else origin) == after[k:]


# Both models against their published definitions, not only invariants.

def test_glicko2_reproduces_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system" (2012): a 1500/200 player (volatility 0.06, tau 0.5) beats a
    1400/30 player and loses to 1550/100 and 1700/300: 1464.06, deviation 151.52, volatility 0.05999."""
    table = {"p": Rating(1500, 200), "a": Rating(1400, 30), "b": Rating(1550, 100), "c": Rating(1700, 300)}
    state = Ratings(Model.GLICKO2, ratings=table)
    after = rate_period(state, [Game("p", "a", Fraction(1), None, 1), Game("p", "b", Fraction(0), None, 1),
                                Game("p", "c", Fraction(0), None, 1)])
    assert after["p"].mu == pytest.approx(1464.06, abs=0.01)
    assert after["p"].sigma == pytest.approx(151.52, abs=0.01)
    assert after.volatility["p"] == pytest.approx(0.05999, abs=1e-5)


def _weng_lin_bt(mu, sigma, mu_q, sigma_q, score):
    """Weng and Lin (2011), Algorithm 1, the Bradley-Terry full-pair update of one player against one opponent
    (beta = 25/6, gamma = sigma / c, kappa = 1e-4), written from the paper: (mu, sigma) after the game."""
    import math
    c = math.sqrt(sigma ** 2 + sigma_q ** 2 + 2 * (25 / 6) ** 2)
    p = math.exp(mu / c) / (math.exp(mu / c) + math.exp(mu_q / c))
    omega = sigma ** 2 / c * (score - p)
    delta = (sigma / c) * sigma ** 2 / c ** 2 * p * (1 - p)
    return mu + omega, sigma * math.sqrt(max(1 - delta, 1e-4))


def test_weng_lin_reproduces_the_papers_bradley_terry_update():
    """Two newcomers (25, 25/3), one wins: c^2 = 2 sigma^2 + 2 beta^2 = 625 / 3.6, so sigma^2 / c^2 = 0.4, the
    winner gains 0.2 c = 2.6352 and keeps sqrt(1 - 0.1 sqrt(0.4)) of sigma: 27.6352, 8.0655 (the paper's
    Algorithm 1 by hand; openskill's README shows the same two numbers for this game), plus the period's drift
    (25/300) in the variance. Then a tie and a loss between unequal ratings against the paper's formulas."""
    drift = SCALES[Model.WENG_LIN].drift
    state = Ratings(Model.WENG_LIN, learnt=False)
    after = rate_period(state, [Game("a", "b", Fraction(1), None, 1)])
    assert after["a"].mu == pytest.approx(27.6352, abs=1e-4)
    assert after["b"].mu == pytest.approx(22.3648, abs=1e-4)
    assert (after["a"].sigma ** 2 - drift ** 2) ** 0.5 == pytest.approx(8.0655, abs=1e-4)
    table = {"x": Rating(30, 5), "y": Rating(22, 7)}
    for score in (Fraction(1, 2), Fraction(0)):
        after = rate_period(Ratings(Model.WENG_LIN, ratings=table), [Game("x", "y", score, None, 1)])
        for me, other, s in (("x", "y", float(score)), ("y", "x", 1 - float(score))):
            a, b = table[me], table[other]
            mu, sigma = _weng_lin_bt(a.mu, a.sigma, b.mu, b.sigma, s)
            assert after[me].mu == pytest.approx(mu, rel=1e-9)
            assert after[me].sigma == pytest.approx((sigma ** 2 + drift ** 2) ** 0.5, rel=1e-9)

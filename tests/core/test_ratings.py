"""Ratings: sensible invariants of both models (a win never lowers the winner, a period's order does not matter,
symmetry, byes and intentional draws ignored, the Corp's edge counted) and the unrated default."""
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.pairing.formats import Side
from app.core.ratings import SCALES, Game, Model, Rating, Ratings, rate, rate_period, strengths

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

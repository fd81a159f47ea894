"""Seeding by strength: it only chooses among equal-cost pairings (cost unchanged in every format), deterministic,
and inside a cell the top half meets the bottom half in order."""
import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.pairing import Entrant, Format, Game, Side, pair_round
from app.core.pairing.strength import seed_cells

from tests.core.pairing.test_properties import check_rules, random_event

FORMATS = [Format.SINGLE_SIDED, Format.DOUBLE_SIDED, Format.PLAIN]


def _pairs(plan):
    return {frozenset((p.player, p.opponent)) for p in plan.pairings if not p.is_bye}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fmt=st.sampled_from(FORMATS), n=st.integers(2, 30), rounds=st.integers(0, 5), seed=st.integers(0, 10**6),
       model=st.sampled_from(["sass", "article", "deployed", "cobra"]), exact=st.booleans(),
       missing=st.floats(0, 0.5))
def test_strengths_never_change_the_cost(fmt, n, rounds, seed, model, exact, missing):
    ents, games = random_event(fmt, n, rounds, seed, rematch_rate=0.5)
    rnd = random.Random(seed)
    strengths = {e.id: (Fraction(rnd.randrange(-50, 50), rnd.randrange(1, 4)) if exact else rnd.randrange(5))
                 for e in ents if rnd.random() >= missing}
    kw = {} if fmt is Format.PLAIN else {"cost_model": model}
    try:
        plain = pair_round(fmt, ents, games, seed=seed, **kw)
    except Exception as e:  # no legal pairing: the same with strengths
        try:
            pair_round(fmt, ents, games, seed=seed, strengths=strengths, **kw)
        except type(e):
            return
        raise AssertionError("strengths made an impossible round possible")
    seeded = pair_round(fmt, ents, games, seed=seed, strengths=strengths, **kw)
    assert seeded.total_cost == plain.total_cost
    assert {p.player for p in seeded.pairings if p.is_bye} == {p.player for p in plain.pairings if p.is_bye}
    if fmt is not Format.PLAIN:
        check_rules(fmt, ents, games, seeded, model)
    again = pair_round(fmt, ents, games, seed=seed, strengths=strengths, **kw)
    assert again.pairings == seeded.pairings


def test_round_one_pairs_the_top_half_against_the_bottom_half_in_order():
    ents = [Entrant(i, f"P{i}") for i in range(8)]
    strengths = {i: 100 - 10 * i for i in range(8)}  # 0 strongest, 7 weakest
    for fmt in FORMATS:
        plan = pair_round(fmt, ents, [], seed=3, strengths=strengths)
        assert _pairs(plan) == {frozenset(p) for p in [(0, 4), (1, 5), (2, 6), (3, 7)]}, fmt


def test_the_strength_decides_inside_a_score_cell_and_a_past_meeting_is_avoided():
    """Round 2 of 8, double-sided: four 6-0 winners and four losers (two cells). Inside the winners' cell the
    strongest (0) meets the third strongest (2) unless they met: then the nearest pairing to that order."""
    ents = [Entrant(i, f"P{i}") for i in range(8)]
    games = [Game(1, a, b, 6, 0) for a, b in [(0, 4), (1, 5), (2, 6), (3, 7)]]
    strengths = {0: 9, 1: 8, 2: 7, 3: 6, 4: 5, 5: 4, 6: 3, 7: 2}
    plan = pair_round(Format.DOUBLE_SIDED, ents, games, seed=1, strengths=strengths)
    assert _pairs(plan) == {frozenset(p) for p in [(0, 2), (1, 3), (4, 6), (5, 7)]}
    games[0] = Game(1, 0, 2, 6, 0)  # 0 already met 2 (and 4 met... 6 instead, below)
    games[2] = Game(1, 4, 6, 6, 0)
    plan = pair_round(Format.DOUBLE_SIDED, ents, games, seed=1, strengths=strengths)
    winners = {0, 1, 4, 3}
    got = {frozenset(p) for p in _pairs(plan) if set(p) <= winners}
    assert got == {frozenset((0, 3)), frozenset((1, 4))}  # ranks 0-3 and 1-2: gaps 3 and 1, nearest to 2 and 2
    reversed_strengths = {p: -s for p, s in strengths.items()}
    plan2 = pair_round(Format.DOUBLE_SIDED, ents, games, seed=1, strengths=reversed_strengths)
    assert plan2.total_cost == plan.total_cost


def test_a_two_class_cell_keeps_each_game_between_its_classes():
    corps, runners = ["c1", "c2", "c3"], ["r1", "r2", "r3"]
    cls = {p: ("corp" if p[0] == "c" else "runner") for p in corps + runners}
    strength = {"c1": 6, "r1": 5, "c2": 4, "r2": 3, "c3": 2, "r3": 1}
    out = seed_cells(list(zip(corps, runners)), cls.__getitem__, lambda a, b: True, strength, random.Random(0))
    assert all({cls[a], cls[b]} == {"corp", "runner"} for a, b in out)
    assert sorted(p for g in out for p in g) == sorted(corps + runners)
    # ranks c1 0, r1 1, c2 2, r2 3, c3 4, r3 5; k = 3: the gaps nearest 3 are c1-r2, c2-r3, c3-r1 (3, 3, 3)
    assert {frozenset(g) for g in out} == {frozenset(("c1", "r2")), frozenset(("c2", "r3")),
                                           frozenset(("c3", "r1"))}


def test_equal_strengths_keep_determinism_and_sides_are_still_balanced():
    ents = [Entrant(i, f"P{i}") for i in range(10)]
    games = []
    for r in (1, 2, 3):
        plan = pair_round(Format.SINGLE_SIDED, ents, games, seed=5, strengths={i: 0 for i in range(10)})
        assert plan.pairings == pair_round(Format.SINGLE_SIDED, ents, games, seed=5,
                                           strengths={i: 0 for i in range(10)}).pairings
        games += [Game(r, p.player, p.opponent, 3, 0, player_side=Side.CORP) for p in plan.pairings]
    assert pair_round(Format.SINGLE_SIDED, ents, games, seed=5, strengths={}).total_cost == \
        pair_round(Format.SINGLE_SIDED, ents, games, seed=5).total_cost


def test_a_big_two_class_cell_is_paired_inside_the_window():
    """120 players: Corps the 60 strongest, Runners the 60 weakest; the window's solve (gaps near k = 60) gives the
    Dutch pairing exactly: i-th strongest Corp against i-th strongest Runner."""
    corps, runners = [f"c{i}" for i in range(60)], [f"r{i}" for i in range(60)]
    strength = {**{c: 1000 - i for i, c in enumerate(corps)}, **{r: 500 - i for i, r in enumerate(runners)}}
    shuffled = runners[:]
    random.Random(4).shuffle(shuffled)
    cls = lambda p: p[0]  # noqa: E731
    out = seed_cells(list(zip(corps, shuffled)), cls, lambda a, b: True, strength, random.Random(0))
    assert {frozenset(g) for g in out} == {frozenset((f"c{i}", f"r{i}")) for i in range(60)}

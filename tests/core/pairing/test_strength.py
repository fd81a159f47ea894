"""Seeding by strength: it only chooses among equal-cost pairings (cost unchanged in every format), deterministic,
and inside a cell the strongest meets the weakest (the fold)."""
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


def test_round_one_folds_the_strongest_against_the_weakest():
    ents = [Entrant(i, f"P{i}") for i in range(8)]
    strengths = {i: 100 - 10 * i for i in range(8)}  # 0 strongest, 7 weakest
    for fmt in FORMATS:
        plan = pair_round(fmt, ents, [], seed=3, strengths=strengths)
        assert _pairs(plan) == {frozenset(p) for p in [(0, 7), (1, 6), (2, 5), (3, 4)]}, fmt


def test_a_forbidden_fold_takes_the_nearest_pairing():
    """Six players of one cell, 0 strongest; 0 and 5 met. Of the pairings left, the least sum of (i + j - 5)^2 is
    0-4, 1-5, 2-3 (1 + 1 + 0), not the Dutch order's 0-3, 1-4, 2-5 (4 + 0 + 4)."""
    players = list(range(6))
    strength = {p: 60 - p for p in players}
    engine = [(0, 1), (2, 3), (4, 5)]
    out = seed_cells(engine, lambda p: "cell", lambda a, b: {a, b} != {0, 5}, strength, random.Random(0))
    assert {frozenset(g) for g in out} == {frozenset(g) for g in [(0, 4), (1, 5), (2, 3)]}
    assert sorted(p for g in out for p in g) == players


def test_the_strength_decides_inside_each_score_cell():
    """Round 2 of 8, double-sided: four 6-0 winners and four losers (two cells). Inside the winners' cell the
    strongest (0) meets the weakest (3), and reversed strengths cost the same."""
    ents = [Entrant(i, f"P{i}") for i in range(8)]
    games = [Game(1, a, b, 6, 0) for a, b in [(0, 4), (1, 5), (2, 6), (3, 7)]]
    strengths = {0: 9, 1: 8, 2: 7, 3: 6, 4: 5, 5: 4, 6: 3, 7: 2}
    plan = pair_round(Format.DOUBLE_SIDED, ents, games, seed=1, strengths=strengths)
    assert _pairs(plan) == {frozenset(p) for p in [(0, 3), (1, 2), (4, 7), (5, 6)]}
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
    # ranks c1 0, r1 1, c2 2, r2 3, c3 4, r3 5; the fold c1-r3, r1-c3, c2-r2 keeps every game Corp against Runner
    assert {frozenset(g) for g in out} == {frozenset(("c1", "r3")), frozenset(("r1", "c3")),
                                           frozenset(("c2", "r2"))}


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
    """120 players: Corps the 60 strongest, Runners the 60 weakest; the window's solve (near the fold) gives the
    fold exactly: i-th strongest Corp against i-th weakest Runner."""
    corps, runners = [f"c{i}" for i in range(60)], [f"r{i}" for i in range(60)]
    strength = {**{c: 1000 - i for i, c in enumerate(corps)}, **{r: 500 - i for i, r in enumerate(runners)}}
    shuffled = runners[:]
    random.Random(4).shuffle(shuffled)
    cls = lambda p: p[0]  # noqa: E731
    out = seed_cells(list(zip(corps, shuffled)), cls, lambda a, b: True, strength, random.Random(0))
    assert {frozenset(g) for g in out} == {frozenset((f"c{i}", f"r{59 - i}")) for i in range(60)}

"""Plain swiss invariants and exactness: the fast path against the networkx big-int reference (hypothesis)."""
from __future__ import annotations

import dataclasses
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.pairing import PairingError
from app.core.pairing.plain import LexCost, pair_plain

from tests.core.pairing.plain_helpers import (
    check_invariants, ghost_history, messy_history, next_round, one_draw, random_history, swiss_history,
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def fast_and_reference(ents, games, rnd, seed, power):
    """Both solvers' plans, or None after checking that both refuse."""
    try:
        ref = pair_plain(ents, games, rnd, seed, power, "networkx")
    except PairingError as refused:
        with pytest.raises(PairingError) as also:
            pair_plain(ents, games, rnd, seed, power, "auto")
        assert {p.id for p in also.value.players} and {p.id for p in refused.players}
        return None
    return pair_plain(ents, games, rnd, seed, power, "auto"), ref


def assert_fast_equals_reference(ents, games, rnd, seed, power):
    """The fast path reaches the reference's cost with a valid pairing (or both refuse); returns both plans."""
    plans = fast_and_reference(ents, games, rnd, seed, power)
    if plans:
        fast, ref = plans
        assert fast.total_cost == ref.total_cost
        check_invariants(ents, games, fast)
    return plans


@pytest.mark.slow
@SETTINGS
@given(
    n=st.integers(1, 60),
    rounds=st.integers(0, 9),
    seed=st.integers(0, 10**6),
    power=st.booleans(),
)
def test_swiss_events_fast_equals_reference(n, rounds, seed, power):
    ents, games = swiss_history(n, rounds, seed, power, drop_rate=0.03)
    plans = assert_fast_equals_reference(ents, games, next_round(games), seed, power)
    if plans:
        check_invariants(ents, games, plans[1])


@pytest.mark.slow
@SETTINGS
@given(
    n=st.integers(2, 40),
    rounds=st.integers(1, 12),
    seed=st.integers(0, 10**6),
    density=st.sampled_from([0.6, 0.9, 1.0]),
    power=st.booleans(),
)
def test_random_histories_fast_equals_reference(n, rounds, seed, density, power):
    """Random (non-swiss) meetings scatter rematch constraints over every pod: the exact fallbacks must hold."""
    ents, games = random_history(n, rounds, seed, density)
    assert_fast_equals_reference(ents, games, rounds + 1, seed, power)


@SETTINGS
@given(
    points=st.lists(st.integers(0, 15), min_size=1, max_size=40),
    bye_mask=st.lists(st.booleans(), max_size=40),
    power=st.booleans(),
    seed=st.integers(0, 1000),
)
def test_without_rematches_the_relaxation_alone_is_optimal(points, bye_mask, power, seed):
    """No constraints but byes: the rematch-free chain must be the optimum, certified without networkx."""
    byes = [i for i, b in enumerate(bye_mask[: len(points)]) if b and points[i] >= 3]
    ents, games = ghost_history(points, byes=byes)
    fast = pair_plain(ents, games, 99, seed, power, "auto")
    assert "exact block" not in fast.notes[0]
    assert fast.total_cost == pair_plain(ents, games, 99, seed, power, "networkx").total_cost
    check_invariants(ents, games, fast)


@pytest.mark.slow
@pytest.mark.parametrize("n,rounds,power", [(150, 8, False), (100, 8, True), (251, 9, False)])
def test_larger_events_fast_equals_reference(n, rounds, power):
    ents, games = swiss_history(n, rounds, seed=n + rounds, power=power, drop_rate=0.01)
    assert assert_fast_equals_reference(ents, games, next_round(games), 5, power), "both solvers refused"


def swisspair_cost(sizes):
    """swisspair's recursive C(x, y) over pods 1..l of the given sizes (its README, verbatim)."""
    last = len(sizes)
    size = dict(enumerate(sizes, 1))
    memo = {}

    def c(x, y):
        if x == y:
            return 0
        if (x, y) not in memo:
            below = sum(max(size[k], size[last]) * c(k, last) for k in range(x + 1, last + 1)) + 1
            memo[x, y] = below if y == x + 1 else max(size[x], size[y - 1]) * c(x, y - 1) + below
        return memo[x, y]

    return c


@SETTINGS
@given(sizes=st.lists(st.integers(1, 5), min_size=2, max_size=6), seed=st.integers(0, 10**6))
def test_lexcost_orders_pairings_as_swisspair_big_numbers_do(sizes, seed):
    """Random perfect pairings of the same pods: LexCost and swisspair's recursive costs agree on every pair."""
    import random

    rnd = random.Random(seed)
    pods = [x for x, s in enumerate(sizes) for _ in range(s)]
    if len(pods) % 2:
        pods.append(len(sizes))  # the bye, alone in the lowest pod
        sizes = sizes + [1]
    c = swisspair_cost(sizes)
    scored = []
    for _ in range(8):
        order = rnd.sample(range(len(pods)), len(pods))
        counts = {}
        for a, b in zip(order[::2], order[1::2]):
            x, y = sorted((pods[a], pods[b]))
            if x != y:
                counts[x, y] = counts.get((x, y), 0) + 1
        scored.append((LexCost.of(counts), sum(n * c(x + 1, y + 1) for (x, y), n in counts.items())))
    for lex_a, big_a in scored:
        for lex_b, big_b in scored:
            assert (lex_a < lex_b) == (big_a < big_b) and (lex_a == lex_b) == (big_a == big_b)


@pytest.mark.slow
@SETTINGS
@given(
    n=st.integers(2, 45),
    rounds=st.integers(1, 15),
    seed=st.integers(0, 10**6),
    power=st.booleans(),
)
def test_messy_events_fast_equals_reference(n, rounds, seed, power):
    """Draws, drops, late entries, requested byes, fixed tables, many rounds: the fast path stays exact."""
    ents, games = messy_history(n, rounds, seed, power)
    rnd = next_round(games)
    plans = fast_and_reference(ents, games, rnd, seed, power)
    if plans:
        fast, ref = plans
        assert fast.total_cost == ref.total_cost and fast.certified_optimal
        requested = [e.id for e in ents if not e.dropped and e.asks_bye(rnd)]
        games_at = [t for t in fast.pairings if t.opponent is not None]
        tables = [t.table for t in games_at]
        assert len(set(tables)) == len(tables) and all(t.table > max(tables, default=0)
                                                      for t in fast.pairings if t.opponent is None)
        fixed = {e.id: e.fixed_table for e in ents if e.fixed_table and not e.dropped}
        holder = {t.table: {fixed.get(t.player), fixed.get(t.opponent)} for t in games_at}
        for t in games_at:  # at a fixed table of its players, unless another pair holding that number has it
            wanted = {fixed[p] for p in (t.player, t.opponent) if p in fixed}
            assert not wanted or t.table in wanted or all(w in holder.get(w, ()) for w in wanted)
        renumbered = [dataclasses.replace(t, table=k) for k, t in enumerate(fast.pairings, 1)]
        check_invariants(ents, games, dataclasses.replace(fast, pairings=renumbered), requested)


@pytest.mark.slow
@SETTINGS
@given(
    n=st.integers(2, 50),
    rounds=st.integers(0, 12),
    seed=st.integers(0, 10**6),
    power=st.booleans(),
    random_meetings=st.booleans(),
)
def test_exact_blocks_with_every_pod_cut_to_slots_equal_reference(n, rounds, seed, power, random_meetings):
    """The slot argument holds for a pod of any size: cutting every pod of every exact block to 2r + 4 slots
    (where normally only pods far larger are cut) must still give the reference's cost."""
    import app.core.pairing.plain_exact_block as block

    if random_meetings:
        ents, games = random_history(n, max(rounds, 1), seed, 0.9)
    else:
        ents, games = swiss_history(n, rounds, seed, power, drop_rate=0.03)
    margin, block.SLOT_MARGIN = block.SLOT_MARGIN, -10**9
    try:
        assert_fast_equals_reference(ents, games, next_round(games), seed, power)
    finally:
        block.SLOT_MARGIN = margin


@pytest.mark.parametrize("n", [9, 41, pytest.param(201, marks=pytest.mark.slow)])
def test_a_pod_that_cannot_pair_inside_itself_costs_a_small_exact_block(n):
    """The issue's reproduction: the drawn pair met, so it must float down. The block that proves the optimum
    holds the two of them, two stand-ins below and the bye, however large the field."""
    ents, games = one_draw(n)
    fast = pair_plain(ents, games, 2, 1, False, "auto")
    ref = pair_plain(ents, games, 2, 1, False, "networkx")
    # odd: the winners' pod is even, so both drawn players float, and the bye sits in the losers' pod;
    # even: one winner floats to the drawn pair, which pairs one of them and floats the other
    expected = {(1, 2): 2, (2, 3): 1} if n % 2 else {(0, 1): 1, (1, 2): 1}
    assert fast.total_cost == ref.total_cost == LexCost.of(expected)
    assert fast.certified_optimal and "exact block(s) of at most 6 nodes" in fast.notes[0]
    check_invariants(ents, games, fast)


def test_a_failing_small_pod_under_a_big_one_cuts_the_big_one_to_slots():
    """A big odd pod floats one player into a pod of three who all met: the exact block takes 2r + 4 slots of
    the big pod, not all of it, and still reaches the reference's cost."""
    big = list(range(61))
    met = [(61, 62), (61, 63), (62, 63)]
    ents, games = ghost_history([9] * 61 + [6] * 3 + [3] * 40, met=met)
    fast = pair_plain(ents, games, 9, 4, False, "auto")
    ref = pair_plain(ents, games, 9, 4, False, "networkx")
    assert fast.total_cost == ref.total_cost
    size = int(fast.notes[0].rsplit("at most ", 1)[1].split()[0])
    assert size < len(big), fast.notes
    check_invariants(ents, games, fast)


def test_down_pairs_of_any_pairing_use_the_engine_cost():
    """The cost the benchmark gives swisspair's pairings is the engine's own for the engine's pairing."""
    import random

    from app.core.pairing.plain import prepare

    ents, games = swiss_history(31, 4, seed=3)
    plan = pair_plain(ents, games, 5, 7)
    field = prepare(ents, games, 5, random.Random("7:5"))
    assert field.down_pairs([(t.player, t.opponent) for t in plan.pairings]) == plan.total_cost
    worst = [(field.ranked[i], field.ranked[-1 - i]) for i in range(len(field.ranked) // 2)]
    assert field.down_pairs(worst + [(field.ranked[15], None)]) > plan.total_cost


def sinks_compared(checked: list):
    """ExactBlock.solve that first checks that H with r + 1 sinks reaches, on its own stages, the optimum of H
    with a sink for every group player (the relaxation the proof starts from); `checked` gets the nodes saved."""
    from app.core.pairing import plain_exact_block as block
    from app.core.pairing.plain_cost import LexCost
    from app.core.pairing.plain_exact import ExactSolver
    from app.core.pairing.plain_field import Infeasible

    solve = block.ExactBlock.solve

    def stage_cost(h, pairs):
        counts = {}
        for u, v in pairs:
            t = None if -1 in (u, v) else h.field.type_of(u, v)
            if t and h.a <= t[0] <= h.b:
                counts[t] = counts.get(t, 0) + 1
        return LexCost.of(counts)

    def compared(self, solver):
        many = block.ExactBlock(self.rest, self.a, self.b, bool(self.cut), down=10**9)
        stages = set(range(self.a, self.b + 1))
        try:
            few = ExactSolver(self.field).solve(self.nodes, self.edges, stages)
        except Infeasible:
            with pytest.raises(Infeasible):
                ExactSolver(self.field).solve(many.nodes, many.edges, stages)
        else:
            full = ExactSolver(self.field).solve(many.nodes, many.edges, stages)
            assert stage_cost(self, few) == stage_cost(many, full)
            checked.append(len(many.nodes) - len(self.nodes))
        return solve(self, solver)

    return mock.patch.object(block.ExactBlock, "solve", compared)


@pytest.mark.slow
@SETTINGS
@given(
    n=st.integers(8, 70),
    depth=st.floats(0.05, 0.6),
    seed=st.integers(0, 10**6),
    power=st.booleans(),
    random_meetings=st.booleans(),
)
def test_exact_blocks_need_only_r_plus_one_sinks(n, depth, seed, power, random_meetings):
    """Each exact block's optimum on its stages is the same with r + 1 sinks as with one per group player."""
    rounds = max(1, int(depth * n))
    if random_meetings:
        ents, games = random_history(n, min(rounds, 12), seed, 0.9)
    else:
        ents, games = swiss_history(n, rounds, seed, power)
    with sinks_compared([]):
        try:
            pair_plain(ents, games, next_round(games), seed, power, "auto")
        except PairingError:
            pass


@pytest.mark.slow
def test_deep_events_have_blocks_with_fewer_sinks_than_group_players():
    """The case the sink bound is for happens: deep into an event, blocks are bigger than r + 1."""
    checked: list = []
    with sinks_compared(checked):
        for seed in range(6):
            ents, games = swiss_history(60, 20, seed)
            pair_plain(ents, games, next_round(games), seed, False, "auto")
    assert checked and max(checked) > 0


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(20, 70), depth=st.floats(0.08, 0.45), seed=st.integers(0, 10**6), power=st.booleans())
def test_events_well_into_their_rounds_fast_equals_reference(n, depth, seed, power):
    """Between a few rounds and the deep end: small top pods that cannot pair inside themselves over big ones, where
    exact blocks stop at the pod the built chain got stuck on and take r + 1 sinks."""
    ents, games = swiss_history(n, max(2, int(depth * n)), seed, power)
    assert_fast_equals_reference(ents, games, next_round(games), seed, power)

"""Plain swiss invariants and exactness: the fast path against the networkx big-int reference (hypothesis)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.pairing import PairingError
from app.pairing.plain import LexCost, pair_plain

from plain_helpers import check_invariants, ghost_history, next_round, random_history, swiss_history

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


@SETTINGS
@given(
    n=st.integers(1, 60),
    rounds=st.integers(0, 9),
    seed=st.integers(0, 10**6),
    power=st.booleans(),
)
def test_swiss_events_fast_equals_reference(n, rounds, seed, power):
    ents, games = swiss_history(n, rounds, seed, power, drop_rate=0.03)
    plans = fast_and_reference(ents, games, next_round(games), seed, power)
    if plans:
        fast, ref = plans
        assert fast.total_cost == ref.total_cost
        check_invariants(ents, games, fast)
        check_invariants(ents, games, ref)


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
    plans = fast_and_reference(ents, games, rounds + 1, seed, power)
    if plans:
        fast, ref = plans
        assert fast.total_cost == ref.total_cost
        check_invariants(ents, games, fast)


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
    fast, ref = fast_and_reference(ents, games, next_round(games), 5, power)
    assert fast.total_cost == ref.total_cost
    check_invariants(ents, games, fast)


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

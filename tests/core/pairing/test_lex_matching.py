"""The chunked rustworkx lexicographic matching against networkx with B**rank big-int weights (hypothesis)."""
from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.pairing import lex_matching as lm
from app.core.pairing.plain import LexCost, pair_plain

from tests.core.pairing.plain_helpers import check_invariants, next_round, swiss_history

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_problem(n, pods, density, seed):
    """n nodes in `pods` pods (pod of node i: pod[i]), each legal pair an edge with probability `density`."""
    rnd = random.Random(seed)
    pod = sorted(rnd.randrange(pods) for _ in range(n))
    edges = []
    for u in range(n):
        for v in range(u + 1, n):
            if rnd.random() < density:
                t = (pod[u], pod[v]) if pod[u] != pod[v] else None
                edges.append((v, u, t) if rnd.random() < 0.5 else (u, v, t))
    return pod, edges


def cost(pairs, pod):
    counts = {}
    for u, v in pairs:
        x, y = sorted((pod[u], pod[v]))
        if x != y:
            counts[(x, y)] = counts.get((x, y), 0) + 1
    return LexCost.of(counts)


def reference(n, edges):
    """networkx: weights B**rank, the costliest type highest; None when there is no perfect matching."""
    types = sorted({t for _, _, t in edges if t}, key=lambda t: (-t[0], t[1]))
    base = n // 2 + 1
    weight = {t: base**r for r, t in enumerate(types)}
    big = base ** len(types)
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from((u, v, big - weight.get(t, 0)) for u, v, t in edges)
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    return list(mate) if 2 * len(mate) == n else None


@SETTINGS
@given(n=st.integers(1, 15).map(lambda k: 2 * k), pods=st.integers(1, 20),
       density=st.sampled_from([0.15, 0.3, 0.6, 1.0]), seed=st.integers(0, 10**6),
       bits=st.sampled_from([lm.WEIGHT_BITS, 24, 12, 6]))
def test_chunked_lex_matching_equals_the_big_int_reference(n, pods, density, seed, bits):
    """Any graph, any pods, and weights cut to as few as 6 bits (many chunks, runs split, the prefix outgrowing
    the weights): the same lexicographic cost as one networkx solve, or the same refusal."""
    pod, edges = random_problem(n, pods, density, seed)
    ref = reference(n, edges)
    if ref is None:
        with pytest.raises(lm.NotPerfect) as failure:
            lm.lex_matching(range(n), edges, pod.__getitem__, bits)
        assert failure.value.unmatched
        return
    found = lm.lex_matching(range(n), edges, pod.__getitem__, bits)
    if found is None:  # the decided prefix outgrew the weights: the caller falls back to networkx
        assert bits < lm.WEIGHT_BITS
        return
    assert sorted(v for pair in found for v in pair) == list(range(n))
    legal = {frozenset((u, v)) for u, v, _ in edges}
    assert all(frozenset(pair) in legal for pair in found)
    assert cost(found, pod) == cost(ref, pod)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(6, 36), depth=st.floats(0.5, 1.0), seed=st.integers(0, 10**6), power=st.booleans())
def test_deep_events_cost_what_the_reference_costs(n, depth, seed, power):
    """Deep into an event (up to every round a field can be paired), where the whole field is one exact block."""
    ents, games = swiss_history(n, max(1, int(depth * (n - 1))), seed, power)
    rnd = next_round(games)
    try:
        ref = pair_plain(ents, games, rnd, seed, power, "networkx")
    except Exception:  # noqa: BLE001 - the field ran out of opponents: the fast path must refuse too
        with pytest.raises(Exception):
            pair_plain(ents, games, rnd, seed, power, "auto")
        return
    fast = pair_plain(ents, games, rnd, seed, power, "auto")
    assert fast.total_cost == ref.total_cost
    check_invariants(ents, games, fast)


@pytest.mark.slow
def test_deep_event_pairs_the_same_in_every_process():
    """rustworkx hands its matching back as a set: the pairing must not depend on that set's order."""
    import subprocess
    import sys
    from pathlib import Path

    script = ("from plain_helpers import swiss_history; from app.core.pairing.plain import pair_plain; "
              "ents, games = swiss_history(40, 24, 7); "
              "print([(p.player, p.opponent) for p in pair_plain(ents, games, 25, 7).pairings])")
    here = Path(__file__).resolve().parent
    env = {"PYTHONPATH": f"{here}:{here.parents[2]}", "PYTHONHASHSEED": "random"}
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True).stdout
            for _ in range(3)}
    assert len(runs) == 1

"""matching.solve as a library: the contract plain swiss and the sided formats both rely on."""
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.pairing.matching import NoPerfectMatching, solve


def lexicographic(c, d):
    """Big-int costs like plain swiss's: far beyond 64 bits."""
    return 0 if c == d else 2 ** (200 + 10 * min(c, d)) * abs(c - d)


def test_exact_solvers_take_big_integers():
    nodes = list(range(6))
    cls = {0: 0, 1: 1, 2: 1, 3: 2, 4: 2, 5: 2}
    for solver in ("networkx", "rustworkx", "fast"):
        res = solve(nodes, cls, lexicographic, solver=solver)
        # 0 must pair down; down to class 2 (2^201) beats 0-1 plus 1-2 (2^200 + 2^210)
        assert res.total_cost == lexicographic(0, 2) == 2**201
        assert {cls[a] for p in res.pairs for a in p if 0 in p} == {0, 2}
        assert res.certified


def test_forbidden_pairs_and_the_unmatched_are_reported():
    nodes = ["a", "b", "c", "d"]
    met = [("a", "b"), ("a", "c"), ("a", "d")]
    for solver in ("networkx", "rustworkx", "fast"):
        with pytest.raises(NoPerfectMatching) as err:
            solve(nodes, lambda v: 0, lambda c, d: 0, lambda a, b: None, met, solver=solver)
        assert "a" in err.value.unmatched


def test_extra_costs_apply_only_to_met_pairs():
    nodes = [1, 2, 3, 4]
    res = solve(nodes, lambda v: 0, lambda c, d: 0, lambda a, b: 5, [(1, 2), (3, 4), (1, 3), (2, 4)])
    assert {frozenset(p) for p in res.pairs} == {frozenset((1, 4)), frozenset((2, 3))}
    assert res.total_cost == 0


def test_odd_node_count_and_unknown_solver_are_refused():
    with pytest.raises(ValueError):
        solve([1, 2, 3], lambda v: 0, lambda c, d: 0)
    with pytest.raises(ValueError):
        solve([1, 2], lambda v: 0, lambda c, d: 0, solver="magic")


def test_fast_solver_proves_its_lower_bound_on_a_big_field():
    rnd = random.Random(3)
    nodes = list(range(3000))
    cls = {v: (rnd.randint(0, 8), rnd.choice((-1, 0, 1))) for v in nodes}

    def cost(c, d):
        return 2 * (c[0] - d[0]) ** 2 + (8 if c[1] == d[1] != 0 else 0)

    met = [(v, rnd.randrange(3000)) for v in nodes for _ in range(4)]
    res = solve(nodes, cls, cost, lambda a, b: None, met, solver="fast", rng=random.Random(1))
    assert res.certified and res.total_cost == res.lower_bound.__ceil__()
    assert sorted(v for p in res.pairs for v in p) == nodes
    banned = {frozenset(p) for p in met}
    assert not any(frozenset(p) in banned for p in res.pairs)


def _class_problem(rnd, half, classes, met_count, class_cost, met_costs):
    """Solver arguments for 2 * `half` nodes in random classes: `class_cost(c, d)` drawn once per pair of
    classes, and `met_count` random repeat meetings, each with a cost drawn from `met_costs`."""
    nodes = list(range(2 * half))
    cls = {v: rnd.randrange(classes) for v in nodes}
    table = {}
    for c in range(classes):
        for d in range(c, classes):
            table[c, d] = table[d, c] = class_cost(c, d)
    extra, met = {}, []
    for _ in range(met_count):
        a, b = rnd.sample(nodes, 2)
        met.append((a, b))
        extra[frozenset((a, b))] = rnd.choice(met_costs)
    return nodes, cls, lambda c, d: table[c, d], lambda a, b: extra[frozenset((a, b))], met


def _reference_or_refusal(args, seed):
    """The networkx reference's result, or None after checking that the fast solver refuses too."""
    try:
        return solve(*args, solver="networkx", rng=random.Random(seed))
    except NoPerfectMatching:
        with pytest.raises(NoPerfectMatching):
            solve(*args, solver="fast")
        return None


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.integers(7, 40), st.integers(1, 6), st.integers(0, 60), st.integers(0, 10**6))
def test_fast_equals_the_reference_on_random_class_problems(half, classes, met_count, seed):
    rnd = random.Random(seed)
    args = _class_problem(rnd, half, classes, met_count,
                          lambda c, d: None if rnd.random() < 0.1 and c != d else rnd.randint(0, 30), [None, 0, 1, 7])
    ref = _reference_or_refusal(args, seed)
    if ref is None:
        return
    fast = solve(*args, solver="fast", rng=random.Random(seed))
    assert fast.total_cost == ref.total_cost and fast.certified
    if fast.lower_bound is not None:
        assert fast.lower_bound <= fast.total_cost
    assert isinstance(fast.lower_bound, (Fraction, type(None)))


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.integers(7, 40), st.integers(1, 6), st.integers(0, 60), st.sampled_from([40, 52, 64, 90, 200]),
       st.integers(0, 10**6))
def test_fast_is_exact_and_certified_at_any_cost_size(half, classes, met_count, bits, seed):
    """Class costs far beyond floating point (tiers 2**bits apart plus small parts): the LP passes must still
    prove the optimum, without the full graph (switched off here), and the bound must never exceed it."""
    import app.core.pairing.fast as fast_module

    rnd = random.Random(seed)
    args = _class_problem(rnd, half, classes, met_count,
                          lambda c, d: rnd.randint(0, 3) * 2**bits + rnd.randint(0, 30), [None, 0, 1, 2**bits])
    ref = _reference_or_refusal(args, seed)
    if ref is None:
        return
    limit, fast_module.FULL_GRAPH_LIMIT = fast_module.FULL_GRAPH_LIMIT, 0
    try:
        fast = solve(*args, solver="fast", rng=random.Random(seed))
    finally:
        fast_module.FULL_GRAPH_LIMIT = limit
    assert fast.total_cost == ref.total_cost and fast.certified
    assert fast.lower_bound is None or fast.lower_bound <= ref.total_cost
    assert not any("full graph" in note or "within classes" in note for note in fast.notes)

"""Minimum-cost perfect matching for pairing: exact full-graph solvers and a fast class-aware solver.

Every format states its problem the same way: nodes (players, plus a phantom bye node for an odd field), the
class of each node, a cost between two classes (None: forbidden), and, for the few pairs that met before, an
extra cost on top (None: forbidden). Costs are Python ints (any size). The answer is a perfect matching of
minimum total cost, or NoPerfectMatching naming the nodes a maximum matching leaves alone.

Solvers:
- "networkx": the reference. Complete graph, `max_weight_matching(maxcardinality=True)`, weight = BIG - cost.
- "rustworkx": the same graph and weights with rustworkx's blossom (weights must fit its 128-bit integers).
- "fast": players of one class are interchangeable except for pairs that met, so the class-level LP (degree
  constraints plus odd-set cuts over unions of classes) gives an exact lower bound from verified duals. Its
  optimum is realised with actual players avoiding every earlier meeting; leftovers are solved exactly with
  rustworkx. A result whose cost reaches the bound is proven optimal (`certified`). Otherwise, while the work
  budget (work.py: counted operations, not time) lasts, more LP passes, then an exact solve on the pairs that
  could still close the gap (reduced cost below it); a field whose full graph fits in the budget is solved on
  it. When the budget runs out, the best matching found comes back uncertified with its proven `lower_bound`.
  The n^2 graph is not built above FULL_GRAPH_LIMIT nodes (save, in a pathological field, to show that
  leftovers cannot be paired at all). Details in fast.py.
- "auto": "fast" (which itself uses the full graph for small fields).
"""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Callable, Hashable, Iterable, Mapping, Optional, Sequence, Union

from .exact import ClassCost, ExtraCost, MatchResult, Node, NoPerfectMatching, _exact, _Problem
from .fast import solve_fast
from .work import WORK_BUDGET, Work

SOLVERS = ("auto", "networkx", "rustworkx", "fast")
__all__ = ["SOLVERS", "MatchResult", "NoPerfectMatching", "solve"]


def solve(
    nodes: Sequence[Node],
    class_of: Union[Mapping, Callable[[Node], Hashable]],
    class_cost: ClassCost,
    extra_cost: Optional[ExtraCost] = None,
    met_pairs: Union[Iterable[tuple], Mapping] = (),
    solver: str = "auto",
    rng: Optional[random.Random] = None,
    work_budget: Optional[int] = None,
) -> MatchResult:
    """Minimum-cost perfect matching of `nodes` (an even number of them).

    cost(a, b) = class_cost(class_of[a], class_of[b]) (+ extra_cost(a, b) when (a, b) is in `met_pairs`);
    None anywhere means the pair is forbidden. `met_pairs`: (a, b) pairs, or a symmetric mapping
    {node: set of nodes it met}. class_cost must be symmetric. `rng` breaks ties between
    equal-cost matchings reproducibly. `work_budget`: the fast solver's budget in work units (work.py; default
    WORK_BUDGET). Raises NoPerfectMatching when some node cannot be matched.
    """
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; choose from {', '.join(SOLVERS)}")
    rng = rng or random.Random(0)
    problem = _Problem(nodes, class_of, class_cost, extra_cost, met_pairs)
    if len(problem.nodes) % 2:
        raise ValueError("an odd number of nodes has no perfect matching; add a bye node")
    if not problem.nodes:
        return MatchResult([], 0, True, Fraction(0), solver)
    if solver in ("networkx", "rustworkx"):
        return _exact(problem, problem.nodes, solver, rng)
    work = Work(work_budget if work_budget is not None else WORK_BUDGET)
    result = solve_fast(problem, rng, work)
    result.notes.append(f"work: {work.spent:,} of {work.budget:,} units")
    return result

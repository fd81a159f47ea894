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
  rustworkx. A result whose cost reaches the bound is proven optimal (`certified`). Otherwise a field of at
  most FULL_GRAPH_LIMIT nodes is re-solved exactly on the full graph, a larger one on the pairs that could
  still close the gap (reduced cost below it); if those are too many it is returned uncertified with the gap
  in `notes`. The n^2 graph is not built above FULL_GRAPH_LIMIT nodes (save, in a pathological field, to
  show that leftovers cannot be paired at all). Details in fast.py.
- "auto": "fast" (which itself uses the full graph for small fields).
"""
from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Hashable, Iterable, Mapping, Optional, Sequence, Union

import networkx as nx
import rustworkx as rx

SOLVERS = ("auto", "networkx", "rustworkx", "fast")
FULL_GRAPH_LIMIT = 1500  # above this many nodes the complete graph is never built
SMALL_FIELD = 12  # below this the class machinery is not worth it: solve the full graph
LP_CLASS_LIMIT = 1200  # classes the LP takes (K^2/2 variables)
RX_WEIGHT_LIMIT = 2**100  # rustworkx sums weights in 128-bit integers

Node = Hashable
ClassCost = Callable[[Hashable, Hashable], Optional[int]]
ExtraCost = Callable[[Node, Node], Optional[int]]


class NoPerfectMatching(Exception):
    """No perfect matching exists; `unmatched` are the nodes a maximum-cardinality matching leaves alone."""

    def __init__(self, unmatched: Iterable[Node]):
        self.unmatched = list(unmatched)
        super().__init__(f"no perfect matching; {len(self.unmatched)} node(s) left alone")


@dataclass
class MatchResult:
    pairs: list  # [(a, b), ...] in a seeded order
    total_cost: int
    certified: bool = True  # proven optimal (exact solver, or fast solver reaching its lower bound)
    lower_bound: Optional[Fraction] = None  # the fast solver's proven bound, when it computed one
    solver: str = ""
    notes: list = field(default_factory=list)


class _Problem:
    """The costs of one matching problem, with class costs cached and met pairs looked up per node."""

    def __init__(self, nodes, class_of, class_cost, extra_cost, met_pairs):
        self.nodes = list(nodes)
        if len(set(self.nodes)) != len(self.nodes):
            raise ValueError("duplicate nodes")
        lookup = class_of.__getitem__ if isinstance(class_of, Mapping) else class_of
        self.cls = {v: lookup(v) for v in self.nodes}
        self._class_cost = class_cost
        self._cache: dict = {}
        self._extra_cost = extra_cost
        self._extra: dict = {}
        # node -> nodes it met (costs looked up lazily); entries that are not nodes are harmless
        if isinstance(met_pairs, Mapping):
            self.special = {a: met for a, met in met_pairs.items() if met and a in self.cls}
        else:
            self.special = defaultdict(set)
            for a, b in met_pairs:
                if a in self.cls and b in self.cls and a != b:
                    self.special[a].add(b)
                    self.special[b].add(a)

    def class_cost(self, c, d) -> Optional[int]:
        key = (c, d)
        try:
            return self._cache[key]
        except KeyError:
            value = self._class_cost(c, d)
            self._cache[key] = self._cache[(d, c)] = value
            return value

    def extra(self, a, b) -> Optional[int]:
        key = (a, b)
        try:
            return self._extra[key]
        except KeyError:
            value = self._extra_cost(a, b) if self._extra_cost else None
            if value is not None and value < 0:
                raise ValueError("extra costs must be >= 0")
            self._extra[key] = self._extra[(b, a)] = value
            return value

    def cost(self, a, b) -> Optional[int]:
        base = self.class_cost(self.cls[a], self.cls[b])
        if base is None:
            return None
        spec = self.special.get(a)
        if spec and b in spec:
            extra = self.extra(a, b)
            return None if extra is None else base + extra
        return base


def solve(
    nodes: Sequence[Node],
    class_of: Union[Mapping, Callable[[Node], Hashable]],
    class_cost: ClassCost,
    extra_cost: Optional[ExtraCost] = None,
    met_pairs: Union[Iterable[tuple], Mapping] = (),
    solver: str = "auto",
    rng: Optional[random.Random] = None,
) -> MatchResult:
    """Minimum-cost perfect matching of `nodes` (an even number of them).

    cost(a, b) = class_cost(class_of[a], class_of[b]) (+ extra_cost(a, b) when (a, b) is in `met_pairs`);
    None anywhere means the pair is forbidden. `met_pairs`: (a, b) pairs, or a symmetric mapping
    {node: set of nodes it met}. class_cost must be symmetric. `rng` breaks ties between
    equal-cost matchings reproducibly. Raises NoPerfectMatching when some node cannot be matched.
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
    from .fast import solve_fast  # the class-aware solver lives beside this module

    return solve_fast(problem, rng)


def _exact(problem: _Problem, nodes: list, solver: str, rng: random.Random) -> MatchResult:
    """Complete graph on `nodes`, maximum-cardinality maximum-weight matching with weight BIG - cost."""
    order = list(nodes)
    rng.shuffle(order)  # equal-cost matchings are chosen among at random, reproducibly
    index = {v: i for i, v in enumerate(order)}
    groups: dict = defaultdict(list)
    for i, v in enumerate(order):
        groups[problem.cls[v]].append(i)
    keys = list(groups)
    edges = []
    for x, c in enumerate(keys):
        for d in keys[x:]:
            base = problem.class_cost(c, d)
            if base is None:
                continue
            gc, gd = groups[c], groups[d]
            if c == d:
                edges.extend((i, j, base) for k, i in enumerate(gc) for j in gc[k + 1:])
            else:
                edges.extend((i, j, base) for i in gc for j in gd)
    if problem.special:  # met pairs: drop the class-cost edge, add the real one
        fix = {}
        for a, met in problem.special.items():
            if a in index:
                for b in met:
                    if b in index and index[a] < index[b]:
                        fix[(index[a], index[b])] = problem.cost(a, b)
        edges = [e for e in edges if (e[0], e[1]) not in fix and (e[1], e[0]) not in fix]
        edges.extend((i, j, w) for (i, j), w in sorted(fix.items()) if w is not None)  # stable order
    return _match_edges(problem, order, edges, solver)


def _match_edges(problem: _Problem, order: list, edges: list, solver: str) -> MatchResult:
    """Max-cardinality min-cost matching of `order` over `edges` ((i, j, cost) on indices into `order`)."""
    big = max((e[2] for e in edges), default=0) + 1
    if solver == "rustworkx" and big >= RX_WEIGHT_LIMIT:
        solver = "networkx"
    if solver == "rustworkx":
        graph = rx.PyGraph()
        graph.add_nodes_from(range(len(order)))
        graph.add_edges_from([(i, j, big - w) for i, j, w in edges])
        mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    else:
        graph = nx.Graph()
        graph.add_nodes_from(range(len(order)))
        graph.add_weighted_edges_from((i, j, big - w) for i, j, w in edges)
        mate = nx.max_weight_matching(graph, maxcardinality=True)
    matched = {i for pair in mate for i in pair}
    if len(matched) < len(order):
        raise NoPerfectMatching(order[i] for i in range(len(order)) if i not in matched)
    pairs = sorted((min(i, j), max(i, j)) for i, j in mate)
    result = [(order[i], order[j]) for i, j in pairs]
    total = sum(problem.cost(a, b) for a, b in result)
    return MatchResult(result, total, True, None, solver)


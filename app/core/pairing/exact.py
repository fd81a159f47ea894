"""The matching problem every format states, and the exact full-graph solvers (networkx, rustworkx).

A lower module than both `matching` (the solver choice) and `fast` (the class-aware solver), which share it."""
from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Hashable, Iterable, Mapping, Optional

import networkx as nx
import rustworkx as rx

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


def chosen_cost(cost: Optional[int]) -> int:
    """The cost of a pair a matching chose: only allowed pairs are edges, so it has one."""
    if cost is None:
        raise AssertionError("a matching chose a forbidden pair")
    return cost


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

    def price(self, c, d) -> Optional[int]:
        """The cost between two classes, uncached here (for tables that are priced once)."""
        return self._class_cost(c, d)

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
                raise ValueError("extra costs must be >= 0") from None
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

def _exact(problem: _Problem, nodes: list, solver: str, rng: random.Random, work=None) -> MatchResult:
    """Complete graph on `nodes`, maximum-cardinality maximum-weight matching with weight BIG - cost."""
    order = list(nodes)
    rng.shuffle(order)  # equal-cost matchings are chosen among at random, reproducibly
    index = {v: i for i, v in enumerate(order)}
    groups: dict = defaultdict(list)
    for i, v in enumerate(order):
        groups[problem.cls[v]].append(i)
    keys = list(groups)
    edges: list[tuple] = []
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
    return _match_edges(problem, order, edges, solver, work)


def _match_edges(problem: _Problem, order: list, edges: list, solver: str, work=None) -> MatchResult:
    """Max-cardinality min-cost matching of `order` over `edges` ((i, j, cost) on indices into `order`); the
    edges are counted against `work` (a work.Work), when given."""
    if work is not None:
        work.spend(work.match_units(len(order), len(edges)))
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
    total = sum(chosen_cost(problem.cost(a, b)) for a, b in result)
    return MatchResult(result, total, True, None, solver)

"""Lexicographic minimum-cost perfect matching in a few compiled (rustworkx) solves, for plain swiss's exact blocks.

Plain swiss compares pairings by their down-pair counts type by type, the most expensive type first (`plain.py`).
One weighted solve would need weights B**rank: deep into an event, when most pairs are down-pairs of types of
their own, that is thousands of bits, while rustworkx's weights are 128-bit integers. So the types are decided in
lexicographic order, a chunk at a time, each chunk one exact rustworkx solve whose integer weights stay below
2**WEIGHT_BITS:

- Decided types form a prefix of the order. Every optimal matching has the same count of each of them, so a type
  decided at count 0 loses its edges for good, and a type decided at count c > 0 stays weighted: the matchings
  that keep the prefix's counts are exactly the prefix's optimal face.
- A chunk is the next undecided types as *levels*: a type on its own, or a run of one stage's costliest types
  expected (from the last solve) to be unused. Levels get mixed-radix weights (each more than every lower level
  at its most possible count), so one solve minimises the levels' counts lexicographically. Its answer decides
  the levels in order up to the first run that is used after all; that run is split and solved again.
- An edge that is the only one left at a node is in every remaining perfect matching: it is committed and its
  nodes leave the problem (this keeps the decided prefix small deep into an event, where most players have few
  legal opponents left).

`None` is returned when the decided prefix alone would need more than WEIGHT_BITS bits; the caller then solves
exactly with Python integers (networkx).
"""
from __future__ import annotations

from collections import defaultdict
from itertools import compress
from typing import Callable, Hashable, Optional, Sequence

import numpy as np
import rustworkx as rx

WEIGHT_BITS = 120  # rustworkx's weights are 128-bit integers and its slacks reach 4x the largest weight


class NotPerfect(Exception):
    """No perfect matching: `unmatched` are the nodes a maximum-cardinality matching leaves alone."""

    def __init__(self, unmatched):
        self.unmatched = list(unmatched)


def lex_matching(nodes: Sequence[Hashable], edges: Sequence[tuple], pod_of: Callable[[Hashable], int],
                 bits: int = WEIGHT_BITS) -> Optional[list]:
    """A perfect matching of `nodes` over `edges` [(u, v, type)] minimising type counts lexicographically.

    A type is (x, y), x < y, the pods of its two ends (`pod_of`); (x, y) costs more than (x', y') when x < x', or
    x == x' and y > y'. Type None costs nothing. Raises NotPerfect; None when the weights would not fit in
    `bits` bits."""
    return _Lex(nodes, edges, pod_of, bits).solve()


class _Lex:
    def __init__(self, nodes, edges, pod_of, bits):
        self.limit = 1 << bits
        self.nodes = list(nodes)
        index = {v: i for i, v in enumerate(self.nodes)}
        self.eu = eu = [index[u] for u, _, _ in edges]
        self.ev = ev = [index[v] for _, v, _ in edges]
        self.et = et = [t for _, _, t in edges]
        self.alive = [True] * len(edges)
        self.by_type: dict = defaultdict(list)
        for k, t in enumerate(et):
            if t is not None:
                self.by_type[t].append(k)
        # each node's edges, grouped by a sort rather than appended one by one (blocks have thousands of edges)
        ends = np.array(eu + ev, dtype=np.int64)
        ids = np.concatenate([np.arange(len(eu)), np.arange(len(eu))])
        order = np.argsort(ends, kind="stable")
        bounds = np.searchsorted(ends[order], np.arange(len(self.nodes) + 1)).tolist()
        flat = ids[order].tolist()
        self.at: list = [flat[bounds[i]:bounds[i + 1]] for i in range(len(self.nodes))]
        self.degree = [bounds[i + 1] - bounds[i] for i in range(len(self.nodes))]  # live edges, kept up to date
        self._graph = None  # the live edges' graph, rebuilt after edges die
        self.pods = [pod_of(v) for v in self.nodes]
        self.sides: dict = {}  # type -> its two sides, worked out when first asked (_side)
        self.order = sorted(self.by_type, key=lambda t: (t[0], -t[1]))  # the costliest first
        self.gone = [False] * len(self.nodes)  # committed nodes
        self.committed: list = []
        self.positive: dict = {}  # decided types with a count > 0 (the prefix's weighted part)
        self.next = 0  # self.order[:next] is decided
        self.guess: dict = {}  # stage -> the costliest type of that stage expected in use

    # ------------------------------------------------------------------ one solve

    def _match(self, weight: dict) -> list:
        """rustworkx: maximum cardinality, then minimum total weight; the pairs as edge indices. The graph of the
        live edges is built again (one compiled call) when edges died since the last solve, which is cheaper than
        removing them one by one."""
        big = max(weight.values(), default=0) + 1
        cost = [big] * len(self.et)
        for t, w in weight.items():
            for k in self.by_type[t]:
                cost[k] = big - w
        graph = self._graph
        if graph is None:
            graph = self._graph = rx.PyGraph(multigraph=False)
            graph.add_nodes_from(range(len(self.nodes)))
            graph.add_edges_from(list(compress(zip(self.eu, self.ev, range(len(self.eu))), self.alive)))
        mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=cost.__getitem__)
        chosen = sorted(graph.get_edge_data(u, v) for u, v in mate)  # rustworkx returns a set: fix the order
        covered = {i for pair in mate for i in pair}
        if len(covered) + sum(self.gone) < len(self.nodes):
            raise NotPerfect(self.nodes[i] for i in range(len(self.nodes)) if i not in covered and not self.gone[i])
        return chosen

    def _side(self, t) -> tuple:
        """A type's two sides (its higher pod's ends, its lower pod's ends): a matching uses at most the fewer."""
        if t not in self.sides:
            top, pods, eu, ev, ks = t[0], self.pods, self.eu, self.ev, self.by_type[t]
            high = {eu[k] if pods[eu[k]] == top else ev[k] for k in ks}
            low = {ev[k] if pods[eu[k]] == top else eu[k] for k in ks}
            self.sides[t] = (high, low)
        return self.sides[t]

    def _cap(self, types) -> int:
        high, low = set(), set()
        for t in types:
            h, lo = self._side(t)
            high |= h
            low |= lo
        return min(len(high), len(low))

    def _span(self, level) -> int:
        """How far a level's count can fall below or rise above its value in the optimum that a solve must find:
        a decided type's count can only be lower (at the first decided type where a matching differs from the
        optimum, it has more; so below that, at most the optimum's count less), an undecided level's anything
        from 0 to its cap."""
        t = level[0]
        return self.positive[t] if t in self.positive else self._cap(level)

    def _levels(self) -> Optional[list]:
        """The weighted levels of the next solve, the costliest first: the decided positive types, then a chunk of
        undecided ones (lists of types); None when the decided ones alone do not fit."""
        levels = [[t] for t in self.order[:self.next] if t in self.positive]
        room = 1
        for lev in levels:
            room *= self._span(lev) + 1
        limit = self.limit
        if room >= limit:
            return None
        chunk_start = len(levels)
        k = self.next
        order = self.order
        while k < len(order):
            stage = order[k][0]
            end = k
            while end < len(order) and order[end][0] == stage:
                end += 1
            guess = self.guess.get(stage)
            far = [t for t in order[k:end] if guess is None or (-t[1]) < (-guess[1])]
            stage_levels = ([far] if far else []) + [[t] for t in order[k + len(far):end]]
            for lev in stage_levels:
                cap = self._cap(lev)
                if room * (cap + 1) >= limit:
                    return levels if len(levels) > chunk_start else None
                room *= cap + 1
                levels.append(lev)
            k = end
        return levels

    # ------------------------------------------------------------------ the loop

    def solve(self) -> Optional[list]:
        self._hint()
        while True:
            self._propagate()
            levels = self._levels()
            if levels is None:
                return None
            weight, w = {}, 1
            for lev in reversed(levels):
                for t in lev:
                    weight[t] = w
                w += self._span(lev) * w
            chosen = self._match(weight)
            count: dict = defaultdict(int)
            used_in_stage: dict = {}
            for k in chosen:
                t = self.et[k]
                if t is not None:
                    count[t] += 1
                    if t[0] not in used_in_stage or t[1] > used_in_stage[t[0]][1]:
                        used_in_stage[t[0]] = t
            self.guess.update(used_in_stage)
            for lev in levels:
                if lev[0] in self.positive:
                    continue
                total = sum(count[t] for t in lev)
                if total == 0:
                    for t in lev:
                        self._drop_type(t)
                elif len(lev) == 1:
                    self.positive[lev[0]] = total
                else:  # a run that is used after all: split it (its costliest used type stands alone next time)
                    break
                self.next += len(lev)
            if self.next == len(self.order):
                pairs = [(self.eu[k], self.ev[k]) for k in chosen]
                return [(self.nodes[u], self.nodes[v]) for u, v in pairs + self.committed]

    def _hint(self) -> None:
        """A first guess of each stage's costliest type in use: one solve weighting each down-pair by its length,
        more for higher stages (only a guess: it chooses how the first chunk is cut into levels)."""
        if not self.order:
            return
        room = 1
        for t in self.order:
            room *= self._cap([t]) + 1
        if room < self.limit:  # every type fits as a level of its own: one solve decides them all, no guess needed
            for t in self.order:  # each stage's costliest type "in use": no type is lumped into a run
                self.guess.setdefault(t[0], t)
            return
        top = self.order[0][0]
        bottom = max(t[1] for t in self.order)
        span = bottom - top + 1
        weight = {t: (t[1] - t[0]) * (span - (t[0] - top)) ** 3 for t in self.order}
        chosen = self._match(weight)
        for k in chosen:
            t = self.et[k]
            if t is not None and (t[0] not in self.guess or t[1] > self.guess[t[0]][1]):
                self.guess[t[0]] = t

    def _drop_type(self, t) -> None:
        alive, degree, eu, ev = self.alive, self.degree, self.eu, self.ev  # _kill inlined: thousands of edges
        for k in self.by_type[t]:
            if alive[k]:
                alive[k] = False
                degree[eu[k]] -= 1
                degree[ev[k]] -= 1
        self._graph = None

    def _kill(self, k) -> None:
        self.alive[k] = False
        self._graph = None
        self.degree[self.eu[k]] -= 1
        self.degree[self.ev[k]] -= 1

    def _propagate(self) -> None:
        """Commit every edge that is the last one at a node (it is in every perfect matching left)."""
        alive, at, eu, ev, degree, gone = self.alive, self.at, self.eu, self.ev, self.degree, self.gone
        queue = [i for i, d in enumerate(degree) if d == 1 and not gone[i]]
        while queue:
            i = queue.pop()
            if gone[i] or degree[i] != 1:
                continue
            k = next(k for k in at[i] if alive[k])
            u, v = eu[k], ev[k]
            self.committed.append((u, v))
            t = self.et[k]
            for node in (u, v):
                gone[node] = True
                for e in at[node]:
                    if alive[e]:
                        self._kill(e)
                        other = ev[e] if eu[e] == node else eu[e]
                        if degree[other] == 1 and not gone[other]:
                            queue.append(other)
            if t is not None and t in self.positive:
                self.positive[t] -= 1
                if self.positive[t] == 0:  # its count is reached: no more of this type
                    del self.positive[t]
                    for e in self.by_type[t]:
                        if alive[e]:
                            self._kill(e)
                            for node in (eu[e], ev[e]):
                                if degree[node] == 1 and not gone[node]:
                                    queue.append(node)

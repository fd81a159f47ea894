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
from typing import Callable, Hashable, Optional, Sequence

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
        self.eu = [index[u] for u, _, _ in edges]
        self.ev = [index[v] for _, v, _ in edges]
        self.et = [t for _, _, t in edges]
        self.alive = [True] * len(edges)
        self.graph = rx.PyGraph(multigraph=False)
        self.graph.add_nodes_from(range(len(self.nodes)))
        self.eid = self.graph.add_edges_from(list(zip(self.eu, self.ev, range(len(edges)))))
        self.by_type: dict = defaultdict(list)
        self.at: list = [[] for _ in self.nodes]
        for k, (u, v, t) in enumerate(zip(self.eu, self.ev, self.et)):
            if t is not None:
                self.by_type[t].append(k)
            self.at[u].append(k)
            self.at[v].append(k)
        # each type's two sides (its higher pod's ends, its lower pod's ends): a matching uses at most min of them
        self.sides = {}
        for t, ks in self.by_type.items():
            high, low = set(), set()
            for k in ks:
                u, v = self.eu[k], self.ev[k]
                if pod_of(self.nodes[u]) != t[0]:
                    u, v = v, u
                high.add(u)
                low.add(v)
            self.sides[t] = (high, low)
        self.order = sorted(self.by_type, key=lambda t: (t[0], -t[1]))  # the costliest first
        self.gone = [False] * len(self.nodes)  # committed nodes
        self.committed: list = []
        self.positive: dict = {}  # decided types with a count > 0 (the prefix's weighted part)
        self.next = 0  # self.order[:next] is decided
        self.guess: dict = {}  # stage -> the costliest type of that stage expected in use

    # ------------------------------------------------------------------ one solve

    def _match(self, weight: dict) -> list:
        """rustworkx: maximum cardinality, then minimum total weight; the pairs as edge indices."""
        big = max(weight.values(), default=0) + 1
        cost = [big - weight.get(t, 0) for t in self.et]
        graph = self.graph
        mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=cost.__getitem__)
        chosen = sorted(graph.get_edge_data(u, v) for u, v in mate)  # rustworkx returns a set: fix the order
        covered = {i for pair in mate for i in pair}
        if len(covered) + sum(self.gone) < len(self.nodes):
            raise NotPerfect(self.nodes[i] for i in range(len(self.nodes)) if i not in covered and not self.gone[i])
        return chosen

    def _cap(self, types) -> int:
        high, low = set(), set()
        for t in types:
            h, lo = self.sides[t]
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
        for k in self.by_type[t]:
            if self.alive[k]:
                self._kill(k)

    def _kill(self, k) -> None:
        self.alive[k] = False
        self.graph.remove_edge_from_index(self.eid[k])

    def _propagate(self) -> None:
        """Commit every edge that is the last one at a node (it is in every perfect matching left)."""
        alive, at, eu, ev = self.alive, self.at, self.eu, self.ev
        degree = [sum(alive[k] for k in at[i]) if not self.gone[i] else -1 for i in range(len(self.nodes))]
        queue = [i for i, d in enumerate(degree) if d == 1]
        while queue:
            i = queue.pop()
            if self.gone[i] or degree[i] != 1:
                continue
            k = next(k for k in at[i] if alive[k])
            u, v = eu[k], ev[k]
            self.committed.append((u, v))
            t = self.et[k]
            for node in (u, v):
                self.gone[node] = True
                for e in at[node]:
                    if alive[e]:
                        self._kill(e)
                        other = ev[e] if eu[e] == node else eu[e]
                        degree[other] -= 1
                        if degree[other] == 1 and not self.gone[other]:
                            queue.append(other)
            if t is not None and t in self.positive:
                self.positive[t] -= 1
                if self.positive[t] == 0:  # its count is reached: no more of this type
                    del self.positive[t]
                    for e in self.by_type[t]:
                        if alive[e]:
                            self._kill(e)
                            for node in (eu[e], ev[e]):
                                degree[node] -= 1
                                if degree[node] == 1 and not self.gone[node]:
                                    queue.append(node)

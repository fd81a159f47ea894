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

The bookkeeping is numpy over arrays of the edges (blocks have thousands of them): types are numbered in the
order, most expensive first, so a level is a range of type numbers and a type's edges a slice of one sort.

`None` is returned when the decided prefix alone would need more than WEIGHT_BITS bits; the caller then solves
exactly with Python integers (networkx).
"""
from __future__ import annotations

from typing import Any, Callable, Hashable, Optional, Sequence

import numpy as np
import rustworkx as rx

WEIGHT_BITS = 120  # rustworkx's weights are 128-bit integers and its slacks reach 4x the largest weight


class NotPerfect(Exception):
    """No perfect matching: `unmatched` are the nodes a maximum-cardinality matching leaves alone."""

    def __init__(self, unmatched):
        self.unmatched = list(unmatched)


def lex_matching(nodes: Sequence[Hashable], edges: Sequence[tuple], pod_of: Callable[[Any], int],
                 bits: int = WEIGHT_BITS) -> Optional[list]:
    """A perfect matching of `nodes` over `edges` [(u, v, type)] minimising type counts lexicographically.

    A type is (x, y), x < y, the pods of its two ends (`pod_of`); (x, y) costs more than (x', y') when x < x', or
    x == x' and y > y'. Type None costs nothing. Raises NotPerfect; None when the weights would not fit in
    `bits` bits."""
    nodes = list(nodes)
    index = {v: i for i, v in enumerate(nodes)}
    eu = np.fromiter((index[u] for u, _, _ in edges), dtype=np.int64, count=len(edges))
    ev = np.fromiter((index[v] for _, v, _ in edges), dtype=np.int64, count=len(edges))
    tx = np.fromiter((t[0] if t else -1 for _, _, t in edges), dtype=np.int64, count=len(edges))
    ty = np.fromiter((t[1] if t else -1 for _, _, t in edges), dtype=np.int64, count=len(edges))
    pods = np.fromiter((pod_of(v) for v in nodes), dtype=np.int64, count=len(nodes))
    try:
        found = lex_matching_arrays(pods, eu, ev, tx, ty, bits)
    except NotPerfect as failure:
        raise NotPerfect(nodes[i] for i in failure.unmatched) from None
    return None if found is None else [(nodes[u], nodes[v]) for u, v in found]


def lex_matching_arrays(pods: np.ndarray, eu: np.ndarray, ev: np.ndarray, tx: np.ndarray, ty: np.ndarray,
                        bits: int = WEIGHT_BITS) -> Optional[list]:
    """`lex_matching` on nodes 0..len(pods)-1 (pods[i]: node i's pod) and edges eu[k]-ev[k] of type
    (tx[k], ty[k]), tx[k] = -1 for none: the matching as pairs of nodes. Raises NotPerfect (nodes), or None."""
    return _Lex(pods, eu, ev, tx, ty, bits).solve()


class _Lex:
    def __init__(self, pods, eu, ev, tx, ty, bits):
        self.limit = 1 << bits
        self.n = n = len(pods)
        self.eu, self.ev = eu, ev
        self.eu_l, self.ev_l = eu.tolist(), ev.tolist()
        typed = tx >= 0
        top_y = int(ty.max()) + 1 if len(ty) else 1
        keys, inverse = np.unique(np.where(typed, tx * top_y + (top_y - 1 - ty), -1), return_inverse=True)
        untyped = int(len(keys) > 0 and keys[0] < 0)
        ntypes = len(keys) - untyped
        tid = inverse.reshape(-1) - untyped  # type number in the order (the costliest first), -1 for none
        self.tid, self.tid_l = tid, tid.tolist()
        keys = keys[untyped:]
        self.tx_of = (keys // top_y).tolist()  # each type's stage
        self.ty_of = (top_y - 1 - keys % top_y).tolist()
        self.ntypes = ntypes
        # each type's edges: a slice of one sort (the untyped last)
        sort_key = np.where(tid < 0, ntypes, tid)
        self.perm = perm = np.argsort(sort_key, kind="stable")
        self.start = np.searchsorted(sort_key[perm], np.arange(ntypes + 1)).tolist()
        # the end of each type's stage (types of one stage are consecutive)
        self.stage_end = [0] * ntypes
        end = ntypes
        for k in range(ntypes - 1, -1, -1):
            if k + 1 < ntypes and self.tx_of[k + 1] != self.tx_of[k]:
                end = k + 1
            self.stage_end[k] = end
        # a type's two sides: its higher pod's ends, its lower pod's ends; a matching uses at most the fewer
        high_first = pods[eu] == tx
        self.hi = np.where(high_first, eu, ev)
        self.lo = np.where(high_first, ev, eu)
        self.caps: dict = {}
        if ntypes:
            t = tid[perm[:self.start[ntypes]]]
            h, lo = self.hi[perm[:self.start[ntypes]]], self.lo[perm[:self.start[ntypes]]]
            hc = np.bincount(np.unique(t * n + h) // n, minlength=ntypes)
            lc = np.bincount(np.unique(t * n + lo) // n, minlength=ntypes)
            self.caps = {(k, k + 1): c for k, c in enumerate(np.minimum(hc, lc).tolist())}
        # each node's edges, grouped by one sort
        ends = np.concatenate([eu, ev])
        ids = np.concatenate([np.arange(len(eu)), np.arange(len(eu))])
        order = np.argsort(ends, kind="stable")
        bounds = np.searchsorted(ends[order], np.arange(n + 1)).tolist()
        flat = ids[order]
        self.at = [flat[bounds[i]:bounds[i + 1]] for i in range(n)]
        self.alive = np.ones(len(eu), dtype=bool)
        self.degree = np.diff(np.asarray(bounds))  # live edges, kept up to date
        self._graph = None  # the live edges' graph, rebuilt after edges die
        self.gone = np.zeros(n, dtype=bool)  # committed nodes
        self.committed: list = []
        self.positive: dict = {}  # decided types with a count > 0 (the prefix's weighted part)
        self.next = 0  # types 0..next-1 are decided
        self.guess: dict = {}  # stage -> the costliest type of that stage expected in use

    # ------------------------------------------------------------------ one solve

    def _match(self, weight: list) -> list:
        """rustworkx: maximum cardinality, then minimum total weight (`weight[type]`); the pairs as (u, v, type),
        in a fixed order. An edge carries its type number + 1 (0: none), so its weight is one look-up in a list as
        short as the types; the graph of the live edges is built again (one compiled call) when edges died."""
        big = max(weight, default=0) + 1
        cost = [big] + [big - w for w in weight]
        graph = self._graph
        if graph is None:
            graph = self._graph = rx.PyGraph(multigraph=False)
            graph.add_nodes_from(range(self.n))
            live = np.flatnonzero(self.alive)
            graph.add_edges_from(list(zip(self.eu[live].tolist(), self.ev[live].tolist(),
                                          (self.tid[live] + 1).tolist(), strict=True)))
        mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=cost.__getitem__)
        # rustworkx returns a set: fix the order
        chosen = sorted((min(u, v), max(u, v), graph.get_edge_data(u, v) - 1) for u, v in mate)
        if 2 * len(chosen) + int(self.gone.sum()) < self.n:
            covered = {i for pair in mate for i in pair}
            gone = self.gone
            raise NotPerfect(i for i in range(self.n) if i not in covered and not gone[i])
        return chosen

    def _cap(self, level: tuple) -> int:
        """The most pairs of a level (a range of types) a matching can use: the fewer of its two sides."""
        if level not in self.caps:
            edges = self.perm[self.start[level[0]]:self.start[level[1]]]
            self.caps[level] = min(len(np.unique(self.hi[edges])), len(np.unique(self.lo[edges])))
        return self.caps[level]

    def _span(self, level) -> int:
        """How far a level's count can fall below or rise above its value in the optimum that a solve must find:
        a decided type's count can only be lower (at the first decided type where a matching differs from the
        optimum, it has more; so below that, at most the optimum's count less), an undecided level's anything
        from 0 to its cap."""
        t = level[0]
        return self.positive[t] if t in self.positive else self._cap(level)

    def _levels(self) -> Optional[list]:
        """The weighted levels of the next solve, the costliest first: the decided positive types, then a chunk of
        undecided ones (ranges of types); None when the decided ones alone do not fit."""
        levels = [(t, t + 1) for t in sorted(self.positive)]
        room = 1
        for lev in levels:
            room *= self._span(lev) + 1
        limit = self.limit
        if room >= limit:
            return None
        chunk_start = len(levels)
        k = self.next
        while k < self.ntypes:
            end = self.stage_end[k]
            guess = self.guess.get(self.tx_of[k])
            far_end = end if guess is None else min(max(guess, k), end)  # types costlier than the guess
            stage_levels = ([(k, far_end)] if far_end > k else []) + [(t, t + 1) for t in range(far_end, end)]
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
            weight, w = [0] * self.ntypes, 1
            for lev in reversed(levels):
                for t in range(*lev):
                    weight[t] = w
                w += self._span(lev) * w
            chosen = self._match(weight)
            count = [0] * self.ntypes
            for _, _, t in chosen:
                if t >= 0:
                    count[t] += 1
            self._guess_from(chosen)
            dropped = []
            for lev in levels:
                if lev[0] in self.positive:
                    continue
                total = sum(count[lev[0]:lev[1]])
                if total == 0:
                    dropped.append(lev)
                elif lev[1] == lev[0] + 1:
                    self.positive[lev[0]] = total
                else:  # a run that is used after all: split it (its costliest used type stands alone next time)
                    break
                self.next = lev[1]
            self._drop_types(dropped)
            if self.next == self.ntypes:
                return [(u, v) for u, v, _ in chosen] + self.committed

    def _guess_from(self, chosen: list) -> None:
        """Each stage's costliest type in `chosen`, the guess of the next solve."""
        tx_of = self.tx_of
        guess: dict[int, int] = {}
        for _, _, t in chosen:
            if t >= 0 and (tx_of[t] not in guess or t < guess[tx_of[t]]):
                guess[tx_of[t]] = t
        self.guess.update(guess)

    def _hint(self) -> None:
        """A first guess of each stage's costliest type in use: one solve weighting each down-pair by its length,
        more for higher stages (only a guess: it chooses how the first chunk is cut into levels)."""
        if not self.ntypes:
            return
        room = 1
        for t in range(self.ntypes):
            room *= self.caps[(t, t + 1)] + 1
        if room < self.limit:  # every type fits as a level of its own: one solve decides them all, no guess needed
            for t in range(self.ntypes):  # each stage's costliest type "in use": no type is lumped into a run
                self.guess.setdefault(self.tx_of[t], t)
            return
        top, bottom = self.tx_of[0], max(self.ty_of)
        span = bottom - top + 1
        weight = [(y - x) * (span - (x - top)) ** 3 for x, y in zip(self.tx_of, self.ty_of, strict=True)]
        self._guess_from(self._match(weight))

    def _kill(self, edges: np.ndarray) -> None:
        """Live edges die: their graph is built again before the next solve."""
        if len(edges):
            self.alive[edges] = False
            np.subtract.at(self.degree, self.eu[edges], 1)
            np.subtract.at(self.degree, self.ev[edges], 1)
            self._graph = None

    def _drop_types(self, levels: list) -> None:
        if levels:
            edges = np.concatenate([self.perm[self.start[a]:self.start[b]] for a, b in levels])
            self._kill(edges[self.alive[edges]])

    def _propagate(self) -> None:
        """Commit every edge that is the last one at a node (it is in every perfect matching left)."""
        alive, at, eu, ev, degree, gone = self.alive, self.at, self.eu, self.ev, self.degree, self.gone
        queue = np.flatnonzero((degree == 1) & ~gone).tolist()
        while queue:
            i = queue.pop()
            if gone[i] or degree[i] != 1:
                continue
            k = int(at[i][alive[at[i]]][0])
            u, v = self.eu_l[k], self.ev_l[k]
            self.committed.append((u, v))
            t = self.tid_l[k]
            touched = []
            for node in (u, v):
                gone[node] = True
                edges = at[node][alive[at[node]]]
                self._kill(edges)
                touched.append(np.where(eu[edges] == node, ev[edges], eu[edges]))
            if t >= 0 and t in self.positive:
                self.positive[t] -= 1
                if self.positive[t] == 0:  # its count is reached: no more of this type
                    del self.positive[t]
                    edges = self.perm[self.start[t]:self.start[t + 1]]
                    edges = edges[alive[edges]]
                    self._kill(edges)
                    touched += [eu[edges], ev[edges]]
            others = np.concatenate(touched)
            queue += others[(degree[others] == 1) & ~gone[others]].tolist()

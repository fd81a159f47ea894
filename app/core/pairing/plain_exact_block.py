"""An exact block of plain swiss: pods a..b solved exactly together with stand-ins for the rest of the field.

H's nodes: the group (pods a..b; a pod much larger than the number of rounds is cut to slots, see below), the bye
if free, and sinks: the nearest players below with their rematches ignored, free to pair among themselves. Only
stages a..b count.

Sinks: r + 1 of them (r: most opponents anyone met), and the parity's one more, reach the optimum H would have
with a sink for every player of the group. In an optimum two group players p, q never both pair below when
they may meet (p-q plus the two sinks paired together is cheaper at p's stage: (x_p, x_q) instead of (x_p, y)),
so the group players pairing below pairwise met: at most r + 1 of them; and giving them the nearest sinks, in
the order of their partners' pods, makes no type costlier. With a sink for every group player, each real
partner below maps to a sink no lower, so H's optimum is a lower bound for the rest of the field's.

Slots: with the rematches of a big pod y ignored, its players are interchangeable, and in an optimum two of them
never pair out of y with partners p, q that may meet (both above y or both below: y-y plus p-q is cheaper), so
those partners pairwise met, or are the bye and players who may not take it: at most r + 2 above and r + 2 below
(r: most opponents anyone met). 2r + 4 slots (the pod's parity) therefore reach H's optimum of the relaxation,
and the rest of y pairs at home.

Made real: every stand-in (slot or sink) becomes an unused player of its pod whom the partner has not met, and
each cut pod's remaining players pair among themselves. plain_solve.py says why a block made real is exact.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from .plain_exact import ExactSolver
from .plain_relaxation import Remaining, pair_within

SLOT_MARGIN = 8  # an exact block cuts a pod to slots when it has this many players more than twice the slots


class ExactBlock:
    """H for pods a..b given what the blocks above took (nothing at or below a is taken)."""

    def __init__(self, rest: Remaining, a: int, b: int, compress: bool, down: Optional[int] = None):
        """`down`: how many group players H lets pair below (default r + 1, which is exact; tests compare)."""
        field = self.field = rest.field
        self.rest, self.a, self.b = rest, a, b
        keep = 2 * field.max_met + 4
        group: list = []
        stand: dict = {}  # stand-in node -> the pod it stands for (slots and sinks)
        self.cut = [x for x in range(a, b + 1) if compress and len(field.pods[x]) > 2 * keep + SLOT_MARGIN]
        for x in range(a, b + 1):
            pod = field.pods[x]
            if x in self.cut:
                slots = pod[: keep + (len(pod) - keep) % 2]
                stand.update((v, x) for v in slots)
                group += slots
            else:
                group += pod
        self.slots = bool(stand)  # whether a pod was cut (a failure then retries without slots)
        self.bye = bye = field.bye if rest.bye_free else None
        eligible_pod = set(field.bye_pods)
        met = field.met

        def may_bye(v):
            return stand[v] in eligible_pod if v in stand else field.eligible[v]

        podx = field.podx
        # H's edges as arrays of node positions (numpy: blocks deep into an event have thousands of pairs), each
        # with its type (tx, ty), tx = -1 for none
        pos = {v: i for i, v in enumerate(group)}
        allowed = np.ones((len(group), len(group)), dtype=bool)
        for i, u in enumerate(group):
            if u not in stand:
                rows = [pos[v] for v in met[u] if v in pos and v not in stand]
                allowed[i, rows] = False
        eu, ev = np.nonzero(np.triu(allowed, 1))
        parts = [(eu, ev, True)]
        nodes = list(group)
        if bye is not None:
            nodes.append(bye)
            takers = np.array([i for i, u in enumerate(group) if may_bye(u)], dtype=np.int64)
            parts.append((takers, np.full(len(takers), len(group)), True))
        down = min(len(group), field.max_met + 1 if down is None else down)  # at most this many pair below
        below: list = []  # the nearest players below, a few more than `down` (all of them if that is all)
        for x in range(b + 1, field.npods):
            below += field.pods[x]
            if len(below) > down + 3:
                break
        self.byesink = byesink = -1
        if below:
            if len(below) <= down + 3:
                sinks = below
                first = len(nodes)
                if bye is not None:
                    free = np.array([first + k for k, s in enumerate(below) if field.eligible[s]], dtype=np.int64)
                    parts.append((free, np.full(len(free), len(group)), False))
            else:
                extra = 1 if bye is not None and field.bye_pods and field.bye_pods[-1] > b else 0
                count = down + (len(group) - down + extra + (bye is not None)) % 2  # an even number of nodes
                sinks = below[:count]
                if extra:
                    nodes.append(byesink)
                    first = len(nodes)
                    at = first - 1
                    parts.append((np.full(len(sinks) + 1, at),
                                  np.array([len(group)] + list(range(first, first + len(sinks)))), False))
                first = len(nodes)
            stand.update((s, field.pod[s]) for s in sinks)
            nodes += sinks
            g, k = len(group), len(sinks)
            parts.append((np.repeat(np.arange(g), k), np.tile(np.arange(first, first + k), g), True))
            su, sv = np.triu_indices(k, 1)
            parts.append((su + first, sv + first, False))
        pods = np.array([podx[v] if v >= 0 else field.pod_of(v) for v in nodes], dtype=np.int64)
        eu = np.concatenate([p[0] for p in parts]).astype(np.int64)
        ev = np.concatenate([p[1] for p in parts]).astype(np.int64)
        typed = np.concatenate([np.full(len(p[0]), p[2]) for p in parts])
        pu, pv = pods[eu], pods[ev]
        typed &= pu != pv
        self.arrays = (pods, eu, ev, np.where(typed, np.minimum(pu, pv), -1), np.where(typed, np.maximum(pu, pv), -1))
        self.stand, self.nodes = stand, nodes
        self.size = len(nodes)

    @property
    def edges(self) -> list:
        """H's edges [(u, v, type or None)] (the networkx fallback and the tests read them)."""
        nodes, (_, eu, ev, tx, ty) = self.nodes, self.arrays
        return [(nodes[u], nodes[v], (x, y) if x >= 0 else None)
                for u, v, x, y in zip(eu.tolist(), ev.tolist(), tx.tolist(), ty.tolist(), strict=True)]

    def solve(self, solver: ExactSolver) -> Optional[tuple[list, list, bool]]:
        """H's optimum made real: (the block's pairs, the players below it takes, whether it takes the bye), or
        None when that fails. Raises Infeasible when H has no perfect matching."""
        # Only stages a..b count, and every typed edge of H already has its higher end in a..b (group-group,
        # group-sink, group-bye; stand-in pairs below are untyped), so no type needs clearing.
        return self._make_real(solver.solve_arrays(self.nodes, self.arrays, lambda: self.edges))

    def _make_real(self, matched: list) -> Optional[tuple[list, list, bool]]:
        a, b, field, stand, bye = self.a, self.b, self.field, self.stand, self.bye
        met, taken_above = field.met, self.rest.taken
        bye_free = self.rest.bye_free
        inside = set(range(a, b + 1))
        used: set = set()
        real, taken, bye_used = [], [], False

        def pool(x, partner=None):
            """Unused untaken players of pod x that `partner` (a real player, or the bye) may meet."""
            out = [v for v in field.pods[x] if v not in used and v not in taken_above
                   and (partner is None or (field.eligible[v] if partner == bye else v not in met[partner]))]
            if bye_free and x > b:
                out.sort(key=field.eligible.__getitem__)  # spare the players who may take the bye
            return out

        for u, v in matched:
            if self.byesink in (u, v) or (u in stand and v in stand and stand[u] == stand[v]):
                continue  # a stand-in pair of one pod: pairs at home (or below, later)
            pod_u = stand.get(u, field.pod_of(u))
            pod_v = stand.get(v, field.pod_of(v))
            if pod_u not in inside and pod_v not in inside:
                continue  # below the block (sinks, the bye among them): the rest of the field decides
            fixed = [w for w in (u, v) if w not in stand]
            if len(fixed) == 2:
                pair = (u, v)
            elif len(fixed) == 1:
                other = v if fixed[0] == u else u
                found = pool(stand[other], fixed[0])
                if not found:
                    return None
                pair = (fixed[0], found[0])
            else:
                chosen = next(((p, q) for p in pool(pod_u) for q in pool(pod_v, p)[:1]), None)
                if chosen is None:
                    return None
                pair = chosen
            used.update(pair)
            real.append(pair)
            bye_used = bye_used or (bye is not None and bye in pair)
            taken += [w for w in pair if w != bye and field.pod[w] > b]
        for x in self.cut:
            inner = pair_within([v for v in field.pods[x] if v not in used], met)
            if inner is None or inner[1] is not None:
                return None
            real += inner[0]
        return real, taken, bye_used

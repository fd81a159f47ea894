"""One plain-swiss pairing problem: the players in pods, who may meet whom, and what a pairing costs.

Players are 0..n-1 in standings order; node n is the phantom bye when n is odd. Hard rules: no rematch ever, and
the bye goes only to an eligible player (the caller widens eligibility one bye at a time). Power pairing makes
every player their own pod.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Iterable, Optional

from .plain_cost import LexCost


class Infeasible(Exception):
    """No perfect matching: `unmatched` are players a maximum matching leaves alone (to name to the TO)."""

    def __init__(self, unmatched):
        self.unmatched = list(unmatched)


class Field:
    """Players 0..n-1 in standings order, node n the phantom bye when n is odd; each pod in seeded random order."""

    def __init__(self, points: list, met: list, eligible: list, power: bool, rng: random.Random):
        self.n = n = len(points)
        self.met = met  # met[i]: the players i has played
        self.eligible = eligible  # may take the bye
        if power:
            self.pod = list(range(n))
        else:
            levels = {pts: k for k, pts in enumerate(sorted(set(points), reverse=True))}
            self.pod = [levels[pts] for pts in points]
        self.npods = (self.pod[-1] + 1) if n else 0  # real pods; the bye pod is number npods
        self.bye = n if n % 2 else None
        order = list(range(n))
        rng.shuffle(order)
        self.pods: list[list[int]] = [[] for _ in range(self.npods)]
        for i in order:
            self.pods[self.pod[i]].append(i)
        self.podx = self.pod + [self.npods]  # pod of every node, the bye (node n) included: read in hot loops
        self.max_met = max(map(len, met), default=0)
        self.bye_pods = sorted({self.pod[i] for i in range(n) if eligible[i]})  # pods with a possible bye-taker

    def pod_of(self, v: int) -> int:
        return self.podx[v] if v >= 0 else self.pod[v]

    def type_of(self, u: int, v: int) -> Optional[tuple]:
        """The down-pair type (higher pod, lower pod) of u-v, None for a same-pod pair."""
        x, y = self.podx[u], self.podx[v]
        return None if x == y else (x, y) if x < y else (y, x)

    def cost(self, pairs: Iterable[tuple]) -> LexCost:
        counts: Counter = Counter()
        for u, v in pairs:
            x, y = self.pod_of(u), self.pod_of(v)
            if x != y:
                counts[(x, y) if x < y else (y, x)] += 1
        return LexCost.of(counts)

    def allowed(self, u: int, v: int) -> bool:
        if u == self.bye or v == self.bye:
            return self.eligible[v if u == self.bye else u]
        return v not in self.met[u]

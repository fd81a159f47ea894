"""Plain swiss's cost: a pairing's down-pairs counted by type and compared lexicographically, as swisspair does.

Pods are the groups of equal match points, pod 0 the highest; an odd field adds a phantom bye that lives alone in
a pod below the lowest. A pair from pods x < y is a down-pair of *type* (x, y); a same-pod pair is free. Types are
ranked by x ascending, then y descending (C(1,4) > C(1,3) > C(1,2) > C(2,4) > C(2,3) > C(3,4)), and any number of
down-pairs of lower types costs less than one of a higher type: exactly the order swisspair's recursive big
numbers C(x, y) encode.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class LexCost:
    """Exact plain-swiss cost: down-pair counts by type, most expensive type first; compares lexicographically.

    `key` holds ((-x, y), count) for every type (x, y) used, sorted descending, so plain tuple comparison is the
    swisspair order: the first differing type decides, and more of a more expensive type is worse."""

    key: tuple = ()

    @classmethod
    def of(cls, counts: dict) -> "LexCost":
        return cls(tuple(sorted((((-x, y), c) for (x, y), c in counts.items() if c), reverse=True)))

    @property
    def counts(self) -> dict:
        """{(higher pod, lower pod): number of down-pairs}, pods numbered from 0 (the top)."""
        return {(-nx_, y): c for (nx_, y), c in self.key}

    def __str__(self) -> str:
        return ", ".join(f"{c}x({-nx_},{y})" for (nx_, y), c in self.key) or "0"

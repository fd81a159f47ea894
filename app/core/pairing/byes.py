"""The bye rule shared by every format: nobody gets a second bye while someone with fewer byes can take it."""
from __future__ import annotations

from typing import Iterable


def bye_limits(byes: Iterable[int], odd: bool) -> list[int]:
    """Most byes a bye-taker may already have, to try in order: the fewest first, widened one count at a time
    only when no legal pairing exists with the narrower circle. An even field has no bye ([0], a single try)."""
    return sorted(set(byes)) if odd else [0]


def unrequested_first_round_byes(active: int, requested: int) -> int:
    """Byes nobody asked for in round 1: the players left after the requested byes are paired, and an odd
    number of them leaves one more player (drawn at random, everyone being on 0 points) with a bye."""
    return (active - requested) % 2 if 0 < requested < active else 0

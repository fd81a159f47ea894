"""The bye rule shared by every format: nobody gets a second bye while someone with fewer byes can take it."""
from __future__ import annotations

from typing import Iterable


def bye_limits(byes: Iterable[int], odd: bool) -> list[int]:
    """Most byes a bye-taker may already have, to try in order: the fewest first, widened one count at a time
    only when no legal pairing exists with the narrower circle. An even field has no bye ([0], a single try)."""
    return sorted(set(byes)) if odd else [0]

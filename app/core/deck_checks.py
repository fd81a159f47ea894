"""Random deck checks: which players a draw picks, reproducibly from its seed (docs/domain.md 17).

Pure code. The same seed, pool and candidates always pick the same players, so a stored draw can be shown to be
the one the seed made (app/services/penalties/deck_checks.py keeps the seed).
"""
from __future__ import annotations

import enum
import random
from dataclasses import dataclass

FRESH_WEIGHT = 4  # a player never checked is this many times as likely to be picked as one checked already
CHECKED_WEIGHT = 1
MAX_PICK = 16
MAX_TOP_TABLES = 64


class Pool(str, enum.Enum):
    """Where a draw picks from."""

    FIELD = "field"  # every active player
    TOP = "top"      # the players at the current round's top tables

    @property
    def label(self) -> str:
        return {Pool.FIELD: "the whole field", Pool.TOP: "the top tables"}[self]


@dataclass(frozen=True)
class Candidate:
    player_id: int
    table: int | None  # their table in the round the draw is for (None: not seated)
    checked: int  # how many times their lists were checked already


def weight(candidate: Candidate) -> int:
    """Weighted away from those already checked: exact integer weights, never zero (anyone may be checked)."""
    return FRESH_WEIGHT if candidate.checked == 0 else CHECKED_WEIGHT


def eligible(candidates: list[Candidate], pool: Pool, top_tables: int) -> list[Candidate]:
    """The draw's pool, in player-id order: the field, or the players seated at tables 1..top_tables."""
    chosen = [c for c in candidates if pool is Pool.FIELD
              or (c.table is not None and 1 <= c.table <= top_tables)]
    return sorted(chosen, key=lambda c: c.player_id)


def pick(candidates: list[Candidate], count: int, seed: str, pool: Pool = Pool.FIELD,
         top_tables: int = 4) -> list[int]:
    """`count` distinct players (fewer if the pool is smaller), each drawn in turn with probability proportional
    to its weight among those left: the ids in the order drawn."""
    left = eligible(candidates, Pool(pool), top_tables)
    rng = random.Random(f"deck-check:{seed}")
    picked = []
    for _ in range(min(count, len(left))):
        point = rng.randrange(sum(weight(c) for c in left))
        for i, c in enumerate(left):
            point -= weight(c)
            if point < 0:
                picked.append(left.pop(i).player_id)
                break
    return picked

"""Table numbers: pairs by combined points (highest first), fixed tables honoured, byes last."""
from __future__ import annotations

from typing import Callable, Hashable, Mapping, Optional, Sequence

from .types import Pairing


def number_tables(
    games: Sequence[tuple],
    byes: Sequence[Hashable],
    points: Mapping,
    fixed: Optional[Mapping] = None,
    sort_key: Optional[Callable[[tuple], tuple]] = None,
) -> list[Pairing]:
    """Number `games` ((player, opponent) pairs) and append `byes` after the last table.

    Default order: combined points, then the higher of the two, highest first; ties keep the given order.
    A pair holding a player with a fixed table sits at that table (the lower one if both have one, first
    come first served); the other pairs take the lowest free numbers.
    """
    fixed = fixed or {}
    key = sort_key or (lambda g: (-(points[g[0]] + points[g[1]]), -max(points[g[0]], points[g[1]])))
    ordered = [g for _, g in sorted(enumerate(games), key=lambda ig: (key(ig[1]), ig[0]))]
    taken: dict[int, tuple] = {}
    free_games = ordered
    if fixed:
        free_games = []
        for g in ordered:
            wanted = sorted(t for t in (fixed.get(g[0]), fixed.get(g[1])) if t is not None and t not in taken)
            if wanted:
                taken[wanted[0]] = g
            else:
                free_games.append(g)
    table = 0
    for g in free_games:
        table += 1
        while table in taken:
            table += 1
        taken[table] = g
    result = [Pairing(t, g[0], g[1]) for t, g in sorted(taken.items())]
    last = max(taken, default=0)
    result.extend(Pairing(last + i, p, None) for i, p in enumerate(byes, start=1))
    return result

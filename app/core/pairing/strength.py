"""Seeding by strength (docs/domain.md 15.2): a rating chooses among equal-cost pairings, nothing more.

A second, lexicographic stage after the optimal matching. The engine's pairing is cut into cells: its games whose
two players' cost classes are the same two classes (sided swiss: points, side bias and bye eligibility; plain
swiss: the points pod). Inside a cell every pair of players who never met costs exactly the same (a class cost
depends on the classes alone; only past meetings add to it), so re-pairing a cell's fresh games among the same
players, fresh pairs only, keeps every pair's cost and the total: a pairing's cost can never change. Games between
players who met stay as they are.

Inside a cell the players are ranked by strength (strongest first; equal strengths by a coin seeded apart from the
engine's, so determinism holds and the sides' coins do not move), and **folded**: the strongest against the weakest,
the 2nd against the 2nd weakest, of 2k: i-th against (2k + 1 - i)-th. So the standings follow the strengths sooner
(measured against the Dutch order, top half against bottom half, in docs/benchmarks.md). When past meetings forbid
some of those, the pairing nearest to it: the minimum of the sum of (rank_a + rank_b - (2k - 1))^2 (0-based ranks),
an exact integer matching, first over the pairs within 16 of the fold, then 64, then all (a cell of more than 400
players that pairs in neither window keeps the engine's games). A two-class cell (Corp class against Runner class)
ranks its 2k players together and keeps each game between the two classes. Strengths are compared only, so ints and
Fractions are exact; a player without one takes the mean of the others'.
"""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable, Hashable, Mapping, Sequence

import rustworkx as rx

WINDOWS = (16, 64, None)  # distances from the fold tried, widened until the cell pairs (None: every pair)
CELL_LIMIT = 400  # a cell this big pairs within a window or keeps the engine's games (a full solve takes seconds)


def fill(strengths: Mapping, players: Sequence) -> dict:
    """Every player's strength, a missing one taking the mean of those given (exact)."""
    known = [Fraction(strengths[p]) for p in players if p in strengths]
    mean = sum(known, Fraction(0)) / len(known) if known else Fraction(0)
    return {p: Fraction(strengths[p]) if p in strengths else mean for p in players}


def seed_cells(
    pairs: Sequence[tuple],
    cell_of: Callable[[Any], Hashable],
    fresh: Callable[[Any, Any], bool],
    strengths: Mapping,
    rng: random.Random,
) -> list[tuple]:
    """`pairs` re-paired inside their cells by strength. `cell_of(p)`: p's cost class; `fresh(a, b)`: a and b may
    meet at the bare class cost (never met). Returns as many pairs, each between the same two classes as before."""
    players = [p for pair in pairs for p in pair]
    strength = fill(strengths, players)
    coin = {p: rng.random() for p in players}
    cells: dict = {}
    out: list[tuple] = []
    for a, b in pairs:
        ca, cb = cell_of(a), cell_of(b)
        if not fresh(a, b):
            out.append((a, b))
            continue
        key = (ca, cb) if ca == cb else frozenset((ca, cb))
        cells.setdefault(key, []).append((a, b))
    for key, games in cells.items():
        two = isinstance(key, frozenset)
        side = cell_of(games[0][0])
        left = {p for g in games for p in g if cell_of(p) == side} if two else None
        out.extend(_repair(games, left, fresh, strength, coin))
    return out


def _repair(games: list[tuple], left, fresh, strength: dict, coin: dict) -> list[tuple]:
    """One cell re-paired; `left`: the players of one of its two classes (None: a one-class cell)."""
    if len(games) < 2:
        return games
    two_classes = left is not None
    players = [p for g in games for p in g]
    order = sorted(players, key=lambda p: (-strength[p], coin[p]))
    k = len(games)

    def may(a, b) -> bool:
        return (not two_classes or (a in left) != (b in left)) and fresh(a, b)

    if not two_classes:
        fold = [(order[i], order[2 * k - 1 - i]) for i in range(k)]
        if all(may(a, b) for a, b in fold):
            return fold
    for window in WINDOWS:
        if window is None and len(players) > CELL_LIMIT:
            break
        mate = _nearest(order, k, may, window)
        if mate is not None:
            return mate
    return games


def _nearest(order: list, k: int, may, window) -> list[tuple] | None:
    """The perfect matching of `order` (strongest first) with the least sum of (i + j - (2k - 1))^2 over its pairs of
    ranks i, j, among the pairs `may` allows within `window` of the fold (None: every pair); None when there is no
    such matching."""
    n = len(order)
    graph = rx.PyGraph()
    graph.add_nodes_from(order)
    top = 4 * k * k + 1
    for i in range(n):
        mirror = n - 1 - i
        lo, hi = (i + 1, n) if window is None else (max(i + 1, mirror - window), min(n, mirror + window + 1))
        for j in range(lo, hi):
            if may(order[i], order[j]):
                graph.add_edge(i, j, top - (j - mirror) ** 2)
    mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if len(mate) != k:
        return None
    return [(order[min(i, j)], order[max(i, j)]) for i, j in sorted(mate, key=min)]

"""Which games each top cut has and what feeds each one: the layouts of app/core/brackets.py, as data.

A game's two slots are fed by a seed, the winner of an earlier game or the loser of an earlier game. Game numbers
and rounds of the double elimination layouts are Cobra's (docs/domain.md, brackets).
"""
from __future__ import annotations

from dataclasses import dataclass

KINDS = ("double", "single")


@dataclass(frozen=True)
class Slot:
    """Where a game's player comes from: ``seed`` n, ``winner`` of game n or ``loser`` of game n."""

    kind: str
    ref: int

    @property
    def label(self) -> str:
        return f"Seed {self.ref}" if self.kind == "seed" else f"{self.kind.capitalize()} of game {self.ref}"


@dataclass(frozen=True)
class GameSpec:
    id: int
    round: int
    slots: tuple  # (Slot, Slot)
    section: str  # "upper", "lower", "final" (grand final or single-elimination final) or "reset"


def _s(n: int) -> Slot:
    return Slot("seed", n)


def _w(n: int) -> Slot:
    return Slot("winner", n)


def _l(n: int) -> Slot:
    return Slot("loser", n)


def _layout(*rows) -> tuple[GameSpec, ...]:
    return tuple(GameSpec(i, r, (a, b), sec) for i, r, a, b, sec in rows)


def _single(*first_round: tuple[int, int]) -> tuple[GameSpec, ...]:
    """A single elimination: the seeds' first games in bracket order, then the winners of neighbouring games meet
    until one game, the final, is left."""
    rows = [(i, 1, _s(a), _s(b)) for i, (a, b) in enumerate(first_round, 1)]
    feeding, rnd = [row[0] for row in rows], 1
    while len(feeding) > 1:
        rnd += 1
        pairs = zip(feeding[::2], feeding[1::2], strict=True)  # a power of two: every game has a neighbour
        games = [(len(rows) + k + 1, rnd, _w(a), _w(b)) for k, (a, b) in enumerate(pairs)]
        rows += games
        feeding = [game[0] for game in games]
    return _layout(*(row + ("final" if row[0] == len(rows) else "upper",) for row in rows))


LAYOUTS: dict[tuple[str, int], tuple[GameSpec, ...]] = {
    ("double", 3): _layout(
        (1, 1, _s(2), _s(3), "upper"),
        (2, 2, _s(1), _w(1), "upper"),
        (3, 3, _l(2), _l(1), "lower"),
        (4, 4, _w(2), _w(3), "final"),
        (5, 5, _w(4), _l(4), "reset"),
    ),
    ("double", 4): _layout(
        (1, 1, _s(1), _s(4), "upper"),
        (2, 1, _s(2), _s(3), "upper"),
        (3, 2, _w(1), _w(2), "upper"),
        (4, 2, _l(1), _l(2), "lower"),
        (5, 3, _l(3), _w(4), "lower"),
        (6, 4, _w(3), _w(5), "final"),
        (7, 5, _w(6), _l(6), "reset"),
    ),
    ("double", 8): _layout(
        (1, 1, _s(1), _s(8), "upper"),
        (2, 1, _s(4), _s(5), "upper"),
        (3, 1, _s(2), _s(7), "upper"),
        (4, 1, _s(3), _s(6), "upper"),
        (5, 2, _w(1), _w(2), "upper"),
        (6, 2, _w(3), _w(4), "upper"),
        (7, 2, _l(1), _l(2), "lower"),
        (8, 2, _l(3), _l(4), "lower"),
        (9, 3, _w(5), _w(6), "upper"),
        (10, 3, _l(6), _w(7), "lower"),
        (11, 3, _w(8), _l(5), "lower"),
        (12, 4, _w(10), _w(11), "lower"),
        (13, 5, _l(9), _w(12), "lower"),
        (14, 6, _w(9), _w(13), "final"),
        (15, 7, _w(14), _l(14), "reset"),
    ),
    ("double", 16): _layout(
        (1, 1, _s(1), _s(16), "upper"),
        (2, 1, _s(8), _s(9), "upper"),
        (3, 1, _s(5), _s(12), "upper"),
        (4, 1, _s(4), _s(13), "upper"),
        (5, 1, _s(3), _s(14), "upper"),
        (6, 1, _s(6), _s(11), "upper"),
        (7, 1, _s(7), _s(10), "upper"),
        (8, 1, _s(2), _s(15), "upper"),
        (9, 2, _l(1), _l(2), "lower"),
        (10, 2, _l(3), _l(4), "lower"),
        (11, 2, _l(5), _l(6), "lower"),
        (12, 2, _l(7), _l(8), "lower"),
        (13, 2, _w(1), _w(2), "upper"),
        (14, 2, _w(3), _w(4), "upper"),
        (15, 2, _w(5), _w(6), "upper"),
        (16, 2, _w(7), _w(8), "upper"),
        (17, 3, _l(16), _w(9), "lower"),
        (18, 3, _l(15), _w(10), "lower"),
        (19, 3, _l(14), _w(11), "lower"),
        (20, 3, _l(13), _w(12), "lower"),
        (21, 3, _w(13), _w(14), "upper"),
        (22, 3, _w(15), _w(16), "upper"),
        (23, 4, _w(17), _w(18), "lower"),
        (24, 4, _w(19), _w(20), "lower"),
        (27, 4, _w(21), _w(22), "upper"),
        (25, 5, _l(21), _w(23), "lower"),
        (26, 5, _w(24), _l(22), "lower"),
        (28, 6, _w(25), _w(26), "lower"),
        (29, 7, _l(27), _w(28), "lower"),
        (30, 8, _w(27), _w(29), "final"),
        (31, 9, _w(30), _l(30), "reset"),
    ),
    ("single", 2): _single((1, 2)),
    ("single", 3): _layout(  # seed 1 waits for the winner of 2 v 3
        (1, 1, _s(2), _s(3), "upper"),
        (2, 2, _s(1), _w(1), "final"),
    ),
    ("single", 4): _single((1, 4), (2, 3)),
    ("single", 8): _single((1, 8), (4, 5), (2, 7), (3, 6)),
    ("single", 16): _single((1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)),
}

SIZES = {kind: tuple(sorted(n for k, n in LAYOUTS if k == kind)) for kind in KINDS}



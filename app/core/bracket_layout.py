"""Where each game of a cut bracket sits when drawn as a bracket: pure, from the games' slots alone.

A drawing has parts (single elimination: one; double elimination: the upper (winners') bracket, the lower
(losers') bracket and the grand final below them). In a part, a column is a round and every game spans the unit rows of
the games
that feed it there, so a game sits level with the middle of its feeders and the lines between them are plain
borders (static/style.css). A game fed from another part (a loser dropping into the lower bracket, the two
champions meeting in the grand final) starts its own rows, as a first-round game does.

The template turns a Cell into classes (gc-<column>, gr-<row>, gs-<span>, in, out-top / out-bottom /
out-straight): the Content-Security-Policy forbids inline styles.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional


@dataclass(frozen=True)
class Cell:
    column: int  # 1-based
    row: int  # 1-based first unit row
    span: int  # unit rows
    fed: bool  # a line comes in from a game of the same part
    out: Optional[str]  # how its line leaves for the next game of the part: "top", "bottom", "straight"

    @property
    def classes(self) -> str:
        names = [f"gc-{self.column}", f"gr-{self.row}", f"gs-{self.span}"]
        if self.fed:
            names.append("in")
        if self.out:
            names.append(f"out-{self.out}")
        return " ".join(names)


@dataclass
class Part:
    key: str  # "bracket" (single elimination), "winners", "losers", "final"
    title: str
    rounds: list = field(default_factory=list)  # the round shown in each column, left to right
    cells: dict = field(default_factory=dict)  # game id -> Cell
    rows: int = 0


TITLES = {"bracket": "Bracket", "winners": "Upper bracket", "losers": "Lower bracket", "final": "Grand final"}


def _part_of(section: str, double: bool) -> str:
    if not double:
        return "bracket"
    return {"upper": "winners", "lower": "losers"}.get(section, "final")


def draw(games: Iterable) -> list[Part]:
    """Parts of the drawing, in page order, from games with `id`, `round`, `section` ("upper", "lower",
    "final", "reset") and `slots` (objects with `kind` "seed"/"winner"/"loser" and `ref`), as
    app.core.brackets.CutGame has them. Games missing from `games` (a reset not needed) are simply not drawn."""
    games = sorted(games, key=lambda g: (g.round, g.id))
    double = any(g.section == "lower" for g in games)
    parts: dict[str, Part] = {}
    members: dict[str, list] = {}
    for g in games:
        key = _part_of(g.section, double)
        parts.setdefault(key, Part(key, TITLES[key]))
        members.setdefault(key, []).append(g)
    for key, part in parts.items():
        _place(part, members[key])
    order = ("bracket", "winners", "losers", "final")
    return [parts[k] for k in order if k in parts]


def _place(part: Part, games: list) -> None:
    by_id = {g.id: g for g in games}
    feeders: dict[int, list[int]] = {}
    child: dict[int, int] = {}
    for g in games:
        refs = []
        for slot in g.slots:
            if slot.kind != "seed" and slot.ref in by_id and slot.ref not in refs:
                refs.append(slot.ref)
        feeders[g.id] = refs
        for ref in refs:
            child.setdefault(ref, g.id)
    part.rounds = sorted({g.round for g in games})
    column = {r: i for i, r in enumerate(part.rounds, 1)}
    spans: dict[int, tuple[int, int]] = {}
    next_row = 1

    def place(gid: int) -> tuple[int, int]:
        nonlocal next_row
        if gid in spans:
            return spans[gid]
        inner = [place(f) for f in feeders[gid]]
        if inner:
            start = min(r for r, _ in inner)
            end = max(r + s for r, s in inner)
        else:
            start, end = next_row, next_row + 1
            next_row += 1
        spans[gid] = (start, end - start)
        return spans[gid]

    roots = [g.id for g in games if g.id not in child]
    for gid in roots:
        place(gid)
    for g in games:  # a game reachable from no root cannot happen in a tree, but never leave one undrawn
        place(g.id)
    for g in games:
        row, span = spans[g.id]
        out = None
        if g.id in child:
            siblings = feeders[child[g.id]]
            out = "straight" if len(siblings) == 1 else ("top" if siblings[0] == g.id else "bottom")
        part.cells[g.id] = Cell(column[g.round], row, span, bool(feeders[g.id]), out)
    part.rows = next_row - 1

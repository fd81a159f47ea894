"""What the venue prints: pairings by name for the wall, match slips with their table's slip code, QR codes."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Optional

from markupsafe import Markup

from ...models import Tournament
from ...core import qr
from ...core.names import name_key
from ..results import slip_codes
from .rounds import RoundView

# Tables per slips page. A QR code costs about 10 ms of CPU to draw (segno picks the best of its 8 masks), so a
# page's first build draws at most this many (about a second); a 1,000-table round is 10 pages, not one 6 s build.
SLIPS_PER_PAGE = 100


def draw_qr(text: str, *, inline: bool = False) -> str:
    """A printed QR code (app/core/qr.py PRINTED): inline on the slips, or the event's poster image as a file."""
    return qr.svg(text, qr.PRINTED, title=None if inline else text, inline=inline)


qr_svg = functools.lru_cache(maxsize=64)(draw_qr)  # the event's own code (dashboard, projector, posters)


@dataclass(frozen=True)
class NameRow:
    name: str
    table: int
    side: Optional[str]  # "corp" / "runner" in single-sided swiss
    opponent: Optional[str]  # None: a bye


def by_name(t: Tournament, rnd: RoundView) -> list[NameRow]:
    """One row per player of the round, alphabetical as people look for their name (case and accents ignored)."""
    single = t.fmt.sided_tables
    rows = []
    for m in rnd.matches:
        for i, seat in enumerate(m.seats):
            other = None if m.is_bye or len(m.seats) < 2 else m.seats[1 - i].name
            rows.append(NameRow(seat.name, m.table, seat.side if single and not m.is_bye else None, other))
    return sorted(rows, key=lambda r: (name_key(r.name), r.name))


@dataclass(frozen=True)
class SlipSeat:
    name: str
    side: Optional[str]


@dataclass(frozen=True)
class Slip:
    table: int
    seats: list
    qr: Optional[Markup]  # the table's slip code (app/services/results/slip_codes.py); None for a reader who may not


def draw_codes(texts: list[str]) -> list[str]:
    """Each text's QR code as an inline SVG (the slow part of a slips page: the caller keeps them)."""
    return [draw_qr(text, inline=True) for text in texts]


def slip_tables(rnd: RoundView) -> list:
    """The round's tables with two players (a bye needs no slip), in table order."""
    return [m for m in rnd.matches if not m.is_bye and len(m.seats) == 2]


def slip_pages(rnd: RoundView) -> int:
    """How many slips pages the round has (at least one, perhaps saying there is no table)."""
    return max(1, -(-len(slip_tables(rnd)) // SLIPS_PER_PAGE))


def slips(t: Tournament, rnd: RoundView, codes: bool = True, page: int = 1,
          draw: Callable[[list[str]], list[str]] = draw_codes) -> list[Slip]:
    """Page `page` of the round's slips (SLIPS_PER_PAGE tables each). A slip's QR code reports that table in
    that round only, while it holds the players printed on it; it never carries a player's link. `codes`: False
    for the site admin, who sees and reports nothing. `draw`: the codes for their addresses (the caller may keep
    them: they never change with results)."""
    single = t.fmt.sided_tables
    tables = slip_tables(rnd)[(page - 1) * SLIPS_PER_PAGE:page * SLIPS_PER_PAGE]
    qrs = draw([slip_codes.url(t, rnd.slip_ref, m.table, [s.name for s in m.seats]) for m in tables]) if codes \
        else [None] * len(tables)
    return [Slip(m.table, [SlipSeat(s.name, s.side if single else None) for s in m.seats],
                 Markup(qr) if qr is not None else None) for m, qr in zip(tables, qrs, strict=True)]

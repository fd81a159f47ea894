"""What the venue prints: pairings by name for the wall, match slips with their table's report code, QR codes."""
from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from typing import Optional

import segno
from markupsafe import Markup

from ..models import Tournament
from ..core.names import name_key
from ..core.pairing import Format
from . import slip_codes
from .rounds import RoundView

QUIET_ZONE = 2  # modules of white around a code: scanners need some, paper margins add the rest


@functools.lru_cache(maxsize=4096)  # a GP round's codes, so a slips page rebuilt after a result redraws none
def qr_svg(text: str, *, inline: bool = False) -> str:
    """A QR code as an SVG that scales with its box (no fixed size). `inline`: for embedding in a page (an
    <svg> element is drawn under any Content-Security-Policy, where a data: image might not be)."""
    code = segno.make(text, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=not inline, scale=1, border=QUIET_ZONE, omitsize=True,
              title=None if inline else text)
    return out.getvalue().decode()


@dataclass(frozen=True)
class NameRow:
    name: str
    table: int
    side: Optional[str]  # "corp" / "runner" in single-sided swiss
    opponent: Optional[str]  # None: a bye


def by_name(t: Tournament, rnd: RoundView) -> list[NameRow]:
    """One row per player of the round, alphabetical as people look for their name (case and accents ignored)."""
    single = t.fmt is Format.SINGLE_SIDED
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
    qr: Optional[Markup]  # the table's report code (app/services/slip_codes.py); None for a reader who may not


def slips(t: Tournament, rnd: RoundView, codes: bool = True) -> list[Slip]:
    """One slip per table with two players (a bye needs no slip), in table order. Its QR code reports that
    table in that round only; it never carries a player's link. `codes`: False for the site admin, who sees
    and reports nothing."""
    single = t.fmt is Format.SINGLE_SIDED
    out = []
    for m in rnd.matches:
        if m.is_bye or len(m.seats) != 2:
            continue
        qr = Markup(qr_svg(slip_codes.url(t, rnd.id, m.table, [s.name for s in m.seats]), inline=True)) if codes else None
        out.append(Slip(m.table, [SlipSeat(s.name, s.side if single else None) for s in m.seats], qr))
    return out

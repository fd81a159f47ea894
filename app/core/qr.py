"""QR codes, drawn in one place with one look per purpose, so every code of a kind scans the same.

Error correction M everywhere: a printed code survives a smudge or a fold, and a phone still reads it at once.
Pure: text in, SVG text (or a terminal drawing) out; the web layer marks an SVG safe to embed.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Optional, TextIO

import segno

ERROR = "m"
QUIET_ZONE = 2  # modules of white around a printed code: scanners need some, paper margins add the rest


@dataclass(frozen=True)
class Look:
    scale: int  # pixels a module (1: the SVG scales with its box)
    dark: str = "#111"
    border: Optional[int] = None  # modules of white around the code; None: the standard's 4


ON_PAGE = Look(scale=4)  # a link on a page, scanned by a phone held beside the screen (registration, groups)
HANDED_OVER = Look(scale=6)  # a player's own link the TO shows them across a table: bigger
PRINTED = Look(scale=1, border=QUIET_ZONE)  # slips and the event's poster: scales with the paper's box


def svg(text: str, look: Look, *, title: Optional[str] = None, inline: bool = True) -> str:
    """The code of `text` as SVG. `inline`: an <svg> element for a page (drawn under any Content-Security-Policy,
    where a data: image might not be); else a standalone file with its namespace."""
    out = io.BytesIO()
    segno.make(text, error=ERROR).save(out, kind="svg", xmldecl=False, svgns=not inline, nl=not inline,
                                       scale=look.scale, dark=look.dark, border=look.border, omitsize=True,
                                       title=title)
    return out.getvalue().decode()


def terminal(text: str, out: Optional[TextIO] = None) -> None:
    """The code drawn in a terminal's characters (venue mode prints the laptop's address with it)."""
    segno.make(text, error=ERROR).terminal(out=out, compact=True)

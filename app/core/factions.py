"""Factions as the pages draw them: their names (from the card data, app/core/cards.py) and their colours.

The colours are NetrunnerDB's (its factions data gives each one), written here once: the statistics charts
fill their bars with them, and nothing else picks a faction colour. An identity SASS does not know has no
faction; it is drawn in UNKNOWN_COLOUR.
"""
from __future__ import annotations

import re
from typing import Optional

from . import cards

COLOURS = {
    "haas_bioroid": "#8a2be2",
    "jinteki": "#dc143c",
    "nbn": "#ff8c00",
    "weyland_consortium": "#006400",
    "neutral_corp": "#808080",
    "anarch": "#ff4500",
    "criminal": "#4169e1",
    "shaper": "#32cd32",
    "neutral_runner": "#808080",
    "adam": "#b9b23a",
    "apex": "#9e564e",
    "sunny_lebeau": "#715778",
}
UNKNOWN_COLOUR = "#b0b7bf"
UNKNOWN_NAME = "Unknown faction"


def name(faction: Optional[str]) -> str:
    """The faction's name ("Haas-Bioroid"); UNKNOWN_NAME for None or a code the card data lacks."""
    fid = cards.faction_id(faction)
    return cards.data()["factions"][fid]["name"] if fid else UNKNOWN_NAME


def colour(faction: Optional[str]) -> str:
    """The faction's colour as #rrggbb; UNKNOWN_COLOUR for None or a code the card data lacks."""
    return COLOURS.get(cards.faction_id(faction) or "", UNKNOWN_COLOUR)


_WORDS = re.compile(r"[a-z0-9]+")


def read(text, side: Optional[str] = None) -> Optional[str]:
    """A faction as a file names it: a code in either spelling (`weyland-consortium`, `weyland_consortium`), or
    its name or the name's first words, as the NRTM app writes them ("Weyland", "Haas-Bioroid", "Sunny Lebeau",
    "Neutral"), any case. A name two factions of `side` share the start of (or of either side when none is
    given: "Neutral") names none. None for anything else."""
    fid = cards.faction_id(text)
    if fid or not isinstance(text, str):
        return fid
    words = _WORDS.findall(text.lower())
    if not words:
        return None
    found = [f for f, v in cards.data()["factions"].items()
             if (side is None or v["side"] == side) and _WORDS.findall(v["name"].lower())[:len(words)] == words]
    return found[0] if len(found) == 1 else None

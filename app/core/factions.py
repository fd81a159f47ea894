"""Factions as the pages draw them: their names (from the card data, app/core/cards.py) and their colours.

The colours are NetrunnerDB's (its factions data gives each one), written here once: the statistics charts
fill their bars with them, and nothing else picks a faction colour. An identity SASS does not know has no
faction; it is drawn in UNKNOWN_COLOUR.
"""
from __future__ import annotations

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

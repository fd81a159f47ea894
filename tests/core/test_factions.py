"""Factions as the pages draw them (app/core/factions.py): names and colours from one table, an unknown one grey,
and a file's spelling of a faction read back to its code."""
from __future__ import annotations

from app.core.factions import UNKNOWN_COLOUR, UNKNOWN_NAME, colour, name, read


def test_either_spelling_of_a_code_names_and_colours_the_faction():
    assert name("haas-bioroid") == name("haas_bioroid") == "Haas-Bioroid"
    assert colour("weyland-consortium") == colour("weyland_consortium") == "#006400"


def test_unknown_or_missing_faction_is_grey_and_unnamed():
    assert colour(None) == colour("martians") == UNKNOWN_COLOUR
    assert name(None) == name("martians") == UNKNOWN_NAME


def test_a_name_or_its_first_words_read_back_but_an_ambiguous_start_does_not():
    assert read("Weyland") == "weyland_consortium"
    assert read("SUNNY LEBEAU") == "sunny_lebeau"
    assert read("Neutral") is None  # both sides have a Neutral faction
    assert read("Neutral", side="runner") == "neutral_runner"
    assert read("Martians") is None and read(7) is None

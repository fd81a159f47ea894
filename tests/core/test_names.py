"""Names compared as people mean them (app/core/names.py): case, accents and spacing never make two players."""
from __future__ import annotations

from app.core.names import name_key


def test_case_accents_and_spacing_are_ignored():
    assert name_key("  Kovač   Ana ") == name_key("kovac ana") == "kovac ana"
    assert name_key("STRASSE") == name_key("straße")  # casefold, not lower


def test_different_letters_stay_different():
    assert name_key("Ana") != name_key("Anna")
    assert name_key("Jo Ann") != name_key("Joann")

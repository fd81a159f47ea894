"""The decklist form (app/web/forms/decklists.py): a side of the game and a pasted list without NUL."""
from __future__ import annotations

from app.web.forms.decklists import DecklistForm


def test_a_side_and_a_list(submit):
    assert submit(DecklistForm, side="corp", text="3x Hedge Fund").ok


def test_unknown_side_empty_list_and_nul_are_refused(submit):
    form = submit(DecklistForm, side="both", text="")
    assert form.side.errors == ["A list is for the Corp or the Runner side."]
    assert form.text.errors == ["Paste your decklist."]
    form = submit(DecklistForm, side="runner", text="3x Sure Gamble\x00")
    assert not form.ok and "NUL" in form.text.errors[0]

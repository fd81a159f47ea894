"""Picking one's own NetrunnerDB deck (app/web/forms/nrdb_picker.py): a side and a deck id within 64 bits."""
from __future__ import annotations

from app.web.forms.nrdb_picker import PickDeckForm


def test_a_deck_for_a_side(submit):
    assert submit(PickDeckForm, side="runner", deck="42").deck.data == 42


def test_missing_zero_or_huge_deck_is_refused(submit):
    assert submit(PickDeckForm, side="runner").deck.errors == ["Pick one of your decks."]
    assert not submit(PickDeckForm, side="runner", deck="0").ok
    assert not submit(PickDeckForm, side="runner", deck=str(2**63)).ok

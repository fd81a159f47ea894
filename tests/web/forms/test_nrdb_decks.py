"""Fetching a deck from NetrunnerDB (app/web/forms/nrdb_decks.py): a side and a bounded address."""
from __future__ import annotations

from app.web.forms.nrdb_decks import NrdbDeckForm


def test_an_address_for_a_side(submit):
    form = submit(NrdbDeckForm, side="corp", address=" https://netrunnerdb.com/en/deck/view/123 ")
    assert form.ok and form.address.data == "https://netrunnerdb.com/en/deck/view/123"


def test_missing_or_overlong_address_is_refused(submit):
    assert submit(NrdbDeckForm, side="corp").address.errors == ["Paste the address of your deck on NetrunnerDB."]
    assert not submit(NrdbDeckForm, side="corp", address="x" * 301).ok

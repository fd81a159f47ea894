"""A signed-in player's own decks in NetrunnerDB's private answer (app/core/nrdb_decks.py `read_own_decks`): newest
change first, each on its identity's side, an unreadable deck counted and left out, never guessed."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from app.core import nrdb_decks as n


def deck(deck_id, updated, cards, name="A deck"):
    """As NetrunnerDB's Deck::normalize writes one."""
    return {"id": deck_id, "uuid": f"00000000-0000-4000-8000-{deck_id:012d}",
            "date_creation": "2024-01-01T00:00:00+00:00", "date_update": updated, "name": name, "description": "Long **Markdown**", "mwl_code": None,
            "cards": cards, "tags": "tag"}


def answer(decks):
    return {"version_number": "2.0", "data": decks, "total": len(decks), "success": True}


CORP = {"30035": 1, "30075": 3, "30040": 2}  # Precision Design, 3 Hedge Fund, 2 Seamless Launch
RUNNER = {"30019": 1, "30003": 3}  # Tāo Salonga, 3 of a runner card


def test_newest_change_first_each_on_its_identitys_side():
    found = n.read_own_decks(answer([
        deck(1, "2025-01-02T10:00:00+00:00", CORP, "Old corp"),
        deck(2, "2025-03-01T09:00:00+01:00", RUNNER, "Runner"),  # 08:00 UTC
        deck(3, "2025-03-01T08:30:00+00:00", CORP, "New corp"),
        deck(4, "2025-03-01T08:30:00+00:00", CORP, "Same time, higher id"),
        deck(5, "not a date", CORP, "Undated"),
    ]))
    assert [d.name for d in found.decks] == ["Same time, higher id", "New corp", "Runner", "Old corp", "Undated"]
    new = found.decks[1]
    assert (new.id, new.side, new.identity, new.cards) == (3, "corp", "Haas-Bioroid: Precision Design", 5)
    assert new.updated == datetime(2025, 3, 1, 8, 30, tzinfo=timezone.utc)
    assert found.decks[2].side == "runner" and found.decks[2].identity.startswith("Tāo Salonga")
    assert found.decks[4].updated is None and found.unreadable == 0


def test_an_unknown_identity_has_no_side_and_an_unreadable_deck_is_counted():
    found = n.read_own_decks(answer([
        deck(1, "2025-01-02T10:00:00+00:00", {"99001": 1, "30075": 3}),  # an identity newer than the card data
        deck(2, "2025-01-02T10:00:00+00:00", []),  # PHP writes an empty deck's cards as a list
        deck(3, "2025-01-02T10:00:00+00:00", {"30075": "3"}),
        {"name": "no id", "cards": CORP}, "not a deck", deck(True, "2025-01-02", CORP),
    ]))
    assert [(d.id, d.side, d.identity, d.cards) for d in found.decks] == [(1, None, "", 4)]
    assert found.unreadable == 5


@pytest.mark.parametrize("doc", [None, [], {"data": "x"}, {"success": False, "msg": "no"}, {"success": True}])
def test_an_answer_not_shaped_as_netrunnerdbs_is_no_list(doc):
    with pytest.raises(n.NotADeck):
        n.read_own_decks(doc)


def test_no_decks_at_all():
    assert n.read_own_decks(answer([])) == n.OwnDecks((), 0)


def test_a_picked_deck_is_named_by_its_page_and_fetched_by_its_id():
    assert n.own_deck_path(81234) == "/api/2.0/private/deck/81234"
    assert n.own_deck_ref(81234).page("https://netrunnerdb.com") == "https://netrunnerdb.com/en/deck/view/81234"

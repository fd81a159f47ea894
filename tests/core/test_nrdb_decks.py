"""A NetrunnerDB deck named by its address or id, and NetrunnerDB's answer read into a list (app/core/nrdb_decks.py):
every address shape NetrunnerDB gives, other sites refused, answers not shaped as its API's read as no deck."""
from __future__ import annotations

import pytest

from app.core import decklists as d
from app.core import nrdb_decks as n

BASE = "https://netrunnerdb.com"
UUID = "7b2c3d4e-1111-4222-8333-944455556666"


@pytest.mark.parametrize("text, kind, ident, bare", [
    (f"https://netrunnerdb.com/en/decklist/{UUID}/precision-pressure", "decklist", UUID, False),
    ("https://netrunnerdb.com/en/decklist/81234/precision-pressure", "decklist", "81234", False),
    (f"https://netrunnerdb.com/en/deck/view/{UUID}", "deck", UUID, False),
    (f"https://netrunnerdb.com/en/deck/edit/{UUID}", "deck", UUID, False),
    (f"netrunnerdb.com/decklist/{UUID.upper()}", "decklist", UUID, False),
    (f"http://www.netrunnerdb.com/fr/decklist/{UUID}", "decklist", UUID, False),
    (f"https://netrunnerdb.com/api/2.0/public/deck/{UUID}", "deck", UUID, False),
    ("  81234 ", "decklist", "81234", True),
    (UUID, "decklist", UUID, True),
    (f"http://127.0.0.1:8123/en/deck/view/{UUID}", "deck", UUID, False),  # NRDB_URL's own host (a stand-in)
])
def test_every_address_netrunnerdb_gives(text, kind, ident, bare):
    ref = n.reference(text, "http://127.0.0.1:8123" if "127.0.0.1" in text else BASE)
    assert (ref.kind, ref.id, ref.bare) == (kind, ident, bare)
    assert ref.api_path == f"/api/2.0/public/{kind}/{ident}"


@pytest.mark.parametrize("text", [
    "https://example.org/en/decklist/81234/x", "https://netrunnerdb.com.example.org/en/decklist/81234",
    "https://netrunnerdb.com@example.org/en/decklist/81234", "https://netrunnerdb.com:8443/en/decklist/81234",
    "http://127.0.0.1:8123/en/decklist/81234", "https://10.0.0.1/en/decklist/81234",
])
def test_an_address_on_another_site_is_refused(text):
    with pytest.raises(n.NotNetrunnerDB, match="not NetrunnerDB's"):
        n.reference(text, BASE)


@pytest.mark.parametrize("text", ["", "Hedge Fund", "https://netrunnerdb.com/en/card/01050",
                                  "https://netrunnerdb.com/en/decklist/", "ftp://netrunnerdb.com/en/decklist/1",
                                  "javascript:alert(1)", "https://netrunnerdb.com/en/decklist/1/../../oauth"])
def test_what_names_no_deck(text):
    with pytest.raises(n.NotADeck):
        n.reference(text, BASE)


def answer(cards, name="Precision Pressure", **extra) -> dict:
    """NetrunnerDB's answer as its PublicApi20Controller writes it (Decklist::normalize inside `data`)."""
    return {"data": [{"id": 81234, "uuid": UUID, "date_creation": "2025-05-02T10:00:00+00:00",
                      "date_update": "2025-05-02T10:00:00+00:00", "name": name, "description": "", "user_id": 7,
                      "user_name": "someone", "tournament_badge": False, "cards": cards, "mwl_code": None}],
            "total": 1, "success": True, "version_number": "2.0", "last_updated": "2025-05-02T10:00:00+00:00",
            **extra}


def test_the_answer_reads_into_a_list_judged_as_a_paste():
    found = n.read_answer(answer({"30035": 1, "30075": 3, "30040": 2, "99999": 1}))
    text = n.as_text(found, f"{BASE}/en/decklist/81234")
    assert text.splitlines() == [f"From NetrunnerDB: {BASE}/en/decklist/81234 (Precision Pressure)",
                                 "Identity: Haas-Bioroid: Precision Design", "3x Hedge Fund", "2x Seamless Launch",
                                 "1x NetrunnerDB card 99999"]
    checked = d.check(text, "corp", d.rules("standard"))
    assert checked.identity == "haas_bioroid_precision_design"
    assert dict(checked.cards) == {"hedge_fund": 3, "seamless_launch": 2}
    assert checked.problems[0].message == "Line 5: there is no card called “NetrunnerDB card 99999”."
    assert checked.ignored == ()  # the first line is where it came from, not a card


@pytest.mark.parametrize("doc", [
    None, [], "deck", {"data": "x"}, {"data": [1]}, {"data": [{"cards": []}]}, {"data": [{"cards": {}}]},
    answer({"01050": "3"}), answer({"01050": -1}), answer({"01050": 1000}), answer({"1050": 3}),
    answer({"01050": True}), answer({f"{i:05d}": 1 for i in range(400)}),
])
def test_an_answer_not_shaped_as_netrunnerdbs_is_no_deck(doc):
    with pytest.raises(n.NotADeck):
        n.read_answer(doc)


def test_an_unknown_decklist_is_not_found():
    """An unknown decklist is `success: false` with no data (NetrunnerDB's getSingleEntityFromCache)."""
    with pytest.raises(n.NotFound):
        n.read_answer({"data": [], "total": 0, "success": False, "version_number": "2.0", "last_updated": None})

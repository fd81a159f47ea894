"""Decklist pages (app/web/views/decklists.py): a player's link sees and changes only its own lists; bad input gets
a clear message and changes nothing (never a 500); the TO reviews, enters, unlocks, prints and exports; public lists
follow the setting."""
from __future__ import annotations

import html
from datetime import date
from pathlib import Path

import pytest
import sqlalchemy as sa
from cut_helpers import add_players, add_round
from tests.web.test_authz import _snapshot

from app.extensions import db
from app.models import Decklist
from app.services import cut as cut_service
from app.services import decklists as service
from app.services.players import player_links
from app.services.swiss import rounds as rounds_service

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "decklists"
CORP = (FIXTURES / "corp_nrdb.txt").read_text(encoding="utf-8")
RUNNER = (FIXTURES / "runner_jinteki.txt").read_text(encoding="utf-8")


@pytest.fixture
def event(make_user, make_tournament):
    owner = make_user()
    t = make_tournament(owner, decklists=True, date=date(2026, 11, 1))
    players = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    return t, players


def _url(t, player) -> str:
    return f"/t/{t.slug}/p/{player_links.token(player)}/decklists"


def _text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def test_a_player_submits_and_sees_each_problem(client, event):
    t, (ann, *_) = event
    url = _url(t, ann)
    assert client.get(url).status_code == 200
    r = client.post(url, data={"side": "corp", "text": CORP})
    assert r.status_code == 303
    page = _text(client.get(r.location))
    assert "Your Corp list is in and legal." in page and "Haas-Bioroid: Precision Design" in page
    r = client.post(url, data={"side": "runner", "text": "Identity: Tao Salonga\n3x Sure Gamle\n3x Hedge Fund\n"
                                                          "4x Jailbreak"}, follow_redirects=True)
    page = _text(r)
    assert "problems shown below" in page
    for words in ("there is no card called “Sure Gamle”. Did you mean “Sure Gamble”?",
                  "Hedge Fund is a Corp card; a Runner deck cannot include it.",
                  "4 copies of Jailbreak; a deck may hold at most 3."):
        assert words in page
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Decklist)) == 2


@pytest.mark.parametrize("data, words", [
    ({"side": "corp", "text": "x" * 2_000_000}, "characters"),
    ({"side": "corp", "text": "3x Hedge Fund\n" * 10_000}, "10,000 lines"),
    ({"side": "corp", "text": ""}, "Paste your decklist."),
    ({"side": "both", "text": CORP}, "A list is for the Corp or the Runner side."),
    ({"side": "corp", "text": "3x Hedge\x00 Fund"}, "NUL"),
])
def test_bad_input_is_a_clear_message_and_nothing_changed(client, event, data, words):
    t, (ann, *_) = event
    before = _snapshot()
    r = client.post(_url(t, ann), data=data)
    assert r.status_code == 422 and words in _text(r)
    assert _snapshot() == before


def test_a_paste_beyond_the_upload_limit(client, event):
    t, (ann, *_) = event
    before = _snapshot()
    r = client.post(_url(t, ann), data={"side": "corp", "text": "x" * (3 * 1024 * 1024)})
    assert r.status_code == 413 and "far too large for a decklist" in _text(r)
    assert _snapshot() == before


def test_after_the_lock_a_clear_message_and_nothing_changed(client, event):
    t, (ann, *_) = event
    client.post(_url(t, ann), data={"side": "corp", "text": CORP})
    rounds_service.pair_next_round(t, 1)
    page = _text(client.get(_url(t, ann)))
    assert "Locked: round 1 has been paired." in page and "<textarea" not in page
    before = _snapshot()
    r = client.post(_url(t, ann), data={"side": "corp", "text": RUNNER})
    assert r.status_code == 422 and "Decklists are locked: round 1 has been paired." in _text(r)
    assert _snapshot() == before


def test_a_players_link_sees_and_changes_only_its_own_lists(app, event):
    t, (ann, ben, *_) = event
    service.submit(t, ben, "corp", CORP.replace("Precision Pressure", "Ben's secret deck"), "player")
    phone = app.test_client()
    page = _text(phone.get(_url(t, ann)))
    assert "Ben's secret deck" not in page and "Ben" not in page.split("<main>")[1]
    before = db.session.scalars(sa.select(Decklist).filter_by(player_id=ben.id)).one().text
    # a player id in the form is not a field: the list goes to the link's player
    phone.post(_url(t, ann), data={"side": "corp", "text": RUNNER, "player": ben.id, "player_id": ben.id})
    db.session.expire_all()
    assert db.session.scalars(sa.select(Decklist).filter_by(player_id=ben.id)).one().text == before
    assert db.session.scalars(sa.select(Decklist).filter_by(player_id=ann.id)).one().text == RUNNER
    # Ann's list is not on the closed public page; a revoked link reaches nothing
    assert "Tāo Salonga" not in _text(phone.get(f"/t/{t.slug}/decklists"))
    old = player_links.token(ann)
    player_links.reissue(ann)
    db.session.commit()
    assert phone.get(f"/t/{t.slug}/p/{old}/decklists").status_code == 404


def test_the_player_page_links_to_the_lists_when_collected(client, event):
    t, (ann, *_) = event
    me = f"/t/{t.slug}/p/{player_links.token(ann)}"
    assert "Your decklists" in _text(client.get(me))
    t.decklists = False
    db.session.commit()
    assert "Your decklists" not in _text(client.get(me))
    assert "not collecting decklists" in _text(client.get(me + "/decklists"))


def test_the_to_reviews_enters_unlocks_prints_and_exports(client, login, event):
    t, (ann, ben, cat, _dan) = event
    service.submit(t, ann, "corp", CORP, "player")
    service.submit(t, ann, "runner", "Identity: Noise: Hacker Extraordinaire\n3x Sure Gamble", "player")
    rounds_service.pair_next_round(t, 1)
    login()
    page = _text(client.get(f"/tournaments/{t.id}/decklists"))
    assert "3</span><span class=\"label\">active players missing a list" in page
    assert "1</span><span class=\"label\">invalid list" in page
    assert "Identity changed by the list (registered: Ann Corp)" in page
    assert "Noise: Hacker Extraordinaire is not in the Standard card pool" in page
    assert "locked since round 1 was paired" in page
    assert "All 4 players." in page
    attention = _text(client.get(f"/tournaments/{t.id}/decklists?show=attention"))
    assert "Showing the 4 players whose lists need attention" in attention  # Ann: an identity changed
    # the TO replaces a list after the lock
    r = client.post(f"/tournaments/{t.id}/decklists/{ben.id}/runner", data={"text": RUNNER})
    assert r.status_code == 303
    assert service.lists_of(t, ben)["runner"].valid
    bad = client.post(f"/tournaments/{t.id}/decklists/{ben.id}/runner", data={"text": "3x Hedge Fund\n" * 10_000})
    assert bad.status_code == 422 and "10,000 lines" in _text(bad)
    # unlock one list: the player may change it once
    r = client.post(f"/tournaments/{t.id}/decklists/{ann.id}/runner/unlock")
    assert r.status_code == 303
    assert "may change their Runner list once more" in _text(client.get(r.location))
    phone = client.application.test_client()
    assert phone.post(_url(t, ann), data={"side": "runner", "text": RUNNER}).status_code == 303
    assert service.lists_of(t, ann)["runner"].valid and not service.lists_of(t, ann)["runner"].unlocked
    # printouts: one player's sheet by type, and all lists
    sheet = _text(client.get(f"/tournaments/{t.id}/decklists/{ann.id}/sheet"))
    assert sheet.index("<h4>Agenda") < sheet.index("<h4>Asset") < sheet.index("<h4>Operation") \
        < sheet.index("<h4>Barrier") < sheet.index("<h4>Code Gate") < sheet.index("<h4>Sentry")
    assert "<h4>Sentry <span class=\"muted\">(6)</span>" in sheet
    assert "data-print" in sheet and "Checked by" in sheet
    everything = _text(client.get(f"/tournaments/{t.id}/decklists/print"))
    assert everything.count('class="deck-sheet"') == 2  # Ann and Ben have lists
    csv_text = client.get(f"/tournaments/{t.id}/decklists.csv").get_data(as_text=True)
    assert csv_text.startswith("player,side,identity") and "Ben,runner" in csv_text
    assert client.get(f"/tournaments/{t.id}/decklists/{ben.id}/both").status_code == 404
    assert client.post(f"/tournaments/{t.id}/decklists/{ben.id}/both/unlock").status_code == 404
    # a missing side cannot be unlocked: the TO enters it instead
    r = client.post(f"/tournaments/{t.id}/decklists/{cat.id}/corp/unlock", follow_redirects=True)
    assert "has no Corp list to unlock" in _text(r)


def test_settings_page_and_bad_settings(client, login, event):
    t, _ = event
    login()
    before = _snapshot()
    r = client.post(f"/tournaments/{t.id}/decklists/settings",
                    data={"decklists": "y", "card_format": "eternal", "restriction": "standard_ban_list_25_10",
                          "visibility": "cut"}, follow_redirects=True)
    assert "not one of the format's" in _text(r)
    assert _snapshot() == before
    r = client.post(f"/tournaments/{t.id}/decklists/settings",
                    data={"decklists": "y", "card_format": "startup", "restriction": "", "visibility": "after"})
    assert r.status_code == 303
    db.session.expire_all()
    assert (t.card_format, t.restriction, t.decklist_visibility) == ("startup", None, "after")


def test_open_lists_appear_when_the_cut_is_made(client, event):
    t, players = event
    ann, ben, cat, dan = players
    for p in players:
        service.submit(t, p, "corp", CORP.replace("Precision Pressure", f"{p.name}'s deck"), "player")
    service.save_settings(t, True, "standard", "", "cut")
    public = f"/t/{t.slug}/decklists"
    assert "appear here once the cut is made" in _text(client.get(public))
    add_round(t, 1, [(ann, ben, "corp"), (cat, dan, "corp")])
    add_round(t, 2, [(ann, cat, "corp"), (ben, dan, "runner")])
    cut_service.create(t, 2, "single")
    page = _text(client.get(public))
    seeds = cut_service.load(t).bracket.seeds
    names = {p.id: p.name for p in players}
    for p in players:
        assert (f">{p.name}</h3>" in page) == (p.id in seeds), p.name
    assert "Haas-Bioroid: Precision Design" in page and "problem" not in page.lower().split("<main>")[1]
    assert f'href="{public}"' in _text(client.get(f"/t/{t.slug}"))  # the event's tabs link to them
    assert names


def test_a_past_events_lists_are_judged_on_its_date_and_the_pages_say_under_what(client, make_user, make_tournament):
    """A 2022 event: its Corp list (cards rotated since) is legal under the pool and list of 2022, and the player's
    page names them and the card data's date."""
    t = make_tournament(make_user(), decklists=True, date=date(2022, 11, 12))
    (ann,) = add_players(t, ["Ann"])
    r = client.post(_url(t, ann), data={"side": "corp",
                                        "text": (FIXTURES / "standard_2022_corp.txt").read_text(encoding="utf-8")})
    page = _text(client.get(r.location))
    assert "Your Corp list is in and legal." in page
    assert "Standard · Fifth Rotation card pool · Standard Ban List 22.09 (in force on 2022-11-12) · card data of " \
           "2025-09-17 plus Vantage Point" in " ".join(page.split())


def test_a_new_date_judges_the_lists_again(client, login, make_user, make_tournament):
    """The pool and list in force follow the event's date: moving a 2022 event entered with today's date to its own
    date makes its 2022 list legal, in the same save."""
    t = make_tournament(make_user(), decklists=True, date=date(2026, 11, 1), name="Worlds 2022")
    (ann,) = add_players(t, ["Ann"])
    deck, checked = service.submit(t, ann, "corp", (FIXTURES / "standard_2022_corp.txt").read_text(encoding="utf-8"),
                                   "organizer")
    assert not deck.valid and {p["kind"] for p in deck.problems} == {"not_in_pool"}
    login()
    r = client.post(f"/tournaments/{t.id}/edit", data={"name": "Worlds 2022", "date": "2022-11-12",
                                                       "format": t.format, "score_factor": t.score_factor,
                                                       "planned_rounds": "", "tiebreakers": "magic"},
                    follow_redirects=True)
    assert "1 decklist checked again under the rules of the new date." in _text(r)
    db.session.expire_all()
    deck = service.lists_of(t, ann)["corp"]
    assert deck.valid and deck.problems == []

"""Online events on jinteki.net: the handles asked at registration (self-registration, the TO's form, the CSV
import) and shown in pairings, the player's code, and the event's report address with its code proof."""
from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Player, Tournament
from app.services.players import player_links
from app.services.swiss import rounds as rounds_service
from app.services.online import report_codes


def _players(t) -> dict[str, Player]:
    return {p.name: p for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id))}


@pytest.fixture
def owner(make_user):
    return make_user("owner@example.com", "owner password")


@pytest.fixture
def event(owner, make_tournament):
    return make_tournament(owner, name="Online Open", registration_open=True, online=True)


def _add(t, name, jinteki="", discord=""):
    p = Player(tournament_id=t.id, name=name, jinteki_name=jinteki, discord=discord)
    db.session.add(p)
    db.session.commit()
    return p


def _prove(client, t, who, code, **kw):
    return client.post(f"/t/{t.slug}/report", data={"who": who, "code": code}, **kw)


# ---------------------------------------------------------------- handles at registration

def test_self_registration_asks_and_keeps_the_jinteki_name(app, event):
    phone = app.test_client()
    page = phone.get(f"/t/{event.slug}").get_data(as_text=True)
    assert "jinteki.net username" in page and "Discord handle" in page
    refused = phone.post(f"/t/{event.slug}/register", data={"name": "Ana"})
    assert refused.status_code == 422 and "Give your jinteki.net username" in refused.get_data(as_text=True)
    assert "Ana" not in _players(event)
    r = phone.post(f"/t/{event.slug}/register", data={"name": "Ana", "jinteki_name": "anaplays",
                                                      "discord": "ana.s"})
    assert r.status_code == 303
    ana = _players(event)["Ana"]
    assert (ana.jinteki_name, ana.discord) == ("anaplays", "ana.s")
    page = phone.get(r.location).get_data(as_text=True)  # the registration page shows the code and the address
    assert report_codes.shown(ana) in page and f"/t/{event.slug}/report" in page
    # A second player cannot take the same account, whatever the case.
    other = app.test_client().post(f"/t/{event.slug}/register", data={"name": "Bo", "jinteki_name": "AnaPlays"})
    assert other.status_code == 422 and "already Ana" in other.get_data(as_text=True)
    assert "Bo" not in _players(event)


def test_an_event_not_online_asks_for_no_handles(app, owner, make_tournament):
    t = make_tournament(owner, registration_open=True)
    page = app.test_client().get(f"/t/{t.slug}").get_data(as_text=True)
    assert "jinteki.net username" not in page
    assert app.test_client().post(f"/t/{t.slug}/register", data={"name": "Ana", "jinteki_name": "x"}).status_code == 303
    assert _players(t)["Ana"].jinteki_name == ""


def test_the_to_form_and_the_csv_import_take_handles(app, event, login):
    c = login("owner@example.com", "owner password")
    r = c.post(f"/tournaments/{event.id}/players", data={"name": "Cat", "jinteki_name": "catj", "discord": "cat#1"})
    assert r.status_code == 302
    cat = _players(event)["Cat"]
    assert (cat.jinteki_name, cat.discord) == ("catj", "cat#1")
    clash = c.post(f"/tournaments/{event.id}/players", data={"name": "Dan", "jinteki_name": "CATJ"})
    assert clash.status_code == 422 and "already Cat" in clash.get_data(as_text=True)
    r = c.post(f"/tournaments/{event.id}/players/{cat.id}/edit", data={"name": "Cat", "jinteki_name": "cat2"})
    assert r.status_code == 302 and _players(event)["Cat"].jinteki_name == "cat2"
    # The TO's list shows handles and the player's code.
    page = c.get(f"/tournaments/{event.id}/players").get_data(as_text=True)
    assert "cat2" in page and report_codes.shown(_players(event)["Cat"]) in page
    # CSV: name, corp, runner, pronouns, jinteki.net, Discord; a username given twice refuses the whole file.
    bad = c.post(f"/tournaments/{event.id}/players/import",
                 data={"text": "Eve,,,,evej,\nFay,,,,EVEJ,\nGil,,,,cat2,"})
    text = bad.get_data(as_text=True)
    assert bad.status_code == 422 and "also on row 1" in text and "already Cat" in text
    assert "Eve" not in _players(event)
    ok = c.post(f"/tournaments/{event.id}/players/import", data={"text": "Eve,,,they/them,evej,eve.d\nFay"})
    assert ok.status_code == 302
    eve = _players(event)["Eve"]
    assert (eve.pronouns, eve.jinteki_name, eve.discord) == ("they/them", "evej", "eve.d")


def test_handles_show_in_pairings_the_round_page_and_the_players_page(app, event, login):
    ana, bo = _add(event, "Ana", "anaplays", "ana.d"), _add(event, "Bo", "boj")
    rounds_service.pair_next_round(event, 1)
    rounds_service.publish_round(event, 1)
    public = app.test_client().get(f"/t/{event.slug}/pairings").get_data(as_text=True)
    assert "anaplays" in public and "boj" in public and "ana.d" in public
    c = login("owner@example.com", "owner password")
    assert "anaplays" in c.get(f"/tournaments/{event.id}/rounds/1").get_data(as_text=True)
    dashboard = c.get(f"/tournaments/{event.id}").get_data(as_text=True)
    assert f"/t/{event.slug}/report" in dashboard and "without a jinteki.net username" not in dashboard
    _add(event, "Cy")  # added by hand without a username
    assert "1 active player without a jinteki.net username" in c.get(f"/tournaments/{event.id}").get_data(as_text=True)
    assert "Report my game" in app.test_client().get(f"/t/{event.slug}").get_data(as_text=True)
    mine = app.test_client().get(f"/t/{event.slug}/p/{player_links.token(bo)}").get_data(as_text=True)
    assert "anaplays" in mine  # the opponent's jinteki.net name beside theirs
    assert report_codes.shown(bo) in mine  # and Bo's own code
    bo_phone = app.test_client()
    bo_phone.get(f"/t/{event.slug}/p/{player_links.token(bo)}")  # remembered: the public pages greet Bo
    assert "(jinteki.net: anaplays)" in bo_phone.get(f"/t/{event.slug}/me.json?page=pairings").get_json()["you"]
    assert "(jinteki.net: anaplays)" in bo_phone.get(f"/t/{event.slug}").get_data(as_text=True)
    # The same event not online shows none of it.
    db.session.get(Tournament, event.id).online = False
    db.session.commit()
    assert "anaplays" not in app.test_client().get(f"/t/{event.slug}/pairings").get_data(as_text=True)


# ---------------------------------------------------------------- the report address

def test_a_remembered_phone_lands_on_its_own_page(app, event):
    phone = app.test_client()
    phone.post(f"/t/{event.slug}/register", data={"name": "Ana", "jinteki_name": "anaplays"})
    ana = _players(event)["Ana"]
    r = phone.get(f"/t/{event.slug}/report")
    assert r.status_code == 303 and r.location.endswith(f"/t/{event.slug}/p/{player_links.token(ana)}")
    # ?other=1 lets someone else prove who they are on this phone.
    assert phone.get(f"/t/{event.slug}/report?other=1").status_code == 200


def test_a_right_code_remembers_the_player_and_opens_their_page(app, event):
    ana, bo = _add(event, "Ána Souza", "anaplays"), _add(event, "Bo", "boj")
    phone = app.test_client()
    page = phone.get(f"/t/{event.slug}/report")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "Your code" in body and "Bo" in body
    assert player_links.token(ana) not in body and player_links.token(bo) not in body
    code = report_codes.code(ana)
    typed = f" {code[:3].lower()}-{code[3:]} "  # case, spaces and a hyphen do not matter
    r = _prove(phone, event, "ana souza", typed)
    assert r.status_code == 303 and r.location.endswith(f"/t/{event.slug}/p/{player_links.token(ana)}")
    assert phone.get(f"/t/{event.slug}/report").location.endswith(player_links.token(ana))  # remembered
    # The jinteki.net username works as well as the name.
    other = app.test_client()
    assert _prove(other, event, "BOJ", report_codes.code(bo)).location.endswith(player_links.token(bo))


def test_a_wrong_code_says_so_and_leaks_no_link(app, event):
    ana, bo = _add(event, "Ana", "anaplays"), _add(event, "Bo", "boj")
    phone = app.test_client()
    r = _prove(phone, event, "Ana", report_codes.code(bo))  # another player's code
    body = r.get_data(as_text=True)
    assert r.status_code == 422 and "does not match Ana" in body
    for p in (ana, bo):
        assert player_links.token(p) not in body and report_codes.code(p) not in body.replace("-", "")
    assert phone.get(f"/t/{event.slug}/report").status_code == 200  # nothing remembered
    nobody = _prove(phone, event, "Zed", "ABC123")
    assert nobody.status_code == 422 and "No player of this event is called" in nobody.get_data(as_text=True)
    empty = _prove(phone, event, "", "")
    assert empty.status_code == 422 and "Give your name and your code" in empty.get_data(as_text=True)


def test_a_reissued_link_ends_the_old_code(app, event):
    ana = _add(event, "Ana")
    old = report_codes.code(ana)
    player_links.reissue(ana)
    db.session.commit()
    assert report_codes.code(ana) != old
    assert _prove(app.test_client(), event, "Ana", old).status_code == 422


def test_an_event_not_online_takes_no_codes(app, owner, make_tournament):
    t = make_tournament(owner)
    ana = _add(t, "Ana")
    page = app.test_client().get(f"/t/{t.slug}/report").get_data(as_text=True)
    assert "not played online" in page and "Your code" not in page
    assert _prove(app.test_client(), t, "Ana", report_codes.code(ana)).status_code == 422


def test_codes_are_six_unambiguous_characters():
    assert len(report_codes.ALPHABET) == 32 and not set("ILOU") & set(report_codes.ALPHABET)
    assert report_codes.normalized(" ab-c1o ") == "ABC10" and report_codes.normalized("il") == "11"


def test_guessing_one_players_code_is_throttled(app, event):
    """Wrong guesses at one player add up over addresses and spellings; then even the right code waits (429)."""
    ana = _add(event, "Ana", "anaplays")
    app.config["REPORT_CODE_LIMIT_PER_PLAYER"] = "3/minute"
    for i, who in enumerate(("Ana", "anaplays", "ANA")):
        r = _prove(app.test_client(), event, who, "000000", environ_base={"REMOTE_ADDR": f"10.0.0.{i}"})
        assert r.status_code == 422
    r = _prove(app.test_client(), event, "Ana", report_codes.code(ana), environ_base={"REMOTE_ADDR": "10.0.9.9"})
    assert r.status_code == 429
    # another player is not affected
    bo = _add(event, "Bo")
    assert _prove(app.test_client(), event, "Bo", report_codes.code(bo)).status_code == 303


def test_one_address_guessing_many_players_is_throttled(app, event):
    app.config["REPORT_CODE_LIMIT_PER_IP"] = "4/minute"
    names = [_add(event, f"P{i}").name for i in range(5)]
    client = app.test_client()
    for name in names[:4]:
        assert _prove(client, event, name, "000000").status_code == 422
    assert _prove(client, event, names[4], "000000").status_code == 429


def test_a_backup_keeps_the_event_online_its_handles_and_the_list_lock(event, owner):
    import json

    from app.services.event_files import backup as backup_service
    from app.services import decklists
    from app.services.event_files import restore as restore_service

    _add(event, "Ana", "anaplays", "ana.d")
    _add(event, "Bo")
    decklists.lock(event)
    first = backup_service.backup(db.session.get(Tournament, event.id))
    copy = restore_service.restore(json.dumps(first).encode(), owner)
    assert copy.online and copy.lists_locked
    assert {(p.name, p.jinteki_name, p.discord) for p in _players(copy).values()} == \
        {("Ana", "anaplays", "ana.d"), ("Bo", "", "")}
    # A backup from before online events (no such keys) restores as an event that is not online.
    del first["tournament"]["online"], first["tournament"]["decklists"]["locked"]
    for p in first["players"]:
        del p["jinteki_name"], p["discord"]
    older = restore_service.restore(json.dumps(first).encode(), owner)
    assert not older.online and not older.lists_locked
    assert {p.jinteki_name for p in _players(older).values()} == {""}


def test_usernames_compare_ignoring_case_beyond_ascii(event):
    """SQLite's lower() folds ASCII only: 'ZOË' still finds 'zoë'."""
    from app.services.online import handles

    zoe = _add(event, "Zoë", "zoë_k")
    assert handles.taken_by(event, "ZOË_K").id == zoe.id
    assert handles.taken_by(event, "zoë_k", except_id=zoe.id) is None
    assert report_codes.find(event, " ZOË_K ").id == zoe.id


def test_a_player_edits_their_handles_and_an_event_taken_offline_keeps_them(app, event, login):
    phone = app.test_client()
    phone.post(f"/t/{event.slug}/register", data={"name": "Ana", "jinteki_name": "anaplays"})
    _add(event, "Bo", "boj")
    taken = phone.post(f"/t/{event.slug}/registration", data={"name": "Ana", "jinteki_name": "BOJ"})
    assert taken.status_code == 422 and "already Bo" in taken.get_data(as_text=True)
    assert phone.post(f"/t/{event.slug}/registration",
                      data={"name": "Ana", "jinteki_name": "ana2", "discord": "ana.d"}).status_code == 303
    assert (_players(event)["Ana"].jinteki_name, _players(event)["Ana"].discord) == ("ana2", "ana.d")
    # The TO takes the event offline: the forms no longer ask, and an edit keeps what the players gave.
    db.session.get(Tournament, event.id).online = False
    db.session.commit()
    c = login("owner@example.com", "owner password")
    ana = _players(event)["Ana"]
    assert "jinteki.net username" not in c.get(f"/tournaments/{event.id}/players/{ana.id}/edit").get_data(as_text=True)
    assert c.post(f"/tournaments/{event.id}/players/{ana.id}/edit", data={"name": "Ana S"}).status_code == 302
    assert _players(event)["Ana S"].jinteki_name == "ana2"

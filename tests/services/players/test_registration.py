"""Self-registration: open/closed, cap, late entry, names unique ignoring case and accents (also when requests
race), the player's own edits before round 1, the TO's live list, the API field."""
from __future__ import annotations

import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest
import sqlalchemy as sa
from served import served

from app.core import results
from app.extensions import db
from app.models import Player, Tournament
from app.services.swiss import rounds as rounds_service
from app.services.results import match_results


def _players(t) -> dict[str, Player]:
    return {p.name: p for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id))}


@pytest.fixture
def event(make_user, make_tournament):
    owner = make_user("owner@example.com", "owner password")
    return make_tournament(owner, name="Open Night", registration_open=True)


def _register(client, t, name="Ana", **fields):
    return client.post(f"/t/{t.slug}/register", data={"name": name, **fields})


def test_register_remembers_the_device_and_shows_link_and_qr(app, event):
    phone = app.test_client()
    assert "Register" in phone.get(f"/t/{event.slug}").get_data(as_text=True)
    r = _register(phone, event, "Ana Souza", corp_identity="Weyland Consortium", runner_identity="Zahya",
                  pronouns="she/her")
    assert r.status_code == 303 and r.location.endswith(f"/t/{event.slug}/registration")
    ana = _players(event)["Ana Souza"]
    assert (ana.corp_identity, ana.runner_identity, ana.pronouns, ana.self_registered) == \
        ("Weyland Consortium", "Zahya", "she/her", True)
    page = phone.get(r.location).get_data(as_text=True)
    from app.services.players import player_links
    assert "Save this link" in page and f"/t/{event.slug}/p/{player_links.token(ana)}" in page
    assert "<svg" in page  # the QR code
    # The home page now knows this phone; another phone still sees the form.
    assert "You are registered as" in phone.get(f"/t/{event.slug}").get_data(as_text=True)
    assert app.test_client().get(f"/t/{event.slug}/registration").status_code == 403


def test_plain_swiss_asks_no_identities(app, make_user, make_tournament):
    t = make_tournament(make_user(), format="plain", registration_open=True)
    page = app.test_client().get(f"/t/{t.slug}").get_data(as_text=True)
    assert "Register" in page and "Corp identity" not in page
    _register(app.test_client(), t, "Ana", corp_identity="sneaked in")
    assert _players(t)["Ana"].corp_identity == ""


def test_closed_registration_creates_nothing(app, make_user, make_tournament):
    t = make_tournament(make_user(), registration_open=False)
    assert "Register" not in app.test_client().get(f"/t/{t.slug}").get_data(as_text=True)
    r = _register(app.test_client(), t)
    assert r.status_code == 422 and "Registration is closed." in r.get_data(as_text=True)
    assert _players(t) == {}


@pytest.mark.parametrize("taken,name", [("Ána", "ana"), ("ana", "ÁNA "), ("Zoë Kovač", "zoe  kovac")])
def test_duplicate_name_ignoring_case_and_accents(app, event, taken, name):
    db.session.add(Player(tournament_id=event.id, name=taken))
    db.session.commit()
    r = _register(app.test_client(), event, name)
    assert r.status_code == 422 and f"“{taken}” is already in this tournament." in r.get_data(as_text=True)
    assert list(_players(event)) == [taken]


def test_cap_counts_active_players(app, event):
    event.registration_cap = 2
    db.session.add_all([Player(tournament_id=event.id, name="Ben"),
                        Player(tournament_id=event.id, name="Cat", dropped=True)])
    db.session.commit()
    assert "1 place left" in app.test_client().get(f"/t/{event.slug}").get_data(as_text=True)
    assert _register(app.test_client(), event, "Ana").status_code == 303
    r = _register(app.test_client(), event, "Dev")
    assert r.status_code == 422 and "The event is full (2 players)" in r.get_data(as_text=True)
    assert sorted(_players(event)) == ["Ana", "Ben", "Cat"]
    assert app.test_client().get(f"/api/tournaments/{event.slug}").get_json()["registration"] == "closed"


def _start(t, names=("Ben", "Cat", "Dev", "Eve")) -> None:
    """Round 1 paired, published and reported through the TO's service."""
    db.session.add_all(Player(tournament_id=t.id, name=n) for n in names)
    db.session.commit()
    rounds_service.pair_next_round(t, 1)
    rounds_service.publish_round(t, 1)
    for m in rounds_service.load_round(t, 1).matches:
        if m.result is None:
            match_results.report_result(t, m.id, results.outcome(t.fmt, "corp"),
                                         match_results.Actor("organizer", user_id=t.owner_id))


def test_late_registration_joins_the_next_pairing(app, event):
    _start(event)
    r = _register(app.test_client(), event, "Zed")
    assert r.status_code == 422 and "Registration closed when round 1 started" in r.get_data(as_text=True)
    assert app.test_client().get(f"/api/tournaments/{event.slug}").get_json()["registration"] == "closed"
    event.late_registration = True
    db.session.commit()
    assert app.test_client().get(f"/api/tournaments/{event.slug}").get_json()["registration"] == "open"
    phone = app.test_client()
    assert _register(phone, event, "Zed").status_code == 303
    assert "You join the next round" in phone.get(f"/t/{event.slug}/registration").get_data(as_text=True)
    rnd = rounds_service.pair_next_round(event, 2)
    seated = {s.player_id for m in rounds_service.load_round(event, rnd.number).matches for s in m.seats}
    assert _players(event)["Zed"].id in seated


def test_own_entry_editable_before_round_1_only(app, event):
    db.session.add(Player(tournament_id=event.id, name="Bén"))
    db.session.commit()
    phone = app.test_client()
    _register(phone, event, "Ana", pronouns="she/her")
    r = phone.post(f"/t/{event.slug}/registration", data={"name": "Ana Souza", "corp_identity": "Jinteki",
                                                           "runner_identity": "", "pronouns": "they/them"})
    assert r.status_code == 303
    ana = _players(event)["Ana Souza"]
    assert (ana.corp_identity, ana.pronouns) == ("Jinteki", "they/them")
    r = phone.post(f"/t/{event.slug}/registration", data={"name": "ben", "pronouns": ""})
    assert r.status_code == 422 and "“Bén” is already in this tournament." in r.get_data(as_text=True)
    assert "Ana Souza" in _players(event)
    _start(event, names=("Cat", "Dev"))
    page = phone.get(f"/t/{event.slug}/registration").get_data(as_text=True)
    assert "ask the organizer" in page and 'name="name"' not in page
    r = phone.post(f"/t/{event.slug}/registration", data={"name": "Ana Renamed", "pronouns": ""})
    assert r.status_code == 422 and "Round 1 has started" in r.get_data(as_text=True)
    assert "Ana Souza" in _players(event) and "Ana Renamed" not in _players(event)


def test_to_list_updates_through_the_etagged_feed(app, event, login):
    to = login("owner@example.com", "owner password", c=app.test_client())
    page = to.get(f"/tournaments/{event.id}/players").get_data(as_text=True)
    assert 'src="/static/players_live.js"' in page
    feed = to.get(f"/tournaments/{event.id}/players/live")
    assert feed.status_code == 200 and feed.headers["ETag"]
    assert to.get(f"/tournaments/{event.id}/players/live",
                  headers={"If-None-Match": feed.headers["ETag"]}).status_code == 304
    _register(app.test_client(), event, "Ana", pronouns="she/her")
    again = to.get(f"/tournaments/{event.id}/players/live", headers={"If-None-Match": feed.headers["ETag"]})
    assert again.status_code == 200 and again.headers["ETag"] != feed.headers["ETag"]
    html = again.get_json()["html"]
    assert "Ana" in html and "she/her" in html and "registered" in html
    # The TO edits and removes a registration as any other player.
    ana = _players(event)["Ana"]
    assert to.post(f"/tournaments/{event.id}/players/{ana.id}/edit",
                   data={"name": "Ana S.", "pronouns": "she/they"}).status_code == 302
    assert _players(event)["Ana S."].pronouns == "she/they"
    assert to.post(f"/tournaments/{event.id}/players/{ana.id}/delete").status_code == 302
    assert _players(event) == {}


def test_settings_form_sets_registration(app, event, login):
    to = login("owner@example.com", "owner password", c=app.test_client())
    r = to.post(f"/tournaments/{event.id}/edit", data={"name": "Open Night", "date": "2026-03-14",
                                                       "format": "single", "score_factor": "3/2",
                                                       "registration_open": "y", "registration_cap": "16",
                                                       "late_registration": "y"})
    assert r.status_code == 302
    t = db.session.get(Tournament, event.id)
    assert (t.registration_open, t.registration_cap, t.late_registration) == (True, 16, True)
    r = to.post(f"/tournaments/{event.id}/edit", data={"name": "Open Night", "date": "2026-03-14",
                                                       "format": "single", "score_factor": "3/2",
                                                       "registration_cap": "0"})
    assert r.status_code == 422
    assert db.session.get(Tournament, event.id).registration_cap == 16


def _phone():
    """A client with its own cookies: it follows the 303 to its entry page as the device that registered."""
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor())


def test_simultaneous_registrations_of_one_name_store_one(app, event):
    """Six phones register "Ana"/"ána" at the same moment against a served app: one player, five clear refusals."""
    if db.engine.dialect.name != "postgresql":
        pytest.skip("real parallel writers need PostgreSQL (SQLite serializes them)")
    with served(app) as base:
        url = f"{base}/t/{event.slug}/register"
        names = ["Ana", "ána", "ANA", "Ána", "ana", " ÁnA "]
        start, answers = threading.Barrier(len(names)), []

        def post(name):
            body = urllib.parse.urlencode({"name": name}).encode()
            start.wait()
            try:
                with _phone().open(urllib.request.Request(url, data=body), timeout=30) as r:
                    answers.append((r.status, ""))
            except urllib.error.HTTPError as e:
                answers.append((e.code, e.read().decode()))

        workers = [threading.Thread(target=post, args=(n,)) for n in names]
        for w in workers:
            w.start()
        for w in workers:
            w.join(timeout=60)
    db.session.expire_all()
    assert len(_players(event)) == 1
    assert sorted(code for code, _ in answers) == [200] + [422] * 5  # urllib follows the 303 to the entry page
    assert all("is already in this tournament" in text for code, text in answers if code == 422)


def test_simultaneous_registrations_respect_the_cap(app, event):
    """Eight phones with different names race for three places: exactly three get in."""
    if db.engine.dialect.name != "postgresql":
        pytest.skip("real parallel writers need PostgreSQL (SQLite serializes them)")
    event.registration_cap = 3
    db.session.commit()
    with served(app) as base:
        url = f"{base}/t/{event.slug}/register"
        start, codes = threading.Barrier(8), []

        def post(i):
            body = urllib.parse.urlencode({"name": f"Player {i}"}).encode()
            start.wait()
            try:
                with _phone().open(urllib.request.Request(url, data=body), timeout=30) as r:
                    codes.append(r.status)
            except urllib.error.HTTPError as e:
                codes.append(e.code)

        workers = [threading.Thread(target=post, args=(i,)) for i in range(8)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(timeout=60)
    db.session.expire_all()
    assert len(_players(event)) == 3 and sorted(codes) == [200] * 3 + [422] * 5


def test_pronouns_reach_the_nrtm_export_and_the_backup(app, event, login):
    _register(app.test_client(), event, "Ana", pronouns="she/her")
    _register(app.test_client(), event, "Ben")
    rows = {p["name"]: p for p in app.test_client().get(f"/t/{event.slug}.json").get_json()["players"]}
    assert rows["Ana"]["pronouns"] == "she/her" and rows["Ben"]["pronouns"] == ""  # always present, as Cobra
    to = login("owner@example.com", "owner password", c=app.test_client())
    backup = to.get(f"/tournaments/{event.id}/backup.json").get_json()
    assert {p["name"]: p["pronouns"] for p in backup["players"]} == {"Ana": "she/her", "Ben": ""}


def test_registration_is_throttled_per_address(app, event):
    app.config["REGISTER_LIMIT_PER_IP"] = "2/minute"
    phone = app.test_client()
    assert [_register(phone, event, n).status_code for n in ("Ana", "Ben")] == [303, 303]
    assert _register(app.test_client(), event, "Cat").status_code == 429
    assert sorted(_players(event)) == ["Ana", "Ben"]

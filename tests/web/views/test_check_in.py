"""Check-in and the waitlist through the pages: registrations beyond the cap wait in line and a freed place lets the
next one in (their phone says so); the roll call by phone and by the staff, undo, the no-show drop by button and at
pairing past the deadline; waitlisted and dropped no-shows never paired; the NRTM file leaves the waitlist out."""
from __future__ import annotations

import re

import sqlalchemy as sa

from app.extensions import db
from app.models import CheckIn, CheckInSettings, Player, Seat, WaitlistEntry
from app.services.event_files import nrtm_export
from app.services.players import player_links
from app.services.swiss import rounds as rounds_service


def _players(t) -> dict[str, Player]:
    db.session.expire_all()
    return {p.name: p for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id))}


def _page(client, t, player) -> str:
    return client.get(f"/t/{t.slug}/p/{player_links.token(player)}").get_data(as_text=True)


def _full_event(make_user, make_tournament, login, client, cap=2, names=("Ana", "Ben", "Cy", "Dee")):
    owner = make_user()
    t = make_tournament(owner, registration_open=True, registration_cap=cap)
    login()
    r = client.post(f"/tournaments/{t.id}/check-in/settings", data={"waitlist": "y", "no_shows": "drop"})
    assert r.status_code == 303
    for name in names:
        assert client.application.test_client().post(f"/t/{t.slug}/register", data={"name": name}).status_code == 303
    return t


def test_registrations_beyond_the_cap_wait_in_order_and_a_drop_lets_the_next_in(app, client, login, make_user,
                                                                                 make_tournament):
    t = _full_event(make_user, make_tournament, login, client)
    p = _players(t)
    assert [p[n].dropped for n in ("Ana", "Ben", "Cy", "Dee")] == [False, False, True, True]
    assert "new entries join the waitlist" in app.test_client().get(f"/t/{t.slug}").get_data(as_text=True)
    phone = app.test_client()
    assert "Waitlist position 1" in _page(phone, t, p["Cy"])
    dee = _page(phone, t, p["Dee"])
    assert "Waitlist position 2" in dee and "You have dropped" not in dee and "Drop from the event" not in dee
    # Ben withdraws from his phone: Cy takes his place, and her page says so
    assert phone.post(f"/t/{t.slug}/p/{player_links.token(p['Ben'])}/drop").status_code == 303
    p = _players(t)
    assert (p["Ben"].dropped, p["Cy"].dropped, p["Dee"].dropped) == (True, False, True)
    assert "You are in" in _page(phone, t, p["Cy"]) and "Waitlist position 1" in _page(phone, t, p["Dee"])
    # The TO raises the cap: Dee is in too
    r = client.post(f"/tournaments/{t.id}/edit", data={"name": t.name, "date": t.date.isoformat(), "format": "single",
                                                       "score_factor": "2", "registration_open": "y",
                                                       "registration_cap": "3", "waitlist": "y"}, follow_redirects=True)
    assert "In from the waitlist: Dee." in r.get_data(as_text=True)
    assert not _players(t)["Dee"].dropped
    # Waitlisted players were never paired; the promoted ones are
    rounds_service.pair_next_round(t, 1)
    seated = set(db.session.scalars(sa.select(Seat.player_id).filter_by(tournament_id=t.id)))
    p = _players(t)
    assert seated == {p["Ana"].id, p["Cy"].id, p["Dee"].id}


def test_a_full_event_without_a_waitlist_still_refuses(app, make_user, make_tournament):
    t = make_tournament(make_user(), registration_open=True, registration_cap=1)
    assert app.test_client().post(f"/t/{t.slug}/register", data={"name": "Ana"}).status_code == 303
    r = app.test_client().post(f"/t/{t.slug}/register", data={"name": "Ben"})
    assert r.status_code == 422 and "The event is full" in r.get_data(as_text=True)
    assert list(_players(t)) == ["Ana"]


def test_waitlisted_players_stay_out_of_pairings_standings_and_the_nrtm_file(app, client, login, make_user,
                                                                              make_tournament):
    t = _full_event(make_user, make_tournament, login, client, cap=2, names=("Ana", "Ben", "Cy"))
    client.post(f"/tournaments/{t.id}/players", data={"name": "Eve"})  # the TO's hand: in, beyond the cap
    rounds_service.pair_next_round(t, 1)
    rounds_service.publish_round(t, 1)
    doc = nrtm_export.export(t, "http://x")
    assert sorted(r["name"] for r in doc["players"]) == ["Ana", "Ben", "Eve"]
    assert sorted(r["id"] for r in doc["players"]) == [1, 2, 3]  # numbered among those the file holds
    # after round 1 a drop frees no place automatically: the TO lets Cy in by hand (a late entry)
    p = _players(t)
    client.post(f"/tournaments/{t.id}/players/{p['Ben'].id}/drop")
    assert _players(t)["Cy"].dropped
    r = client.post(f"/tournaments/{t.id}/check-in/waitlist/{p['Cy'].id}/admit", follow_redirects=True)
    assert "Cy is in" in r.get_data(as_text=True)
    assert not _players(t)["Cy"].dropped
    assert db.session.scalar(sa.select(WaitlistEntry.promoted_at).filter_by(player_id=p["Cy"].id)) is not None


def test_the_to_undropping_a_waitlisted_player_lets_them_in(app, client, login, make_user, make_tournament):
    t = _full_event(make_user, make_tournament, login, client, cap=1, names=("Ana", "Ben"))
    ben = _players(t)["Ben"]
    client.post(f"/tournaments/{t.id}/players/{ben.id}/undrop")
    assert not _players(t)["Ben"].dropped
    assert "You are in" in _page(app.test_client(), t, ben)


def _roll_call(client, t, **settings):
    data = {"enabled": "y", "no_shows": "drop", **settings}
    assert client.post(f"/tournaments/{t.id}/check-in/settings", data=data).status_code == 303


def test_the_roll_call_by_phone_and_by_the_staff_then_the_no_shows_drop(app, client, login, make_user,
                                                                         make_tournament):
    t = _full_event(make_user, make_tournament, login, client, cap=3, names=("Ana", "Ben", "Cy", "Dee"))
    _roll_call(client, t, waitlist="y")
    p = _players(t)
    phone = app.test_client()
    assert "I am here: check me in" in _page(phone, t, p["Ana"])
    assert phone.post(f"/t/{t.slug}/p/{player_links.token(p['Ana'])}/check-in").status_code == 303
    assert "Checked in for round 1" in _page(phone, t, p["Ana"])
    # the waitlisted player checks in while she waits (the event is full: she still waits)
    assert "I am here: check me in" in _page(phone, t, p["Dee"])
    phone.post(f"/t/{t.slug}/p/{player_links.token(p['Dee'])}/check-in")
    assert db.session.scalar(sa.select(sa.func.count(CheckIn.id)).filter_by(player_id=p["Dee"].id)) == 1
    dee = _page(phone, t, p["Dee"])
    assert "Waitlist position 1" in dee and "Checked in while you wait" in dee
    assert _players(t)["Dee"].dropped  # still waiting: never paired
    # the staff tick Ben (the script's JSON answer: the row and the counts), then take back a wrong tap on Cy
    r = client.post(f"/tournaments/{t.id}/check-in/{p['Ben'].id}", headers={"Accept": "application/json"})
    answer = r.get_json()
    assert answer["ok"] and "checked in" in answer["row"] and ">2<" in answer["counts"].replace(" ", "")
    client.post(f"/tournaments/{t.id}/check-in/{p['Cy'].id}")
    client.post(f"/tournaments/{t.id}/check-in/{p['Cy'].id}/undo")
    page = client.get(f"/tournaments/{t.id}/check-in").get_data(as_text=True)
    assert 'data-names="cy"' in page and "Drop the no-shows now" in page and "Waitlist" in page
    # the search without JavaScript: the server filters by folded name
    found = client.get(f"/tournaments/{t.id}/check-in?q=BÉN").get_data(as_text=True)
    assert 'data-names="ben"' in found and 'data-names="ana"' not in found
    r = client.post(f"/tournaments/{t.id}/check-in/no-shows", follow_redirects=True).get_data(as_text=True)
    assert "Dropped 1 no-show: Cy" in r and "In from the waitlist: Dee" in r
    p = _players(t)
    assert (p["Cy"].dropped, p["Dee"].dropped) == (True, False)
    assert "You are in" in _page(phone, t, p["Dee"])
    # a dropped no-show cannot be ticked back in without the TO bringing them back
    client.post(f"/tournaments/{t.id}/check-in/{p['Cy'].id}")
    assert db.session.scalar(sa.select(sa.func.count(CheckIn.id)).filter_by(player_id=p["Cy"].id)) == 0
    rounds_service.pair_next_round(t, 1)
    seated = set(db.session.scalars(sa.select(Seat.player_id).filter_by(tournament_id=t.id)))
    assert p["Cy"].id not in seated and {p["Ana"].id, p["Ben"].id, p["Dee"].id} <= seated


def test_past_the_deadline_phones_stop_and_pairing_drops_the_no_shows(app, client, login, make_user,
                                                                       make_tournament):
    t = _full_event(make_user, make_tournament, login, client, cap=10, names=("Ana", "Ben", "Cy", "Dee"))
    _roll_call(client, t, closes_in="0")
    p = _players(t)
    phone = app.test_client()
    assert "Check-in closed" in _page(phone, t, p["Ana"])
    phone.post(f"/t/{t.slug}/p/{player_links.token(p['Ana'])}/check-in")
    assert db.session.scalar(sa.select(sa.func.count(CheckIn.id))) == 0
    for name in ("Ana", "Ben"):  # late arrivals the staff tick
        client.post(f"/tournaments/{t.id}/check-in/{p[name].id}")
    # the pair button first shows what pairing does (nothing done yet), then the confirmation does it all
    shown = client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1})
    assert shown.status_code == 409 and "Drops 2 not checked in:</strong> Cy, Dee" in shown.get_data(as_text=True)
    assert not any(p.dropped for p in _players(t).values())
    digest = re.search(r'name="plan" value="([0-9a-f]+)"', shown.get_data(as_text=True)).group(1)
    assert client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1, "plan": digest}).status_code == 303
    p = _players(t)
    assert [p[n].dropped for n in ("Ana", "Ben", "Cy", "Dee")] == [False, False, True, True]
    assert set(db.session.scalars(sa.select(Seat.player_id))) == {p["Ana"].id, p["Ben"].id}


def test_left_to_the_to_the_no_shows_are_paired_and_a_second_day_has_its_own_roll_call(app, client, login, make_user,
                                                                                       make_tournament):
    t = _full_event(make_user, make_tournament, login, client, cap=10, names=("Ana", "Ben", "Cy", "Dee"))
    _roll_call(client, t, closes_in="0", no_shows="decide")
    rounds_service.pair_next_round(t, 1)
    assert db.session.scalar(sa.select(sa.func.count(Seat.id))) == 4
    assert "its roll call is over" in client.get(f"/tournaments/{t.id}/check-in").get_data(as_text=True)
    r = client.post(f"/tournaments/{t.id}/check-in/next", follow_redirects=True).get_data(as_text=True)
    assert "Roll call before round 2 started" in r
    settings = db.session.get(CheckInSettings, t.id)
    db.session.refresh(settings)
    assert (settings.enabled, settings.round, settings.deadline) == (True, 2, None)
    ana = _players(t)["Ana"]
    assert "Check in for round 2" in _page(app.test_client(), t, ana)


def test_settings_refuse_a_bad_deadline_and_change_nothing(app, client, login, make_user, make_tournament):
    t = make_tournament(make_user())
    login()
    r = client.post(f"/tournaments/{t.id}/check-in/settings", data={"enabled": "y", "no_shows": "drop",
                                                                    "closes_in": "-5"})
    assert r.status_code == 422 and db.session.get(CheckInSettings, t.id) is None
    r = client.post(f"/tournaments/{t.id}/check-in/settings", data={"enabled": "y", "no_shows": "sometimes"})
    assert r.status_code == 422 and db.session.get(CheckInSettings, t.id) is None


def _restore(client, doc):
    import io
    import json
    return client.post("/tournaments/restore", data={"file": (io.BytesIO(json.dumps(doc).encode()), "backup.json")},
                       content_type="multipart/form-data")


def test_check_ins_and_the_waitlist_travel_in_the_backup(app, client, login, make_user, make_tournament):
    from app.models import Tournament
    from app.services.event_files import backup as backup_service

    t = _full_event(make_user, make_tournament, login, client, cap=2, names=("Ana", "Ben", "Cy", "Dee", "Eve"))
    _roll_call(client, t, waitlist="y", closes_in="30")
    p = _players(t)
    client.post(f"/tournaments/{t.id}/check-in/{p['Ana'].id}")
    client.post(f"/tournaments/{t.id}/check-in/{p['Cy'].id}")  # Cy checks in while she waits
    client.post(f"/tournaments/{t.id}/players/{p['Ben'].id}/drop")  # Cy (here) moves in; Dee and Eve wait
    first = backup_service.backup(t)
    carried = first["check_in"]
    assert carried["settings"]["waitlist"] and carried["settings"]["deadline"]
    assert [(w["player"], w["promoted_at"] is not None) for w in carried["waitlist"]] == [(3, True), (4, False),
                                                                                         (5, False)]
    assert [c["player"] for c in carried["check_ins"]] == [1, 3]  # Cy's, made while waiting, carried over
    assert _restore(client, first).status_code in (302, 303)
    copy = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    second = backup_service.backup(copy)
    assert second["check_in"] == carried
    # the copy's waitlist works: Eve is second in line there too
    eve = db.session.scalars(sa.select(Player).filter_by(tournament_id=copy.id, name="Eve")).one()
    assert "Waitlist position 2" in _page(app.test_client(), copy, eve)
    # absent (an older backup): off, nobody waiting, restored all the same
    older = dict(first)
    older.pop("check_in")
    older["tournament"] = dict(first["tournament"], slug="older")
    assert _restore(client, older).status_code in (302, 303)


def test_a_backup_whose_check_in_contradicts_itself_is_refused_whole(app, client, login, make_user, make_tournament):
    import copy as copying

    from app.models import Tournament
    from app.services.event_files import backup as backup_service

    t = _full_event(make_user, make_tournament, login, client, cap=1, names=("Ana", "Ben", "Cy"))
    client.post(f"/tournaments/{t.id}/check-in/settings", data={"enabled": "y", "no_shows": "drop", "waitlist": "y"})
    client.post(f"/tournaments/{t.id}/check-in/{_players(t)['Ana'].id}")
    good = backup_service.backup(t)
    bad = []
    for change in (lambda d: d["players"][2].update(dropped=False),  # waiting yet in
                   lambda d: d["check_in"]["waitlist"][0].update(player=99),
                   lambda d: d["check_in"]["waitlist"][1].update(position=d["check_in"]["waitlist"][0]["position"]),
                   lambda d: d["check_in"]["check_ins"].append(dict(d["check_in"]["check_ins"][0])),
                   lambda d: d["check_in"]["settings"].update(no_shows="sometimes"),
                   lambda d: d["check_in"]["settings"].update(round=0),
                   lambda d: d["check_in"].update(waitlist="all")):
        doc = copying.deepcopy(good)
        change(doc)
        r = _restore(client, doc)
        if r.status_code != 400:
            bad.append(r.status_code)
    assert not bad
    assert db.session.scalar(sa.select(sa.func.count(Tournament.id))) == 1


def test_the_player_list_marks_the_waitlist_in_order(app, client, login, make_user, make_tournament):
    t = _full_event(make_user, make_tournament, login, client, cap=1, names=("Ana", "Ben", "Cy"))
    page = client.get(f"/tournaments/{t.id}/players").get_data(as_text=True)
    assert "waitlist 1" in page and "waitlist 2" in page and ">dropped<" not in page and "Let in" in page


def test_the_roll_call_poll_answers_304_until_something_changes(app, client, login, make_user, make_tournament):
    t = _full_event(make_user, make_tournament, login, client, cap=5, names=("Ana", "Ben"))
    _roll_call(client, t)
    first = client.get(f"/tournaments/{t.id}/check-in/live")
    assert first.status_code == 200 and 'data-names="ana"' in first.get_json()["rows"]
    etag = first.headers["ETag"]
    assert client.get(f"/tournaments/{t.id}/check-in/live", headers={"If-None-Match": etag}).status_code == 304
    ana = _players(t)["Ana"]
    app.test_client().post(f"/t/{t.slug}/p/{player_links.token(ana)}/check-in")
    again = client.get(f"/tournaments/{t.id}/check-in/live", headers={"If-None-Match": etag})
    assert again.status_code == 200 and "checked in ✓ (phone)" in again.get_json()["rows"]


def test_the_dashboard_counts_the_roll_call_and_the_waitlist(app, client, login, make_user, make_tournament):
    t = _full_event(make_user, make_tournament, login, client, cap=2, names=("Ana", "Ben", "Cy"))
    _roll_call(client, t, waitlist="y")
    client.post(f"/tournaments/{t.id}/check-in/{_players(t)['Ana'].id}")
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert ("before round 1: <strong>1</strong> checked in, <strong>1</strong> not yet; <strong>1</strong> on the "
            "waitlist") in page


def test_a_player_let_in_after_the_deadline_checks_in_from_their_phone(app, client, login, make_user,
                                                                       make_tournament):
    t = _full_event(make_user, make_tournament, login, client, cap=2, names=("Ana", "Ben", "Cy"))
    _roll_call(client, t, waitlist="y", closes_in="0")
    p = _players(t)
    client.post(f"/tournaments/{t.id}/check-in/{p['Ana'].id}")
    client.post(f"/tournaments/{t.id}/check-in/no-shows")  # Ben out; Cy, absent, keeps her place in line
    assert _players(t)["Cy"].dropped
    client.post(f"/tournaments/{t.id}/check-in/waitlist/{p['Cy'].id}/admit")  # the TO lets her in after it
    phone = app.test_client()
    page = _page(phone, t, p["Cy"])
    assert "You are in" in page and "I am here: check me in" in page
    phone.post(f"/t/{t.slug}/p/{player_links.token(p['Cy'])}/check-in")
    assert "Checked in for round 1" in _page(phone, t, p["Cy"])
    rounds_service.pair_next_round(t, 1)  # past the deadline: nobody left to drop
    assert set(db.session.scalars(sa.select(Seat.player_id))) == {p["Ana"].id, p["Cy"].id}


def test_an_open_page_learns_that_the_deadline_passed(app, client, login, make_user, make_tournament, monkeypatch):
    from datetime import timedelta

    from app.models import utcnow
    from app.services.players import player_page

    t = _full_event(make_user, make_tournament, login, client, cap=5, names=("Ana",))
    _roll_call(client, t, closes_in="30")
    ana = _players(t)["Ana"]
    before = player_page.version(t.slug, ana.id)
    assert player_page.version(t.slug, ana.id) == before  # nothing changed: the same tag (a 304)
    later = utcnow() + timedelta(minutes=31)
    monkeypatch.setattr(player_page, "utcnow", lambda: later)  # the deadline's row as it was, the clock on
    assert player_page.version(t.slug, ana.id) != before

"""The round timer through its routes: every action, refusals with a message and no change, bad input,
authorization, the ETag'd status phones poll, the API, and two devices pressing at once."""
from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Round, Tournament, as_utc
from app.services.swiss import timer as service
from tests.web.views.test_rounds import pair, report_all, setup_event

HUGE = "9" * 30


@pytest.fixture
def event(make_user, make_tournament, login):
    """Round 1 paired and published; the TO's client, the tournament."""
    to, t, _ = setup_event(make_user, make_tournament, login, n=6, name="Timer Open")
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    return to, t


def url(t, action=None, number=1):
    return f"/tournaments/{t.id}/rounds/{number}/timer" + (f"/{action}" if action else "")


def row(t, number=1):
    """(state, ends_at as aware UTC, remaining_ms) fresh from the database."""
    db.session.expire_all()
    r = db.session.execute(sa.select(Round.timer_state, Round.timer_ends_at, Round.timer_remaining_ms)
                           .filter_by(tournament_id=t.id, number=number)).one()
    return r[0], as_utc(r[1]), r[2]


def flashed(client) -> list[str]:
    with client.session_transaction() as s:
        return [m for _, m in s.get("_flashes", [])]


def now():
    return datetime.now(timezone.utc)


def test_start_pause_resume_adjust_call(event):
    to, t = event
    before = now()
    r = to.post(url(t, "start"), data={"minutes": "65"})
    assert r.status_code == 303 and r.location.endswith(url(t))
    state, ends_at, left = row(t)
    assert state == "running" and left is None
    assert before + timedelta(minutes=65) <= ends_at <= now() + timedelta(minutes=65)

    to.post(url(t, "pause"))
    state, ends_at, left = row(t)
    assert (state, ends_at) == ("paused", None) and 64 * 60_000 < left <= 65 * 60_000

    to.post(url(t, "adjust"), data={"minutes": "5"})
    assert row(t)[2] == left + 5 * 60_000
    to.post(url(t, "adjust"), data={"minutes": "-2"})
    assert row(t)[2] == left + 3 * 60_000

    to.post(url(t, "resume"))
    state, ends_at, _ = row(t)
    assert state == "running"
    assert abs((ends_at - now()).total_seconds() - (left + 3 * 60_000) / 1000) < 5

    r = to.post(url(t, "call"), data={"back": "round"})
    assert r.location.endswith("/tournaments/%d/rounds/1#timer" % t.id)
    assert row(t) == ("called", None, None)
    page = to.get(url(t)).get_data(as_text=True)
    assert "Time has been called" in page and "Start the timer again" in page


def test_start_uses_the_events_round_length(event):
    to, t = event
    r = to.post(f"/tournaments/{t.id}/edit", data={"name": t.name, "date": "2026-05-01", "format": "single",
                                                    "score_factor": "3/2", "round_minutes": "40"})
    assert r.status_code in (302, 303)
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).round_minutes == 40
    assert 'value="40"' in to.get(url(t)).get_data(as_text=True)
    to.post(url(t, "start"))  # no minutes: the event's length
    assert abs((row(t)[1] - now()).total_seconds() - 40 * 60) < 5


@pytest.mark.parametrize("value", ["0", "601", "-1", "abc", HUGE, "1.5", "x" * 5000])
def test_settings_refuse_a_bad_round_length(event, value):
    to, t = event
    r = to.post(f"/tournaments/{t.id}/edit", data={"name": t.name, "date": "2026-05-01", "format": "single",
                                                    "score_factor": "3/2", "round_minutes": value})
    assert r.status_code == 422
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).round_minutes == 65


@pytest.mark.parametrize("steps, action, message", [
    ([], "pause", "Only a running timer can be paused."),
    ([], "resume", "Only a paused timer can be resumed."),
    ([], "call", "The timer is not running."),
    ([], "adjust", "Start the timer before adding or removing minutes."),
    (["start"], "start", "The timer is already running."),
    (["start", "pause"], "start", "The timer is paused"),
    (["start", "call"], "call", "Time has been called already."),
])
def test_refused_actions_flash_a_message_and_change_nothing(event, steps, action, message):
    to, t = event
    for step in steps:
        to.post(url(t, step))
    flashed(to)
    before = row(t)
    r = to.post(url(t, action), data={"minutes": "3"})
    assert r.status_code == 303
    assert row(t) == before
    assert any(message in m for m in flashed(to))


@pytest.mark.parametrize("action, minutes", [
    ("start", "0"), ("start", "601"), ("start", "-5"), ("start", "abc"), ("start", HUGE), ("start", "2.5"),
    ("adjust", ""), ("adjust", "0"), ("adjust", "abc"), ("adjust", HUGE), ("adjust", "-601"), ("adjust", "x" * 5000),
])
def test_bad_minutes(event, action, minutes):
    to, t = event
    if action == "adjust":
        to.post(url(t, "start"))
    flashed(to)
    before = row(t)
    r = to.post(url(t, action), data={"minutes": minutes})
    assert r.status_code == 303
    assert row(t) == before
    assert flashed(to)


def test_rounds_without_a_working_timer(event):
    to, t = event
    # a round that does not exist (not paired yet, or never): a 404 that says so
    for number in (2, 99, 2**31 - 1):
        for action in ("start", "pause", "resume", "adjust", "call"):
            r = to.post(url(t, action, number), data={"minutes": "5"})
            assert r.status_code == 404, (number, action)
        assert to.get(url(t, number=number)).status_code == 404
    assert "There is no round 2" in to.post(url(t, "start", 2)).get_data(as_text=True)
    assert to.post(url(t, "start", 2**40)).status_code == 404
    # round 2 paired but not published: players could not see it
    report_all(to, t, 1)
    pair(to, t, 2)
    flashed(to)
    to.post(url(t, "start", 2))
    assert row(t, 2) == (None, None, None)
    assert any("Publish round 2 first" in m for m in flashed(to))
    # round 1 is over
    to.post(url(t, "start", 1))
    assert row(t, 1) == (None, None, None)
    assert any("Round 1 is over" in m for m in flashed(to))


def test_timer_pages_need_the_event_s_staff(event, make_user, app):
    to, t = event
    to.post(url(t, "start"))
    before = row(t)
    make_user("mallory@example.com", "mallory password")
    anon = app.test_client()
    mallory = app.test_client()
    r = mallory.post("/login", data={"email": "mallory@example.com", "password": "mallory password"})
    assert r.status_code in (302, 303)
    for action in ("start", "pause", "resume", "adjust", "call"):
        r = anon.post(url(t, action), data={"minutes": "5"})
        assert r.status_code in (302, 303) and "/login" in r.location
        assert mallory.post(url(t, action), data={"minutes": "5"}).status_code == 403
    for path in (url(t), f"/tournaments/{t.id}/timer", f"/tournaments/{t.id}/rounds/1/by-name",
                 f"/tournaments/{t.id}/rounds/1/slips"):
        r = anon.get(path)
        assert r.status_code in (302, 303) and "/login" in r.location, path
        assert mallory.get(path).status_code == 403, path
    assert row(t) == before


def test_current_timer_link(event, make_user, make_tournament, login):
    to, t = event
    assert to.get(f"/tournaments/{t.id}/timer").location.endswith(url(t))
    empty = make_tournament(db.session.get(Tournament, t.id).owner, name="Empty")
    r = to.get(f"/tournaments/{empty.id}/timer")
    assert r.status_code == 303 and r.location.endswith(f"/tournaments/{empty.id}")


def test_status_carries_the_timer_with_an_etag(event, app):
    to, t = event
    anon = app.test_client()
    first = anon.get(f"/t/{t.slug}/status.json")
    assert first.get_json()["timer"] is None and first.headers["ETag"]
    to.post(url(t, "start"))
    running = anon.get(f"/t/{t.slug}/status.json")
    timer = running.get_json()["timer"]
    assert timer["round"] == 1 and timer["state"] == "running" and timer["ends_at"].endswith("Z")
    assert datetime.fromisoformat(timer["ends_at"].replace("Z", "+00:00")) == row(t)[1].replace(
        microsecond=row(t)[1].microsecond // 1000 * 1000)
    assert running.headers["ETag"] != first.headers["ETag"]
    # while the clock merely ticks, the answer is unchanged: 304, with the server's time
    again = anon.get(f"/t/{t.slug}/status.json", headers={"If-None-Match": running.headers["ETag"]})
    assert again.status_code == 304 and not again.data
    server_ms = int(again.headers["X-Server-Time"])
    assert abs(server_ms / 1000 - now().timestamp()) < 5
    # a pause changes it at once
    to.post(url(t, "pause"))
    paused = anon.get(f"/t/{t.slug}/status.json", headers={"If-None-Match": running.headers["ETag"]})
    assert paused.status_code == 200
    assert paused.get_json()["timer"] == {"round": 1, "state": "paused", "remaining_ms": row(t)[2]}
    # the pairings page draws the countdown for the browser to take over
    page = anon.get(f"/t/{t.slug}/pairings").get_data(as_text=True)
    assert 'data-state="paused"' in page and f'data-remaining-ms="{row(t)[2]}"' in page
    assert "countdown.js" in page


def test_api_timer(event, app):
    to, t = event
    anon = app.test_client()
    assert anon.get(f"/api/tournaments/{t.slug}").get_json()["timer"] is None
    to.post(url(t, "start"), data={"minutes": "65"})
    timer = anon.get(f"/api/tournaments/{t.slug}").get_json()["timer"]
    assert timer["state"] == "running" and 65 * 60 - 5 <= timer["remaining_seconds"] <= 65 * 60
    assert datetime.fromisoformat(timer["ends_at"].replace("Z", "+00:00")) - now() > timedelta(minutes=64)
    to.post(url(t, "pause"))
    timer = anon.get(f"/api/tournaments/{t.slug}").get_json()["timer"]
    assert timer == {"state": "paused", "remaining_seconds": -(-row(t)[2] // 1000)}
    to.post(url(t, "call"))
    assert anon.get(f"/api/tournaments/{t.slug}").get_json()["timer"] == {"state": "called", "remaining_seconds": 0}


def test_the_database_refuses_an_inconsistent_timer(event):
    _, t = event
    tid = t.id
    for values in ({"timer_state": "running"}, {"timer_state": "paused", "timer_remaining_ms": -1},
                   {"timer_state": "bogus"}, {"timer_remaining_ms": 5}):
        with pytest.raises(sa.exc.IntegrityError):
            done = db.session.execute(sa.update(Round).filter_by(tournament_id=tid, number=1).values(**values))
            assert done.rowcount == 1, values
            db.session.flush()
        db.session.rollback()


def test_two_devices_pressing_at_once(event, app):
    """Eight staff devices press 'add a minute' together: each press either lands or is told the timer changed;
    the row always holds one consistent clock, and exactly the landed presses were added."""
    to, t = event
    to.post(url(t, "start"), data={"minutes": "10"})
    to.post(url(t, "pause"))
    left = row(t)[2]
    tid = t.id
    barrier = threading.Barrier(8)
    outcomes = []

    def press():
        with app.app_context():
            tournament = db.session.get(Tournament, tid)
            barrier.wait()
            try:
                service.act(tournament, 1, "adjust", 1)
                outcomes.append("ok")
            except service.TimerError as e:
                outcomes.append(str(e))
            finally:
                db.session.remove()

    threads = [threading.Thread(target=press) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert len(outcomes) == 8
    landed = outcomes.count("ok")
    assert landed >= 1
    assert all(o == "ok" or "another device" in o for o in outcomes)
    assert row(t) == ("paused", None, left + landed * 60_000)

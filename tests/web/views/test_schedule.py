"""The schedule through its routes: the TO's plan (the standard day, a saved plan, refusals that change nothing),
the "Next:" line on the public home, pairings and player pages moving with the real rounds, the public page, the
API, the backup, and a two-day event that stays current on day 2."""
from __future__ import annotations

import copy
import html
import io
import json
import re
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Round, ScheduleDay, ScheduleItem, Tournament, as_utc
from app.services.event_files import backup as backup_service
from app.services import next_step
from app.services.players import player_links
from tests.web.views.test_rounds import pair, report_all, setup_event

BERLIN = ZoneInfo("Europe/Berlin")
DAY = date.today() + timedelta(days=30)


def plan_form(day=DAY, start="10:00", zone="Europe/Berlin", items=(), days=()):
    """The schedule form as a browser posts it: day 1 (and `days` more), then items (kind, minutes, label, day)."""
    data = {"time_zone": zone, "days-0-date": day.isoformat(), "days-0-start": start, "days-0-turnaround": "10"}
    for i, (d, s) in enumerate(days, 1):
        data.update({f"days-{i}-date": d.isoformat(), f"days-{i}-start": s, f"days-{i}-turnaround": "10"})
    for i, (kind, minutes, label, dayno) in enumerate(items):
        data.update({f"items-{i}-order": str(10 * (i + 1)), f"items-{i}-day": str(dayno), f"items-{i}-kind": kind,
                     f"items-{i}-minutes": str(minutes), f"items-{i}-label": label})
    return data


FOUR = [("round", 60, "", 1), ("round", 60, "", 1), ("break", 30, "Lunch", 1), ("round", 60, "", 1)]


def text(response) -> str:
    """The page's words, tags left out."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def rows(t):
    db.session.expire_all()
    return (db.session.scalars(sa.select(ScheduleDay).filter_by(tournament_id=t.id)).all(),
            db.session.scalars(sa.select(ScheduleItem).filter_by(tournament_id=t.id)
                               .order_by(ScheduleItem.position)).all())


@pytest.fixture
def event(make_user, make_tournament, login):
    to, t, players = setup_event(make_user, make_tournament, login, n=6, name="Schedule Open", date=DAY)
    return to, t, players


def test_a_saved_plan_is_stored_in_utc_and_shown_in_local_time(event, client):
    to, t, _ = event
    r = to.post(f"/tournaments/{t.id}/schedule", data=plan_form(items=FOUR))
    assert r.status_code == 303, text(r)[-800:]
    days, items = rows(t)
    start = datetime.combine(DAY, datetime.min.time().replace(hour=10), tzinfo=BERLIN)
    assert [as_utc(d.starts_at) for d in days] == [start.astimezone(timezone.utc)]
    assert [(i.kind, i.minutes, i.label) for i in items] == [("round", 60, ""), ("round", 60, ""),
                                                            ("break", 30, "Lunch"), ("round", 60, "")]
    assert db.session.get(Tournament, t.id).time_zone == "Europe/Berlin"
    page = text(client.get(f"/t/{t.slug}"))
    weekday = start.strftime("%A")
    assert f"Next: round 1 at about {weekday} 10:00" in page
    assert "Round 3" in page and "12:10–12:40" in page  # lunch: 10:00 + 60 + 10 + 60
    assert f"Next: round 1 at about {weekday} 10:00" in text(client.get(f"/t/{t.slug}/pairings"))
    api = client.get(f"/api/tournaments/{t.slug}/schedule").get_json()
    assert api["time_zone"] == "Europe/Berlin" and api["next"] == {"kind": "item", "at": api["items"][0]["start"],
                                                                    "item": 0}
    assert api["items"][0]["planned_start"] == start.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    assert [i["round"] for i in api["items"]] == [1, 2, None, 3]
    assert client.get(f"/api/tournaments/{t.slug}").get_json()["links"]["schedule"].endswith("/schedule")
    assert "Day 1" in text(client.get(f"/t/{t.slug}/schedule"))


@pytest.mark.parametrize("change, message", [
    ({"days-0-start": ""}, "Give the day's date and start."),
    ({"time_zone": "Mars/Olympus"}, "Not a valid choice"),
    ({"items-0-kind": "cut"}, "Swiss rounds come before the top cut."),
    ({"items-2-minutes": ""}, "How long does it last?"),
    ({"items-1-day": "2"}, "There is no day 2."),
    ({"items-1-minutes": "601"}, "From 1 to 600 minutes."),
])
def test_a_bad_plan_is_refused_and_changes_nothing(event, change, message):
    to, t, _ = event
    assert to.post(f"/tournaments/{t.id}/schedule", data=plan_form(items=FOUR)).status_code == 303
    before = [(i.kind, i.minutes) for i in rows(t)[1]]
    r = to.post(f"/tournaments/{t.id}/schedule", data={**plan_form(items=FOUR), **change})
    assert r.status_code == 422 and message in text(r)
    assert [(i.kind, i.minutes) for i in rows(t)[1]] == before


def test_the_standard_day_and_clearing(event):
    to, t, _ = event
    db.session.get(Tournament, t.id).planned_rounds = 5
    db.session.commit()
    assert to.post(f"/tournaments/{t.id}/schedule/standard").status_code == 303
    items = rows(t)[1]
    assert [i.kind for i in items] == ["round"] * 3 + ["break"] + ["round"] * 2
    assert to.post(f"/tournaments/{t.id}/schedule/standard").status_code == 303  # refused over a plan
    assert len(rows(t)[1]) == 6
    assert "Fill in a standard day" not in text(to.get(f"/tournaments/{t.id}/schedule"))
    assert to.post(f"/tournaments/{t.id}/schedule/clear").status_code == 303
    assert rows(t) == ([], [])


def test_the_real_rounds_move_the_estimate(event, client):
    to, t, players = event
    today = datetime.now(BERLIN).date()
    early = (datetime.now(BERLIN) - timedelta(hours=3)).strftime("%H:%M")
    if datetime.now(BERLIN).hour < 3:
        pytest.skip("the plan would start yesterday")
    assert to.post(f"/tournaments/{t.id}/schedule", data=plan_form(day=today, start=early, items=FOUR)).status_code == 303
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    db.session.expire_all()
    r1 = db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id, number=1)).one()
    assert r1.started_at is not None  # published: play begins
    to.post(f"/tournaments/{t.id}/rounds/1/timer/start", data={"minutes": "60"})
    db.session.expire_all()
    r1 = db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id, number=1)).one()
    ends = as_utc(r1.timer_ends_at)
    assert abs(as_utc(r1.started_at) + timedelta(minutes=60) - ends) < timedelta(seconds=1)
    expected = (ends + timedelta(minutes=10)).astimezone(BERLIN)
    page = text(client.get(f"/t/{t.slug}"))
    # round 2 follows the real round 1 (3 hours late), not the plan; the page says it to the minute, rounded up
    # (after midnight in Berlin the line names the day too: "at about Saturday 00:13")
    said = [f"{(expected + timedelta(minutes=k)):%H:%M}" for k in (0, 1)]

    def names_it(shown: str) -> bool:
        return any(re.search(rf"Next: round 2 at about (?:[A-Z][a-z]+day )?{s}\b", shown) for s in said)

    assert names_it(page), page[:1500]
    phone = client.application.test_client()
    mine = text(phone.get(f"/t/{t.slug}/p/{player_links.token(players[0])}", follow_redirects=True))
    assert names_it(mine), mine[:1500]
    assert names_it(text(client.get(f"/t/{t.slug}/pairings")))
    report_all(to, t, 1)
    api = client.get(f"/api/tournaments/{t.slug}/schedule").get_json()
    assert api["items"][0]["state"] == "done" and api["items"][1]["state"] == "coming"


def test_a_two_day_event_is_current_on_day_two(event):
    to, t, _ = event
    day2 = DAY + timedelta(days=1)
    r = to.post(f"/tournaments/{t.id}/schedule", data=plan_form(
        items=[("round", 60, "", 1), ("cut", 180, "Top 8", 2)], days=[(day2, "11:00")]))
    assert r.status_code == 303, text(r)[-600:]
    t = db.session.get(Tournament, t.id)
    t.planned_rounds = 1
    db.session.commit()
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    report_all(to, t, 1)
    db.session.expire_all()
    t = db.session.get(Tournament, t.id)
    assert next_step.event_over(t, day2) is False  # day 2 still to play: not over
    assert next_step.event_over(t, day2 + timedelta(days=1)) is True
    page = text(to.get(f"/t/{t.slug}"))
    assert f"Day 2 starts {day2:%A} 11:00" in page


def test_the_schedule_travels_in_the_backup(event, client, login):
    to, t, _ = event
    to.post(f"/tournaments/{t.id}/schedule", data=plan_form(items=FOUR))
    doc = backup_service.backup(db.session.get(Tournament, t.id))
    assert doc["schedule"]["time_zone"] == "Europe/Berlin" and len(doc["schedule"]["items"]) == 4

    def restore(d):
        payload = json.dumps(d).encode()
        return to.post("/tournaments/restore", data={"file": (io.BytesIO(payload), "backup.json")},
                       content_type="multipart/form-data")

    bad = copy.deepcopy(doc)
    bad["schedule"]["items"][0]["kind"] = "nap"
    bad2 = copy.deepcopy(doc)
    bad2["schedule"]["time_zone"] = "Mars/Olympus"
    for broken, said in ((bad, "Schedule item 1 kind should be one of"), (bad2, "is not a time zone")):
        r = restore(broken)
        assert r.status_code == 400 and said in text(r), text(r)[-500:]
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == 1
    assert restore(doc).status_code in (302, 303)
    copy_t = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    again = backup_service.backup(copy_t)
    assert again["schedule"] == doc["schedule"]
    absent = copy.deepcopy(doc)
    del absent["schedule"]
    assert restore(absent).status_code in (302, 303)
    newest = db.session.scalars(sa.select(Tournament).order_by(Tournament.id.desc())).first()
    assert newest.time_zone == "UTC" and rows(newest) == ([], [])


def test_a_two_day_event_stays_on_the_front_page_and_the_list_on_day_two(event, client):
    to, t, _ = event
    today = datetime.now(BERLIN).date()
    r = to.post(f"/tournaments/{t.id}/schedule", data=plan_form(
        day=today - timedelta(days=1), items=[("round", 60, "", 1), ("round", 60, "", 2)], days=[(today, "09:00")]))
    assert r.status_code == 303, text(r)[-600:]
    assert "On now" not in text(client.get("/"))  # no published round yet: not listed
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    assert "On now Schedule Open day 2 of 2" in text(client.get("/"))
    assert "Schedule Open on now: day 2 of 2" in text(to.get("/tournaments"))
    other = to.post(f"/tournaments/{t.id}/schedule", data=plan_form(day=today + timedelta(days=3),
                                                                    items=[("round", 60, "", 1)]))
    assert other.status_code == 303
    assert "On now" not in text(client.get("/")) and "on now" not in text(to.get("/tournaments"))


@pytest.mark.parametrize("junk", [
    {"items-0-day": "abc"}, {"items-0-order": "-5"}, {"items-0-minutes": "9" * 30}, {"days-0-date": "2026-02-30"},
    {"days-0-start": "25:99"}, {"days-0-turnaround": "121"}, {"items-0-kind": "nap"}, {"items-99999-kind": "round"},
    {"items-0-label": "x" * 61}, {"days-0-remove": "y"}, {"time_zone": ""},
])
def test_junk_is_a_form_error_never_a_500(event, junk):
    to, t, _ = event
    r = to.post(f"/tournaments/{t.id}/schedule", data={**plan_form(items=FOUR), **junk})
    assert r.status_code in (303, 422), r.status_code
    if r.status_code == 303:  # accepted: the junk was an extra row past the form's end, or a removed day
        assert junk.keys() & {"items-99999-kind", "days-0-remove"}


@pytest.mark.slow
def test_the_browsers_zone_is_offered_only_while_the_to_never_chose_one(event):
    """Default zone and no plan: the select and the standard day's hidden field carry data-browser-zone and the
    page loads static/schedule_zone.js; a chosen zone, or a saved plan, turns the offer off."""
    to, t, _ = event
    page = to.get(f"/tournaments/{t.id}/schedule").get_data(as_text=True)
    assert re.search(r'<select[^>]*data-browser-zone[^>]*id="time_zone"|<select[^>]*id="time_zone"[^>]*data-browser-zone',
                     page)
    assert 'name="time_zone" value="" data-browser-zone' in page and "schedule_zone.js" in page
    db.session.get(Tournament, t.id).time_zone = "Europe/Berlin"
    db.session.commit()
    page = to.get(f"/tournaments/{t.id}/schedule").get_data(as_text=True)
    assert "data-browser-zone" not in page and "schedule_zone.js" not in page
    # the TO saved a plan in UTC on purpose: UTC is their choice, no offer either
    db.session.get(Tournament, t.id).time_zone = "UTC"
    db.session.commit()
    assert to.post(f"/tournaments/{t.id}/schedule", data=plan_form(items=FOUR, zone="UTC")).status_code == 303
    assert "data-browser-zone" not in to.get(f"/tournaments/{t.id}/schedule").get_data(as_text=True)


def test_the_standard_day_takes_the_browsers_zone_checked_and_says_it_saved(event):
    to, t, _ = event
    r = to.post(f"/tournaments/{t.id}/schedule/standard", data={"time_zone": "Mars/Olympus"}, follow_redirects=True)
    assert "Pick a time zone from the list." in text(r) and rows(t) == ([], [])
    assert db.session.get(Tournament, t.id).time_zone == "UTC"
    r = to.post(f"/tournaments/{t.id}/schedule/standard", data={"time_zone": "Europe/Paris"}, follow_redirects=True)
    assert "Filled in a standard day: saved, times in Europe/Paris." in text(r)
    days, _ = rows(t)
    assert db.session.get(Tournament, t.id).time_zone == "Europe/Paris"
    assert as_utc(days[0].starts_at).astimezone(ZoneInfo("Europe/Paris")).strftime("%H:%M") == "10:00"
    assert re.search(r"<option selected value=\"Europe/Paris\"|<option value=\"Europe/Paris\" selected", r.get_data(as_text=True))


def test_a_chosen_zone_is_kept_whatever_the_browser_says(event):
    to, t, _ = event
    db.session.get(Tournament, t.id).time_zone = "Europe/Berlin"
    db.session.commit()
    to.post(f"/tournaments/{t.id}/schedule/standard", data={"time_zone": "America/New_York"})
    days, _ = rows(t)
    assert db.session.get(Tournament, t.id).time_zone == "Europe/Berlin"
    assert as_utc(days[0].starts_at).astimezone(BERLIN).strftime("%H:%M") == "10:00"

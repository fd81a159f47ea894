"""Event groups through their routes: make one, add only one's own events (not another's, not one where one is
staff, not one in another group), order, take out, rename and readdress; the public page (each event's state, the
QR code); and this browser's entries, asked of each event with that event's own cookie."""
from __future__ import annotations

import pytest
import json
import re

import sqlalchemy as sa

from app.extensions import db
from app.models import EventGroup, EventGroupMember, Player, Staff
from app.services import groups as service
from app.services.players import player_links
from app.services import cut as cut_service
from cut_helpers import play_cut
from tests.web.views.test_rounds import pair, report_all, setup_event


def _members(group_id):
    db.session.expire_all()
    return [m.tournament_id for m in db.session.scalars(
        sa.select(EventGroupMember).filter_by(group_id=group_id)
        .order_by(EventGroupMember.position, EventGroupMember.id))]


def _group(to, name="Worlds Weekend", slug="worlds-2026"):
    r = to.post("/groups", data={"name": name, "slug": slug})
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    return db.session.scalars(sa.select(EventGroup).filter_by(slug=slug)).one()


def test_make_fill_order_and_readdress(make_user, make_tournament, login, client):
    to, main, _ = setup_event(make_user, make_tournament, login, n=4, name="Main Event")
    side = make_tournament(main.owner, name="Startup Side")
    eternal = make_tournament(main.owner, name="Sunday Eternal")
    group = _group(to)
    for t in (main, side, eternal):
        assert to.post(f"/groups/{group.id}/events", data={"tournament": t.id}).status_code == 303
    assert _members(group.id) == [main.id, side.id, eternal.id]


    # an event already in the group is refused, with the form's message
    r = to.post(f"/groups/{group.id}/events", data={"tournament": main.id})
    assert r.status_code == 422 and "already in a group" in r.get_data(as_text=True)

    to.post(f"/groups/{group.id}/events/{side.id}/remove")
    assert _members(group.id) == [main.id, eternal.id]
    assert to.post(f"/groups/{group.id}/events/{main.id}/move", data={"direction": "up"}).status_code == 404
    assert to.post(f"/groups/{group.id}/events/{side.id}/remove").status_code == 404

    for bad in ("a", "Has Spaces", "-dash", "x" * 41, "ünï"):
        r = to.post(f"/groups/{group.id}", data={"name": "Worlds", "slug": bad})
        assert r.status_code == 422, bad
    other = _group(to, "Another", "taken-one")
    r = to.post(f"/groups/{group.id}", data={"name": "Worlds", "slug": "taken-one"})
    assert r.status_code == 422 and "taken" in r.get_data(as_text=True)
    assert to.post(f"/groups/{group.id}", data={"name": "Worlds 26", "slug": "w26"}).status_code == 303
    db.session.expire_all()
    assert (group.name, group.slug) == ("Worlds 26", "w26")
    assert client.get("/g/worlds-2026").status_code == 404 and client.get("/g/w26").status_code == 200

    to.post(f"/groups/{other.id}/delete")
    assert db.session.get(EventGroup, other.id) is None
    assert "Worlds 26" in to.get("/groups").get_data(as_text=True)


def test_only_the_owners_own_events_join(make_user, make_tournament, login):
    to, mine, _ = setup_event(make_user, make_tournament, login, n=2, name="Mine")
    stranger = make_user("stranger@example.com")
    theirs = make_tournament(stranger, name="Theirs")
    staffed = make_tournament(stranger, name="Staffed")
    db.session.add(Staff(tournament_id=staffed.id, user_id=mine.owner_id, role="organizer"))
    db.session.commit()
    group = _group(to)
    for t in (theirs, staffed):
        r = to.post(f"/groups/{group.id}/events", data={"tournament": t.id})
        assert r.status_code == 422 and "Only your own events" in r.get_data(as_text=True)
    assert to.post(f"/groups/{group.id}/events", data={"tournament": 999999}).status_code == 422
    assert _members(group.id) == []
    page = to.get(f"/groups/{group.id}").get_data(as_text=True)
    assert "Mine" in page and "Theirs" not in page and "Staffed" not in page

    # an event in someone's group is not in another's, even its owner's second group (the database says so too)
    to.post(f"/groups/{group.id}/events", data={"tournament": mine.id})
    second = _group(to, "Second", "second")
    r = to.post(f"/groups/{second.id}/events", data={"tournament": mine.id})
    assert r.status_code == 422 and _members(second.id) == []
    try:
        db.session.add(EventGroupMember(group_id=second.id, tournament_id=mine.id, position=0))
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
    else:
        raise AssertionError("a second group took the event")


@pytest.mark.slow
def test_public_page_states_and_entries(make_user, make_tournament, login, client):
    to, main, players = setup_event(make_user, make_tournament, login, n=4, name="Main Event", planned_rounds=3)
    side = make_tournament(main.owner, name="Startup Side", registration_open=True)
    later = make_tournament(main.owner, name="Later Event")
    group = _group(to)
    for t in (main, side, later):
        to.post(f"/groups/{group.id}/events", data={"tournament": t.id})
    pair(to, main, 1)
    to.post(f"/tournaments/{main.id}/rounds/1/publish")

    page = client.get("/g/worlds-2026").get_data(as_text=True)
    assert re.findall(r'<h2 class="title"><a [^>]*>([^<]*)</a>', page) == ["Later Event", "Main Event",
                                                                           "Startup Side"]  # one day: by name
    assert "Round 1 of 3" in page and "Registration open" in page and "Not started" in page
    assert "<svg" in page and "/g/worlds-2026" in page  # the QR code and the address
    assert f'data-entry-url="/t/{main.slug}/entry.json"' in page
    assert 'id="your-entries"' in page and "hidden" in page  # filled by the browser only
    assert 'id="group-of"' in client.get(f"/t/{main.slug}").get_data(as_text=True)

    phone = client.application.test_client()
    # this phone: opened the main event's player link, then registered in the side event
    ann = players[0]
    assert phone.get(f"/t/{main.slug}/p/{player_links.token(ann)}").status_code in (200, 303)
    assert phone.post(f"/t/{side.slug}/register", data={"name": "Ann Side"}).status_code == 303
    entry = json.loads(phone.get(f"/t/{main.slug}/entry.json").data)
    assert ann.name in entry["entry"] and "table" in entry["entry"]
    assert "private" in phone.get(f"/t/{main.slug}/entry.json").headers["Cache-Control"]
    assert "Ann Side" in json.loads(phone.get(f"/t/{side.slug}/entry.json").data)["entry"]
    assert json.loads(phone.get(f"/t/{later.slug}/entry.json").data) == {}
    # another browser holds nothing; a forged cookie is not a player
    fresh = client.application.test_client()
    assert json.loads(fresh.get(f"/t/{main.slug}/entry.json").data) == {}
    fresh.set_cookie(f"sass_player_{main.slug}", "forged-token", path=f"/t/{main.slug}")
    assert json.loads(fresh.get(f"/t/{main.slug}/entry.json").data) == {}
    # the group page itself reads no player cookie: the same bytes with or without entries
    phone.get("/g/worlds-2026")  # shows the registration's flashed message, once
    strip = lambda html: re.sub(r'name="csrf_token"[^>]*>', "", html)  # noqa: E731
    assert strip(phone.get("/g/worlds-2026").get_data(as_text=True)) == strip(fresh.get("/g/worlds-2026")
                                                                                .get_data(as_text=True))

    # the states move on with the events
    report_all(to, main, 1)
    for number in (2, 3):
        pair(to, main, number)
        to.post(f"/tournaments/{main.id}/rounds/{number}/publish")
        report_all(to, main, number)
    page = client.get("/g/worlds-2026").get_data(as_text=True)
    states = lambda html: re.findall(r'<span class="badge">([^<]*)</span>', html)  # noqa: E731
    assert states(page) == ["Not started", "Finished", "Registration open"]  # 4 players: no cut recommended
    cut_service.create(main, 4, "single")
    assert states(client.get("/g/worlds-2026").get_data(as_text=True))[1] == "Top 4 cut, bracket round 1"
    play_cut(main, lambda game: game.higher_seed)
    champion = cut_service.progress(main).champion
    assert states(client.get("/g/worlds-2026").get_data(as_text=True))[1] == f"Finished: champion {champion}"


def test_event_line_states(make_user, make_tournament):
    owner = make_user()
    t = make_tournament(owner, name="Quiet")
    assert service.event_line(t).state == service.State.NOT_STARTED
    t.registration_open = True
    db.session.commit()
    assert service.event_line(t).label == "Registration open"
    assert db.session.scalar(sa.select(sa.func.count(Player.id))) == 0


def test_a_deleted_event_leaves_its_group(make_user, make_tournament, login, client):
    to, main, _ = setup_event(make_user, make_tournament, login, n=2, name="Main Event")
    side = make_tournament(main.owner, name="Side Event")
    group = _group(to)
    for t in (main, side):
        to.post(f"/groups/{group.id}/events", data={"tournament": t.id})
    side_id = side.id
    assert to.post(f"/tournaments/{side_id}/delete", data={"confirm": "y"}).status_code in (302, 303)
    assert _members(group.id) == [main.id]
    page = client.application.test_client().get("/g/worlds-2026").get_data(as_text=True)
    assert "Main Event" in page and "Side Event" not in page


def test_the_group_page_says_what_comes_next_in_each_event(make_user, make_tournament, login, client):
    """An event with a schedule shows its own 'Next:' line on the group page (one id per event); one without, none."""
    to, main, _players = setup_event(make_user, make_tournament, login, n=4, name="Main Event", planned_rounds=3)
    side = make_tournament(main.owner, name="Startup Side")
    group = _group(to)
    for t in (main, side):
        to.post(f"/groups/{group.id}/events", data={"tournament": t.id})
    assert to.post(f"/tournaments/{main.id}/schedule/standard").status_code == 303
    page = client.get("/g/worlds-2026").get_data(as_text=True)
    assert page.count('class="schedule-next"') == 1 and f'id="schedule-next-{main.id}"' in page
    line = re.search(r'id="schedule-next-\d+">(.*?)</p>', page, re.S).group(1)
    assert "Next:" in line and "round 1" in line


def test_a_group_lists_its_events_by_date_then_start_then_name(make_user, make_tournament, login, client):
    """Added in any order, the events are listed by date, then their schedule's start (events with one first),
    then name, on the public page and the organizer's."""
    from datetime import date, datetime, timezone
    from app.models import ScheduleDay
    to, sunday_main, _ = setup_event(make_user, make_tournament, login, n=2, name="Main Event",
                                     date=date(2026, 6, 7))
    owner = sunday_main.owner
    saturday_late = make_tournament(owner, name="A Saturday Eternal", date=date(2026, 6, 6))
    saturday_early = make_tournament(owner, name="Zed Startup", date=date(2026, 6, 6))
    saturday_plain = make_tournament(owner, name="B Draft", date=date(2026, 6, 6))
    friday = make_tournament(owner, name="Z Friday Night", date=date(2026, 6, 5))
    for t, hour in ((saturday_late, 14), (saturday_early, 9)):
        db.session.add(ScheduleDay(tournament_id=t.id, number=1, turnaround=10,
                                   starts_at=datetime(2026, 6, 6, hour, 0, tzinfo=timezone.utc)))
    db.session.commit()
    group = _group(to)
    for t in (sunday_main, saturday_late, saturday_plain, friday, saturday_early):
        to.post(f"/groups/{group.id}/events", data={"tournament": t.id})
    expected = ["Z Friday Night", "Zed Startup", "A Saturday Eternal", "B Draft", "Main Event"]
    page = client.get("/g/worlds-2026").get_data(as_text=True)
    titles = re.findall(r'<h2 class="title"><a [^>]*>([^<]*)</a>', page)
    assert titles == expected
    manage = to.get(f"/groups/{group.id}").get_data(as_text=True)
    assert re.findall(r'<a class="title" [^>]*>([^<]*)</a>', manage) == expected
    assert "Move" not in manage  # the order is the dates', no hand ordering to contradict it


def _entry_text(phone, t) -> str:
    entry = json.loads(phone.get(f"/t/{t.slug}/entry.json").data)["entry"]
    return " ".join(re.sub(r"<[^>]+>", " ", entry).split())


def test_a_finished_events_entry_says_the_final_place_not_the_last_table(make_user, make_tournament, login, client):
    """A side event's swiss is over with no cut to come: the group page's entry says "finished, place 2 of 4",
    never its last "table 1"; an event whose cut is decided says "champion" or the place; a running one, the
    table."""
    to, side, players = setup_event(make_user, make_tournament, login, n=4, name="Startup Side", planned_rounds=2)
    group = _group(to)
    to.post(f"/groups/{group.id}/events", data={"tournament": side.id})
    phone = client.application.test_client()
    ann = players[0]
    phone.get(f"/t/{side.slug}/p/{player_links.token(ann)}")
    pair(to, side, 1)
    to.post(f"/tournaments/{side.id}/rounds/1/publish")
    running = _entry_text(phone, side)
    assert "You: table" in running and "finished" not in running
    report_all(to, side, 1)
    pair(to, side, 2)
    to.post(f"/tournaments/{side.id}/rounds/2/publish")
    assert "You: table" in _entry_text(phone, side)  # the last round is still being played
    report_all(to, side, 2)
    done = _entry_text(phone, side)
    rows = service.results_standings.standings(side, published_only=True).rows
    rank = next(s.rank for s in rows if s.player == ann.id)
    assert f"You: finished, place {rank} of 4" in done and "table" not in done
    assert f'href="/t/{side.slug}/p/{player_links.token(ann)}"' in json.loads(
        phone.get(f"/t/{side.slug}/entry.json").data)["entry"]

    # a cut: running, the cut game (the player page's own words); decided, the final place
    cut_service.create(side, 4, "single")
    assert "finished" not in _entry_text(phone, side)
    play_cut(side, lambda game: game.higher_seed)
    final = next(r for r in cut_service.load(side).final_standings() if r["player"] == ann.id)
    decided = _entry_text(phone, side)
    assert ("You: champion" in decided) if final["champion"] else (f"place {final['rank']} of 4" in decided)
    assert "table" not in decided


def test_an_entry_gives_the_group_page_what_registering_elsewhere_starts_from(make_user, make_tournament, login,
                                                                              client):
    """entry.json hands this device's own name, identities and pronouns to the group page (private answer); the
    group's other events' registration forms are marked for the prefill; an event in no group is not."""
    to, main, players = setup_event(make_user, make_tournament, login, n=2, name="Main Event")
    side = make_tournament(main.owner, name="Startup Side", registration_open=True)
    alone = make_tournament(main.owner, name="Elsewhere", registration_open=True)
    ann = players[0]
    ann.corp_identity, ann.runner_identity, ann.pronouns = ("Haas-Bioroid: Precision Design",
                                                           "Hoshiko Shiro: Untold Protagonist", "she/her")
    db.session.commit()
    group = _group(to)
    for t in (main, side):
        to.post(f"/groups/{group.id}/events", data={"tournament": t.id})
    phone = client.application.test_client()
    phone.get(f"/t/{main.slug}/p/{player_links.token(ann)}")
    answer = json.loads(phone.get(f"/t/{main.slug}/entry.json").data)
    assert answer["profile"] == {"event": "Main Event", "name": ann.name,
                                 "corp_identity": "Haas-Bioroid: Precision Design",
                                 "runner_identity": "Hoshiko Shiro: Untold Protagonist", "pronouns": "she/her"}
    assert "profile" not in json.loads(client.application.test_client().get(f"/t/{main.slug}/entry.json").data)
    assert 'data-group="worlds-2026"' in phone.get("/g/worlds-2026").get_data(as_text=True)
    home = phone.get(f"/t/{side.slug}").get_data(as_text=True)
    assert 'id="register-form"' in home and 'data-group="worlds-2026"' in home
    assert "registration_prefill.js" in home
    assert "data-group" not in phone.get(f"/t/{alone.slug}").get_data(as_text=True)

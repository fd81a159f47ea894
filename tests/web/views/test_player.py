"""A player's own page follows the event without a reload (views/player.py: live): the opponent's report, a new
round, the cut and the final place change the digests of its parts, the parts come drawn as the page draws them,
and an unchanged event answers 304."""
from __future__ import annotations

import pytest
import html
import random
import re

import sqlalchemy as sa
from cut_helpers import add_players, random_swiss
from tests.services.results.test_participation import link, player_report, published_round, table
from tests.web.views.test_rounds import report_all, setup_event

from app.extensions import db
from app.models import Player
from app.services import cut as cut_service
from app.services.players import player_links

PARTS = {"me-dropped", "me-clock", "me-card", "me-tabs", "me-drop", "judge-call", "check-in", "me-next"}


def live(phone, t, player, *parts, etag=None):
    query = {"parts": ",".join(parts)} if parts else {}
    return phone.get(f"{link(t, player)}/live", query_string=query,
                     headers={"If-None-Match": etag} if etag else {})


def digests(phone, t, player) -> dict:
    answer = live(phone, t, player)
    assert answer.status_code == 200
    return answer.get_json()["digests"]


def part(phone, t, player, name) -> str:
    """A part as it reads (tags and runs of spaces left out); with its markup for the form checks."""
    drawn = html.unescape(live(phone, t, player, name).get_json()["fragments"][name])
    return " ".join(re.sub(r"<[^>]+>", " ", drawn).split()) + "\n" + drawn


def test_the_opponents_report_changes_the_card_and_an_unchanged_event_is_a_304(app, make_user, make_tournament,
                                                                                login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    published_round(client, t)
    m, corp, runner = table(t)
    phone = app.test_client()
    first = live(phone, t, runner)
    assert set(first.get_json()["digests"]) == PARTS and first.headers["Cache-Control"] == "private, no-cache"
    # every part's HTML comes with its digest: a phone asks once after a publish, and as the page draws it
    assert set(first.get_json()["fragments"]) == PARTS and "Table" in first.get_json()["fragments"]["me-card"]
    etag = first.headers["ETag"]
    assert live(phone, t, runner, etag=etag).status_code == 304
    before = first.get_json()["digests"]
    # another table's report is not this page's business: still a 304
    other, other_corp, _ = table(t, index=1)
    player_report(app, t, other_corp, other.id, "corp")
    assert live(phone, t, runner, etag=etag).status_code == 304

    player_report(app, t, corp, m.id, "corp")
    answer = live(phone, t, runner, etag=etag)
    assert answer.status_code == 200
    after = answer.get_json()["digests"]
    assert after["me-card"] != before["me-card"]
    assert {k for k in PARTS if after[k] != before[k]} == {"me-card"}  # the clock, the drop box: as they were
    card = part(phone, t, runner, "me-card")
    assert f"{corp.name} reported: you lost as Runner" in card and "Yes: I lost as Runner" in card
    assert 'name="csrf_token"' in card and "csrf-token-of-this-answer" not in card


def test_the_page_draws_the_parts_it_polls(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    published_round(client, t)
    _, corp, _ = table(t)
    phone = app.test_client()
    page = html.unescape(phone.get(link(t, corp)).get_data(as_text=True))
    card = part(phone, t, corp, "me-card").split("\n", 1)[1]
    assert card.split('name="csrf_token" value="')[0] in page  # the same markup up to the form token
    assert 'id="me-live"' in page and f'data-url="{link(t, corp)}/live"' in page
    assert f'data-poll-ms="{app.config["STATUS_POLL_MS"]}"' in page  # config.py, not the script
    assert f'data-check-ms="{app.config["PLAYER_CHECK_MS"]}"' in page


def test_a_big_event_checks_less_often_and_a_smaller_one_again(app, make_user, make_tournament, login):
    """Past PLAYER_CHECKS_PER_SECOND x PLAYER_CHECK_MS players the pages stretch their interval (app/core/polling.py);
    players who drop leave the count."""
    app.config.update(PLAYER_CHECK_MS=2000, PLAYER_CHECKS_PER_SECOND=2)  # 4 players per 2 s
    client, t, _ = setup_event(make_user, make_tournament, login, n=10)
    published_round(client, t)
    _, corp, _ = table(t)
    phone = app.test_client()
    page = phone.get(link(t, corp)).get_data(as_text=True)
    assert 'data-check-ms="5000" data-spread-ms="500"' in page  # 10 players / 2 a second; after a publish 4
    others = db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id).where(Player.id != corp.id)).all()
    for other in others[:7]:
        assert client.post(f"/tournaments/{t.id}/players/{other.id}/drop").status_code in (302, 303)
    page = phone.get(link(t, corp)).get_data(as_text=True)
    assert 'data-check-ms="2000" data-spread-ms="0"' in page  # 3 players: the floor, and at once


def test_a_new_round_changes_card_and_clock(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    published_round(client, t)
    _, corp, _ = table(t)
    phone = app.test_client()
    before = digests(phone, t, corp)
    assert "Round 1" in part(phone, t, corp, "me-card") and "data-countdown" in part(phone, t, corp, "me-clock")
    report_all(client, t, 1)
    published_round(client, t, 2)
    after = digests(phone, t, corp)
    assert after["me-card"] != before["me-card"] and after["me-clock"] != before["me-clock"]
    assert "Round 2" in part(phone, t, corp, "me-card")
    assert 'data-round="2"' in part(phone, t, corp, "me-clock")
    # a timer start is status.json's news (static/countdown.js), not a part's
    client.post(f"/tournaments/{t.id}/rounds/2/timer/start")
    assert digests(phone, t, corp)["me-clock"] == after["me-clock"]


def _cut_event(make_user, make_tournament, n=8):
    owner = make_user()
    t = make_tournament(owner, format="single")
    players = add_players(t, [f"P{i:02d}" for i in range(1, n + 1)])
    random_swiss(t, players, 3, random.Random(4))
    return t


def _player(pid) -> Player:
    return db.session.get(Player, pid)


@pytest.mark.slow
def test_the_cut_shows_the_game_then_the_final_place(app, make_user, make_tournament):
    t = _cut_event(make_user, make_tournament)
    phone = app.test_client()
    everyone = db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id)).all()
    swiss = {p.id: digests(phone, t, p) for p in everyone}
    cut_service.create(t, 4, "single")
    s1, s2, s3, s4 = cut_service.load(t).bracket.seeds
    out = next(p for p in everyone if p.id not in (s1, s2, s3, s4))

    # seed 1's game: table, side once chosen, opponent; no drop box in the cut
    assert digests(phone, t, _player(s1))["me-card"] != swiss[s1]["me-card"]
    card = part(phone, t, _player(s1), "me-card")
    assert "Top 4 · game 1" in card and "Table 1" in card and _player(s4).name in card and "seed 1" in card
    assert "Round 3" not in card
    assert "Drop" not in part(phone, t, _player(s1), "me-drop")
    assert "Top cut" in part(phone, t, _player(s1), "me-tabs")
    assert "data-countdown" not in part(phone, t, _player(s1), "me-clock")
    cut_service.set_corp(t, 1, s1)
    assert "You play Corp against" in part(phone, t, _player(s1), "me-card")
    assert "You play Runner against" in part(phone, t, _player(s4), "me-card")
    # a player who missed the cut: their place, fixed already
    assert "after the swiss; the top 4 play on" in part(phone, t, out, "me-card")
    assert "Drop" not in part(phone, t, out, "me-drop")

    # seed 4 loses: out, with a place; seed 1 waits for the final
    cut_service.report(t, 1, s1)
    assert "I won as Corp" in part(phone, t, _player(s1), "me-card")
    assert "You are out of the top cut" in part(phone, t, _player(s4), "me-card")
    cut_service.set_corp(t, 2, s2)
    cut_service.report(t, 2, s2)
    final = next(g for g in cut_service.load(t).bracket.games if not g.reported)
    card = part(phone, t, _player(s1), "me-card")
    assert f"game {final.id}" in card and _player(s2).name in card
    assert final.id == 3 and "Table 1" in card and "Table 3" not in card  # the final's table, not its game number
    cut_service.set_corp(t, final.id, s2)
    cut_service.report(t, final.id, s2)
    assert "Champion!" in part(phone, t, _player(s2), "me-card")
    card = part(phone, t, _player(s1), "me-card")
    assert "Final standings" in card and "2nd place" in card
    card = part(phone, t, out, "me-card")  # the cut is over: nobody plays on (the audit saw "play on" here)
    assert "the top 4 played on" in card and "play on" not in card

    # the public pages' banner for this device: the place, not a swiss table
    phone.get(link(t, _player(s1)))
    banner = html.unescape(phone.get(f"/t/{t.slug}/me.json?page=pairings").get_json()["you"])
    assert "<strong>You:</strong> place 2 of 8" in banner and "You:</strong> table" not in banner


def test_a_revoked_link_has_no_live_answer(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    published_round(client, t)
    _, corp, _ = table(t)
    old = link(t, corp)
    player_links.reissue(corp)
    db.session.commit()
    assert app.test_client().get(f"{old}/live").status_code == 404


def test_the_schedules_next_line_follows_the_real_rounds_and_the_304_asks_one_statement(app, make_user,
                                                                                         make_tournament, login,
                                                                                         monkeypatch):
    """The "Next:" line is a live part: the ETag carries what it says this minute (kept per event, version and
    minute), so a publish moves it on an open page and an unchanged minute still costs one statement."""
    from datetime import date, datetime, timedelta, timezone

    import pytest
    from sqlalchemy import event as sa_event

    from app.services.schedule import timeline

    minute = timeline.minute_now()
    monkeypatch.setattr(timeline, "minute_now", lambda: minute)  # the minute does not turn during the test

    client, t, players = setup_event(make_user, make_tournament, login, n=4, date=date.today())
    start = datetime.now(timezone.utc) - timedelta(hours=2)  # the plan (in UTC) is two hours behind the hall
    form = {"time_zone": "UTC", "days-0-date": start.date().isoformat(), "days-0-start": f"{start:%H:%M}",
            "days-0-turnaround": "10"}
    for i in range(3):
        form.update({f"items-{i}-order": str(10 * (i + 1)), f"items-{i}-day": "1", f"items-{i}-kind": "round",
                     f"items-{i}-minutes": "60", f"items-{i}-label": ""})
    if start.date() != datetime.now(timezone.utc).date():
        pytest.skip("just after midnight: the plan would start yesterday")
    assert client.post(f"/tournaments/{t.id}/schedule", data=form).status_code == 303
    phone = app.test_client()
    page = html.unescape(phone.get(link(t, players[0])).get_data(as_text=True))
    assert 'id="me-next"' in page and "Next: round 1 at about" in " ".join(re.sub(r"<[^>]+>", " ", page).split())
    first = live(phone, t, players[0])
    etag = first.headers["ETag"]
    # nothing moved: a 304 that asks the database one statement (the player's facts; the line's tag is kept)
    url = f"{link(t, players[0])}/live"
    db.session.expire_all()
    seen = []
    listener = lambda *args: seen.append(args[2])  # noqa: E731
    sa_event.listen(db.engine, "before_cursor_execute", listener)
    try:
        assert phone.get(url, headers={"If-None-Match": etag}).status_code == 304
    finally:
        sa_event.remove(db.engine, "before_cursor_execute", listener)
    asked = [sql for sql in seen if not sql.startswith("PREPARE")]  # once per pooled connection
    assert len(asked) == 1, seen
    # round 1 is paired and published: the line moves on to round 2 by itself
    from tests.web.views.test_rounds import pair

    pair(client, t, 1)
    client.post(f"/tournaments/{t.id}/rounds/1/publish")
    answer = live(phone, t, players[0], etag=etag)
    assert answer.status_code == 200
    assert answer.get_json()["digests"]["me-next"] != first.get_json()["digests"]["me-next"]
    assert "Next: round 2 at about" in part(phone, t, players[0], "me-next")

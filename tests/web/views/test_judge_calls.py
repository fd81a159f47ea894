"""Judge calls through the routes: a player calls from their link, the staff see it on the round page and its
poll, one claims, one resolves, the player sees each step and may cancel; one open call per player and a
cool-down; every step logged."""
from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import JudgeCall, Player, Staff
from app.services.players import player_links
from cut_helpers import paired_event


@pytest.fixture
def event(app, make_user):
    owner = make_user("to@example.com", "correct horse")
    keeper = make_user("sam@example.com", "correct horse")
    keeper.display_name = "Sam"
    t = paired_event(owner, "Judge Open", ["Ann", "Ben", "Cat", "Dan"])
    db.session.add(Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"))
    db.session.commit()
    players = db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id).order_by(Player.id)).all()
    return t, players


def _link(t, player) -> str:
    return f"/t/{t.slug}/p/{player_links.token(player)}"


def _calls():
    db.session.expire_all()
    return db.session.scalars(sa.select(JudgeCall).order_by(JudgeCall.id)).all()


def _table_of(t, player) -> int:
    from app.services.results import participation
    return participation.my_table(t, player).table


def test_player_calls_staff_claims_and_resolves(app, event, login):
    t, (ann, *_) = event
    phone = app.test_client()
    page = phone.get(_link(t, ann)).get_data(as_text=True)
    assert "Call a judge" in page
    r = phone.post(f"{_link(t, ann)}/judge", data={"reason": "  Rules   question about  a card "})
    assert r.status_code == 303
    table = _table_of(t, ann)
    page = phone.get(r.headers["Location"]).get_data(as_text=True)
    assert f"A judge is called to table {table}, round 1" in page and "Judge call sent" in page
    (call,) = _calls()
    assert (call.state, call.table, call.round_number, call.reason) == ("open", table, 1, "Rules question about a card")

    to = login("to@example.com", "correct horse")
    round_page = to.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert 'id="judge-calls"' in round_page and "1 waiting" in round_page and "Ann" in round_page
    live = to.get(f"/tournaments/{t.id}/judge-calls/live")
    assert live.json["open"] == 1 and f"Table {table}" in live.json["html"]
    # nothing new: the poll's ETag answers 304
    assert to.get(f"/tournaments/{t.id}/judge-calls/live",
                  headers={"If-None-Match": live.headers["ETag"]}).status_code == 304

    keeper = login("sam@example.com", "correct horse", c=app.test_client())
    r = keeper.post(f"/tournaments/{t.id}/judge-calls/{call.id}/claim", headers={"Accept": "application/json"})
    assert r.status_code == 200 and r.json["open"] == 0 and "you are" in r.json["html"]
    after = to.get(f"/tournaments/{t.id}/judge-calls/live", headers={"If-None-Match": live.headers["ETag"]})
    assert after.status_code == 200 and "Sam is" in after.json["html"]
    mine = phone.get(f"{_link(t, ann)}/judge").json
    assert mine["live"] and "A judge is on the way" in mine["html"] and "Sam" in mine["html"]

    # the organizer cannot take it from Sam
    r = to.post(f"/tournaments/{t.id}/judge-calls/{call.id}/claim", headers={"Accept": "application/json"})
    assert r.status_code == 409 and "Sam has taken this call already" in r.json["error"]
    r = keeper.post(f"/tournaments/{t.id}/judge-calls/{call.id}/resolve")
    assert r.status_code == 303
    (call,) = _calls()
    assert call.state == "resolved" and call.claimed_at and call.closed_at and call.resolved_by_id == call.claimed_by_id
    mine = phone.get(f"{_link(t, ann)}/judge").json
    assert not mine["live"] and "is resolved" in mine["html"]
    log = keeper.get(f"/tournaments/{t.id}/judge-calls").get_data(as_text=True)
    assert "Rules question about a card" in log and "resolved by Sam" in log


def test_one_open_call_per_player_and_a_cooldown(app, event):
    t, (ann, ben, *_) = event
    phone = app.test_client()
    assert phone.post(f"{_link(t, ann)}/judge", data={}).status_code == 303
    page = phone.get(f"{_link(t, ann)}/judge").json["html"]
    assert "Cancel the call" in page
    r = phone.post(f"{_link(t, ann)}/judge", data={}, follow_redirects=True)
    assert "You have a call open already" in r.get_data(as_text=True)
    assert len(_calls()) == 1
    r = phone.post(f"{_link(t, ann)}/judge/cancel", follow_redirects=True)
    assert "cancelled" in r.get_data(as_text=True) and _calls()[0].state == "cancelled"
    r = phone.post(f"{_link(t, ann)}/judge", data={}, follow_redirects=True)
    assert re.search(r"You can call again in \d+ seconds", r.get_data(as_text=True))
    assert len(_calls()) == 1
    # another player is not held back by Ann's cool-down
    assert app.test_client().post(f"{_link(t, ben)}/judge", data={}).status_code == 303
    assert [c.player_id for c in _calls()] == [ann.id, ben.id]
    # with no cool-down, Ann may call again once her call is closed
    app.config["JUDGE_CALL_COOLDOWN_SECONDS"] = 0
    assert phone.post(f"{_link(t, ann)}/judge", data={}).status_code == 303
    assert [c.state for c in _calls()] == ["cancelled", "open", "open"]


def test_cancel_without_a_call_changes_nothing(app, event):
    t, (ann, *_) = event
    r = app.test_client().post(f"{_link(t, ann)}/judge/cancel", follow_redirects=True)
    assert "You had no call open" in r.get_data(as_text=True) and _calls() == []


def test_a_too_long_reason_is_refused(app, event):
    t, (ann, *_) = event
    r = app.test_client().post(f"{_link(t, ann)}/judge", data={"reason": "x" * 101}, follow_redirects=True)
    assert "100 characters" in r.get_data(as_text=True) and _calls() == []


def test_a_call_of_another_event_is_not_found(app, event, make_user, login):
    t, (ann, *_) = event
    app.test_client().post(f"{_link(t, ann)}/judge", data={})
    (call,) = _calls()
    mallory = make_user("mallory@example.com", "correct horse")
    own = paired_event(mallory, "Mallory Cup", ["X", "Y"])
    client = login("mallory@example.com", "correct horse")
    assert client.post(f"/tournaments/{own.id}/judge-calls/{call.id}/claim").status_code == 404
    assert client.post(f"/tournaments/{t.id}/judge-calls/{call.id}/claim").status_code == 403
    assert _calls()[0].state == "open"


def test_the_admin_reads_the_calls_but_gets_no_buttons(app, event, make_user, login):
    t, (ann, *_) = event
    app.test_client().post(f"{_link(t, ann)}/judge", data={})
    make_user("admin@example.com", "correct horse", is_admin=True)
    admin = login("admin@example.com", "correct horse")
    live = admin.get(f"/tournaments/{t.id}/judge-calls/live").json
    assert live["open"] == 1 and "I'll go" not in live["html"] and "Ann" in live["html"]
    assert admin.post(f"/tournaments/{t.id}/judge-calls/{_calls()[0].id}/claim").status_code == 403


def test_in_the_cut_a_call_names_the_cut_table(app, make_user, make_tournament):
    import random

    from app.services import cut as cut_service
    from cut_helpers import add_players, random_swiss
    t = make_tournament(make_user())
    players = add_players(t, [f"P{i}" for i in range(8)])
    random_swiss(t, players, 3, random.Random(2))
    cut_service.create(t, 4, "single", [])
    cut = cut_service.load(t)
    game = cut.bracket.games[0]
    seeded = db.session.get(Player, game.player1)
    out = next(p for p in players if p.id not in {e.player_id for e in t.cut_entries})
    for who in (seeded, out):
        assert app.test_client().post(f"{_link(t, who)}/judge", data={}).status_code == 303
    first, = _calls()  # a player out of the cut sits at no table: no call (find a judge in person)
    assert (first.round_number, first.table) == (None, cut.table(game))
    page = app.test_client().get(f"{_link(t, seeded)}/judge").json["html"]
    assert f"table {cut.table(game)}, top cut" in page


def test_the_cut_page_shows_the_calls(app, make_user, make_tournament, login):
    import random

    from app.services import cut as cut_service
    from cut_helpers import add_players, random_swiss
    t = make_tournament(make_user())
    players = add_players(t, [f"P{i}" for i in range(8)])
    random_swiss(t, players, 3, random.Random(2))
    cut_service.create(t, 4, "single", [])
    seeded = db.session.get(Player, cut_service.load(t).bracket.games[0].player1)
    app.test_client().post(f"{_link(t, seeded)}/judge", data={"reason": "side choice"})
    page = login().get(f"/tournaments/{t.id}/cut").get_data(as_text=True)
    assert 'id="judge-calls"' in page and "1 waiting" in page and "side choice" in page
    assert "/static/judge_calls.js" in page


def test_the_panel_reads_its_stamp_and_open_calls_in_one_query(app, event):
    """services.judge_calls.panel: the same stamp as the poll's, the open and claimed calls oldest first with
    the callers' and staff's names, in one query however many calls there are."""
    from sqlalchemy import event as sa_event

    from app.services import judge_calls

    t, (ann, ben, cat, *_) = event
    for p in (ann, ben, cat):
        assert app.test_client().post(f"{_link(t, p)}/judge", data={"reason": f"{p.name}'s"}).status_code == 303
    assert app.test_client().post(f"{_link(t, ben)}/judge/cancel").status_code == 303
    db.session.expire_all()
    assert t.id  # the event itself is loaded before counting
    seen = []
    listener = lambda *args: seen.append(args[2])  # noqa: E731
    sa_event.listen(db.engine, "before_cursor_execute", listener)
    try:
        stamp, calls = judge_calls.panel(t)
        names = [(c.player, c.reason) for c in calls]
    finally:
        sa_event.remove(db.engine, "before_cursor_execute", listener)
    assert len(seen) == 1, seen
    assert names == [("Ann", "Ann's"), ("Cat", "Cat's")] and stamp == judge_calls.stamp(t)


def test_once_the_cut_is_decided_no_call_can_be_made(app, make_user, make_tournament):
    """The staff stop watching calls when the event is over: the player's page says so instead of offering the
    button, and a call sent anyway (a page left open) is refused and stores nothing."""
    import random

    from app.services import cut as cut_service
    from cut_helpers import add_players, play_cut, random_swiss
    t = make_tournament(make_user())
    players = add_players(t, [f"P{i}" for i in range(8)])
    random_swiss(t, players, 3, random.Random(5))
    cut_service.create(t, 4, "single", [])
    seeded = db.session.get(Player, cut_service.load(t).bracket.games[0].player1)
    assert "Call a judge" in app.test_client().get(_link(t, seeded)).get_data(as_text=True)  # the final is ahead
    play_cut(t, lambda game: game.player1)
    assert cut_service.decided(t)
    phone = app.test_client()
    page = phone.get(_link(t, seeded)).get_data(as_text=True)
    assert "Call a judge" not in page and "The event is over" in page
    r = phone.post(f"{_link(t, seeded)}/judge", data={"reason": "prize"}, follow_redirects=True)
    assert "The event is over" in r.get_data(as_text=True) and _calls() == []


def test_a_player_at_no_table_gets_no_button_and_no_call(app, event, make_user):
    """The audit: 20 strangers (a fresh self-registration, a dropped player, anyone before round 1) made 20 open
    calls on the staff's panel, none of them at a table a judge could walk to. A player who sits at no table is
    not offered the button, is told to find a judge in person, and a call sent anyway stores nothing; once they
    sit at a table (their page's live part), the button is there."""
    t, (ann, ben, *_) = event
    late = Player(tournament_id=t.id, name="Late Larry", self_registered=True)
    ben.dropped = True
    db.session.add(late)
    db.session.commit()
    for player in (late, ben):
        phone = app.test_client()
        page = phone.get(_link(t, player)).get_data(as_text=True)
        assert "Call a judge" not in page and "you sit at none now" in page
        r = phone.post(f"{_link(t, player)}/judge", data={"reason": "hi"}, follow_redirects=True)
        assert "Find a judge or the organizer in person" in r.get_data(as_text=True)
    assert _calls() == []
    seated = app.test_client()
    assert "Call a judge" in seated.get(_link(t, ann)).get_data(as_text=True)

    owner = make_user("fresh@example.com", "correct horse")
    fresh = paired_event(owner, "Fresh Open", ["Zed", "Yan"])
    from app.services.swiss import rounds as rounds_service
    rounds_service.undo_round(fresh, 1)
    zed = db.session.scalars(sa.select(Player).filter_by(tournament_id=fresh.id, name="Zed")).one()
    phone = app.test_client()
    page = phone.get(_link(fresh, zed)).get_data(as_text=True)
    assert "Call a judge" not in page  # before round 1
    live = page.split('data-digests=\'')[1].split("'")[0]
    rounds_service.pair_next_round(fresh, 1)
    rounds_service.publish_round(fresh, 1)
    answer = phone.get(f"{_link(fresh, zed)}/live?parts=judge-call").get_json()
    assert answer["digests"]["judge-call"] not in live and "Call a judge" in answer["fragments"]["judge-call"]


def test_the_player_never_sees_the_judges_e_mail(app, event, login):
    """A judge without a display name is "a judge" to the player (the audit saw the address); staff see who."""
    t, (ann, *_) = event
    phone = app.test_client()
    assert phone.post(f"{_link(t, ann)}/judge", data={"reason": ""}).status_code == 303
    call = _calls()[0]
    to = login("to@example.com", "correct horse")
    assert to.post(f"/tournaments/{t.id}/judge-calls/{call.id}/claim").status_code in (200, 302, 303)
    mine = phone.get(f"{_link(t, ann)}/judge").json["html"]
    assert "A judge is on the way" in mine and "to@example.com" not in mine
    page = phone.get(_link(t, ann)).get_data(as_text=True)
    assert "to@example.com" not in page

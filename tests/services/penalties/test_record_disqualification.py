"""A disqualification ends the player's part at once, on their side too: their link no longer reports, confirms,
disputes, drops, calls a judge or changes a decklist (refused by the services: 403 / 422, nothing written), their
page offers none of those and says privately that they are disqualified; a report they made before never becomes
the result. The player page's state line comes from the core rule (app/core/player_state.py) for every state."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Decklist, JudgeCall, Match, Player, ResultChange, ResultClaim, Seat
from app.services.players import player_links
from cut_helpers import paired_event

PASSWORD = "correct horse"


@pytest.fixture
def event(app, make_user):
    owner = make_user("to@example.com", PASSWORD)
    return paired_event(owner, "Disqualification Open", ["Ann", "Ben", "Cat", "Dan"])


def _link(t, player) -> str:
    return f"/t/{t.slug}/p/{player_links.token(player)}"


def _player(t, name):
    db.session.expire_all()
    return db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id, name=name)).one()


def _table(t, player):
    """(their match, their seat, the opponent) in round 1."""
    seat = db.session.scalars(sa.select(Seat).filter_by(player_id=player.id)).one()
    other = db.session.scalars(sa.select(Seat).filter(Seat.match_id == seat.match_id, Seat.id != seat.id)).one()
    return db.session.get(Match, seat.match_id), seat, db.session.get(Player, other.player_id)


def _disqualify(to, t, player, round_number="1"):
    r = to.post(f"/tournaments/{t.id}/penalties/new", data={
        "player": str(player.id), "round": round_number, "infraction": "cheating", "kind": "disqualification"})
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]


def _written():
    """Everything a player's action could write."""
    db.session.expire_all()
    return (db.session.scalar(sa.select(sa.func.count(ResultClaim.id))),
            db.session.scalar(sa.select(sa.func.count(ResultChange.id))),
            db.session.scalar(sa.select(sa.func.count(JudgeCall.id))),
            sorted(db.session.execute(sa.select(Match.id, Match.result)).all()),
            sorted(db.session.execute(sa.select(Player.id, Player.dropped, Player.drop_reason)).all()),
            db.session.scalar(sa.select(sa.func.count(Decklist.id))))


def test_a_disqualified_players_link_does_nothing_more_and_says_why(event, login, app):
    t = event
    ann = _player(t, "Ann")
    match, seat, ben = _table(t, ann)
    phone = app.test_client()
    before = phone.get(_link(t, ann)).get_data(as_text=True)
    assert "I won as" in before and "Call a judge" in before and "Yes, drop me" in before
    assert "csrf-token-of-this-answer" not in before  # the boxes' forms carry the real token
    _disqualify(login("to@example.com", PASSWORD), t, ann)
    written = _written()
    loss = written[3]

    page = phone.get(_link(t, ann))
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Disqualified: see the head judge." in html  # the core rule's words for the player
    assert "You have dropped" not in html and "you dropped" not in html.lower()
    for button in ("I won as", "/report", "Yes, drop me", "/drop", "Call a judge", "judge-call-form", "/coverage"):
        assert button not in html, button
    assert "disqualified" not in app.test_client().get(f"/t/{t.slug}/pairings").get_data(as_text=True).lower()

    key = "corp" if seat.side == "corp" else "runner"
    for path, data in (("report", {"match": match.id, "result": key}),  # a report of a win
                       ("drop", {}),
                       ("judge", {"reason": "He is cheating, not me"})):
        r = phone.post(f"{_link(t, ann)}/{path}", data=data)
        assert r.status_code == 403, (path, r.status_code)
        assert "You are disqualified" in r.get_data(as_text=True) and _link(t, ann) in r.get_data(as_text=True)
        assert _written() == written, path
    assert written[3] == loss


def test_a_report_made_before_the_disqualification_never_becomes_the_result(event, login, app):
    t = event
    ann = _player(t, "Ann")
    match, seat, ben = _table(t, ann)
    ann_wins = "corp" if seat.side == "corp" else "runner"
    r = app.test_client().post(f"{_link(t, ann)}/report", data={"match": match.id, "result": ann_wins})
    assert r.status_code == 303
    _disqualify(login("to@example.com", PASSWORD), t, ann)
    db.session.expire_all()
    loss = db.session.get(Match, match.id).result
    assert loss not in (None, ann_wins)
    # her claim is gone with her part in the event
    assert db.session.scalar(sa.select(sa.func.count(ResultClaim.id)).filter_by(player_id=ann.id)) == 0
    # Ben, whose page still showed "Ann reported ...: Is that right?", confirms it: the DQ's loss stands
    r = app.test_client().post(f"{_link(t, ben)}/report", data={"match": match.id, "result": ann_wins})
    assert r.status_code == 303
    db.session.expire_all()
    assert db.session.get(Match, match.id).result == loss
    changes = db.session.scalars(sa.select(ResultChange).filter_by(match_id=match.id)).all()
    assert [c.new_result for c in changes] == [loss] and "Disqualification" in changes[0].reason
    # and were the result cleared (a TO's mistake), her old claim could not come back as the result either
    db.session.execute(sa.update(Match).where(Match.id == match.id).values(result=None))
    db.session.commit()
    r = app.test_client().post(f"{_link(t, ben)}/report", data={"match": match.id, "result": ann_wins})
    assert r.status_code == 303
    db.session.expire_all()
    assert db.session.get(Match, match.id).result is None  # Ben's claim waits: no agreement with a DQ'd player


def test_a_disqualified_player_changes_no_decklist(app, make_user, make_tournament, login):
    owner = make_user("to@example.com", PASSWORD)
    t = make_tournament(owner, decklists=True)
    db.session.add_all([Player(tournament_id=t.id, name=n) for n in ("Ann", "Ben")])
    db.session.commit()
    ann = _player(t, "Ann")
    phone = app.test_client()
    lists = f"{_link(t, ann)}/decklists"
    assert "Submit Corp list" in phone.get(lists).get_data(as_text=True)  # before round 1: open
    _disqualify(login("to@example.com", PASSWORD), t, ann, round_number="")
    page = phone.get(lists).get_data(as_text=True)
    assert "Submit Corp list" not in page and "You are disqualified" in page
    written = _written()
    r = phone.post(lists, data={"side": "corp", "text": "1 Hedge Fund"})
    assert r.status_code == 422 and "You are disqualified" in r.get_data(as_text=True)
    assert _written() == written
    # from NetrunnerDB: refused before anything is fetched (that route answers with its flash on the lists page)
    r = phone.post(f"{_link(t, ann)}/decklists/nrdb", data={"side": "corp", "address": "12345"},
                   follow_redirects=True)
    assert "You are disqualified" in r.get_data(as_text=True) and _written() == written


def test_the_state_line_comes_from_the_rule(event, app):
    """A self-drop, the TO's drop and a no-show each read as the rule words them for the player."""
    t = event
    ann, ben = _player(t, "Ann"), _player(t, "Ben")
    phone = app.test_client()
    assert "Dropped" not in phone.get(_link(t, ann)).get_data(as_text=True)
    assert phone.post(f"{_link(t, ann)}/drop").status_code == 303
    html = phone.get(_link(t, ann)).get_data(as_text=True)
    assert "You dropped." in html and "Yes, drop me" not in html
    db.session.execute(sa.update(Player).where(Player.id == ben.id).values(dropped=True, drop_reason="organizer"))
    db.session.execute(sa.update(Player).where(Player.name == "Cat").values(dropped=True, drop_reason="no_show"))
    db.session.commit()
    assert "Dropped by the organizer." in phone.get(_link(t, ben)).get_data(as_text=True)
    cat = _player(t, "Cat")
    assert "Dropped: you did not check in. See the organizer." in phone.get(_link(t, cat)).get_data(as_text=True)

"""Voiding a mistaken penalty from the log: the staff with the right that recorded it (a disqualification takes an
organizer) void it with a reason; it stays in the log struck through with who, when and why; the result a loss
gave stays (the page links to the round to correct it) and the voided loss no longer counts; the void travels in
the backup and a file that tampers with it is refused."""
from __future__ import annotations

import copy
import io
import json

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Penalty, Player, ResultChange, Seat, Staff, Tournament
from app.services.event_files import backup as backup_service
from app.services.penalties import record
from cut_helpers import paired_event


@pytest.fixture
def event(app, make_user):
    owner = make_user("to@example.com", "correct horse")
    keeper = make_user("sam@example.com", "correct horse")
    keeper.display_name = "Sam the judge"
    t = paired_event(owner, "Void Open", ["Ann", "Ben", "Cat", "Dan"])
    db.session.add(Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"))
    db.session.commit()
    return t


def _player(t, name):
    return db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id, name=name)).one()


def _opponent(player):
    seat = db.session.scalars(sa.select(Seat).filter_by(player_id=player.id)).one()
    other = db.session.scalars(sa.select(Seat).filter(Seat.match_id == seat.match_id, Seat.id != seat.id)).one()
    return db.session.get(Player, other.player_id), db.session.get(Match, seat.match_id)


def _record(client, t, player, kind="game_loss", round_number="1"):
    r = client.post(f"/tournaments/{t.id}/penalties/new", data={"player": str(player.id), "round": round_number,
                                                                "infraction": "tardiness", "kind": kind})
    assert r.status_code == 303, r.get_data(as_text=True)[-800:]
    return db.session.scalars(sa.select(Penalty).order_by(Penalty.id.desc())).first()


def _void(client, t, penalty, reason="Wrong player: it was Ben who came late"):
    return client.post(f"/tournaments/{t.id}/penalties/{penalty.id}/void", data={"reason": reason})


def test_a_voided_loss_is_struck_through_its_result_stays_and_it_no_longer_counts(event, login):
    t = event
    keeper = login("sam@example.com", "correct horse")
    ann = _player(t, "Ann")
    ben, match = _opponent(ann)
    penalty = _record(keeper, t, ann)
    given = db.session.get(Match, match.id).result
    assert given is not None

    r = _void(keeper, t, penalty)
    assert r.status_code == 303
    db.session.expire_all()
    row = db.session.get(Penalty, penalty.id)
    assert (row.voided_by, row.void_reason) == ("Sam the judge", "Wrong player: it was Ben who came late")
    assert row.voided_at is not None
    assert db.session.get(Match, match.id).result == given  # not reverted: the organizer corrects it if needed
    assert db.session.scalar(sa.select(sa.func.count(ResultChange.id))) == 1
    page = keeper.get(f"/tournaments/{t.id}/penalties").get_data(as_text=True)
    assert "<del>" in page and "Voided</strong> by Sam the judge" in page
    assert "Wrong player: it was Ben who came late" in page
    assert "correct the table's result on the" in page and f"/tournaments/{t.id}/rounds/1" in page
    assert f"/penalties/{penalty.id}/void" not in page  # no second void button

    again = _void(keeper, t, penalty, "twice")
    assert again.status_code == 303
    db.session.expire_all()
    assert db.session.get(Penalty, penalty.id).void_reason == "Wrong player: it was Ben who came late"
    assert "voided already" in keeper.get(again.headers["Location"]).get_data(as_text=True)

    # the voided loss no longer stands: the right one (Ben's) is recorded and applied through the result path
    _record(keeper, t, ben)
    db.session.expire_all()
    assert db.session.get(Match, match.id).result != given
    assert db.session.scalar(sa.select(sa.func.count(ResultChange.id))) == 2


def test_a_void_needs_a_reason_and_the_right_of_its_recorder(event, login, app):
    t = event
    to = login()
    keeper = login("sam@example.com", "correct horse", c=app.test_client())
    cat = _player(t, "Cat")
    dq = _record(to, t, cat, kind="disqualification", round_number="1")
    assert record.disqualified(t) == {cat.id}

    assert _void(keeper, t, dq).status_code == 403  # a scorekeeper does not void what only an organizer records
    assert _void(to, t, dq, reason="   ").status_code == 303  # no reason: not voided
    db.session.expire_all()
    assert db.session.get(Penalty, dq.id).voided_at is None
    assert f"/penalties/{dq.id}/void" not in keeper.get(f"/tournaments/{t.id}/penalties").get_data(as_text=True)
    assert f"/penalties/{dq.id}/void" in to.get(f"/tournaments/{t.id}/penalties").get_data(as_text=True)

    assert _void(to, t, dq, reason="Mistaken identity").status_code == 303
    db.session.expire_all()
    assert db.session.get(Penalty, dq.id).void_reason == "Mistaken identity"
    assert record.disqualified(t) == set()  # no longer marked, but still dropped until the TO brings them back
    assert db.session.get(Player, cat.id).dropped
    assert keeper.post(f"/tournaments/{t.id}/penalties/999999/void", data={"reason": "x"}).status_code == 404


def _restore(client, doc):
    return client.post("/tournaments/restore", data={"file": (io.BytesIO(json.dumps(doc).encode()), "backup.json")},
                       content_type="multipart/form-data")


def test_the_void_travels_in_the_backup_and_a_tampered_one_is_refused(event, login):
    t = event
    to = login()
    ann = _player(t, "Ann")
    penalty = _record(to, t, ann)
    assert _void(to, t, penalty).status_code == 303
    _record(to, t, ann)  # the right loss again, after the void: both in the file
    db.session.expire_all()
    doc = backup_service.backup(db.session.get(Tournament, t.id))
    voided, standing = doc["penalties"]["log"]
    assert voided["void"]["reason"] == "Wrong player: it was Ben who came late" and "void" not in standing

    for tamper in ({"reason": ""}, {"reason": "x" * 201}, {"at": "2000-01-01T00:00:00+00:00"}, "yes"):
        bad = copy.deepcopy(doc)
        if isinstance(tamper, dict):
            bad["penalties"]["log"][0]["void"].update(tamper)
        else:
            bad["penalties"]["log"][0]["void"] = tamper
        before = db.session.scalar(sa.select(sa.func.count(Tournament.id)))
        r = _restore(to, bad)
        assert r.status_code not in (302, 303), tamper
        assert db.session.scalar(sa.select(sa.func.count(Tournament.id))) == before
    unvoided = copy.deepcopy(doc)
    del unvoided["penalties"]["log"][0]["void"]  # then the same loss twice: refused
    assert _restore(to, unvoided).status_code not in (302, 303)

    r = _restore(to, doc)
    assert r.status_code in (302, 303), r.get_data(as_text=True)[-1500:]
    restored = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    assert backup_service.backup(restored)["penalties"] == doc["penalties"]

"""The penalty log and the deck checks in the backup: they round-trip under their own key, the key is optional,
and a file that tampers with them is refused whole (nothing created)."""
from __future__ import annotations

import copy
import html
import io
import json

import pytest
import sqlalchemy as sa

from app.core.deck_checks import Pool
from app.core.penalties import Infraction, Kind
from app.extensions import db
from app.models import DeckCheck, Match, Seat, Penalty, Player, ResultChange, Tournament, User
from app.services.event_files import backup as backup_service
from app.services.penalties import deck_checks, record
from cut_helpers import paired_event


def _restore(client, doc):
    return client.post("/tournaments/restore", data={"file": (io.BytesIO(json.dumps(doc).encode()), "backup.json")},
                       content_type="multipart/form-data")


@pytest.fixture
def judged(app, make_user):
    """A published round 1 with a game loss (its result and reason), a warning outside the rounds, a draw and a
    check."""
    owner = make_user()
    t = paired_event(owner, "Judged Open", ["Ann", "Ben", "Cat", "Dan", "Eve"])
    ann, ben = db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id).order_by(Player.id).limit(2))
    me = db.session.get(User, owner.id)
    loser = db.session.scalars(sa.select(Seat.player_id).join(Match, Match.id == Seat.match_id)
                               .where(Match.is_bye.is_(False)).limit(1)).first()  # one of five has the bye
    record.record(t, me, loser, 1, Infraction.TARDINESS, Kind.GAME_LOSS, "late\nvery")
    record.record(t, me, ben.id, None, Infraction.MARKED_CARDS, Kind.WARNING)
    row = deck_checks.draw(t, me, 2, Pool.FIELD)
    deck_checks.mark(t, me, row.picked[0], row.id)
    return owner, db.session.get(Tournament, t.id)


def test_penalties_and_checks_round_trip(client, judged, login):
    owner, t = judged
    login()
    first = backup_service.backup(t)
    assert len(first["penalties"]["log"]) == 2 and len(first["penalties"]["draws"]) == 1
    assert any(c.get("reason") for r in first["rounds"] for m in r["matches"] for c in m["changes"])
    response = _restore(client, first)
    assert response.status_code in (302, 303), html.unescape(response.get_data(as_text=True))[-1500:]
    restored = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    second = backup_service.backup(restored)
    assert second["penalties"] == first["penalties"]
    assert [m["changes"] for r in second["rounds"] for m in r["matches"]] == \
        [m["changes"] for r in first["rounds"] for m in r["matches"]]
    # nobody's account is named by the restored rows; the names the log showed stay
    rows = db.session.scalars(sa.select(Penalty).filter_by(tournament_id=restored.id)).all()
    assert {p.recorded_by_id for p in rows} == {None} and {p.recorded_by for p in rows} == {"to@example.com"}
    (view,) = deck_checks.draws(restored)
    assert view.reproduced and view.picked[0].checked_now is not None
    assert db.session.scalar(sa.select(sa.func.count(ResultChange.id)).filter(ResultChange.reason.is_not(None))) == 2


def test_the_key_is_optional(client, judged, login):
    owner, t = judged
    login()
    doc = backup_service.backup(t)
    del doc["penalties"]
    assert _restore(client, doc).status_code in (302, 303)
    restored = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    assert db.session.scalar(sa.select(sa.func.count(Penalty.id)).filter_by(tournament_id=restored.id)) == 0
    assert db.session.scalar(sa.select(sa.func.count(DeckCheck.id)).filter_by(tournament_id=restored.id)) == 0


def _tampered(doc):
    def edit(fn):
        d = copy.deepcopy(doc)
        fn(d["penalties"])
        return d

    loss = next(i for i, p in enumerate(doc["penalties"]["log"]) if p["kind"] == "game_loss")
    return [
        ("not an object", edit(lambda p: p.clear() or p.update({"log": "x"}))),
        ("unknown kind", edit(lambda p: p["log"][0].update(kind="caution"))),
        ("unknown infraction", edit(lambda p: p["log"][0].update(infraction="bad luck"))),
        ("unknown player", edit(lambda p: p["log"][0].update(player=99))),
        ("unknown round", edit(lambda p: p["log"][0].update(round=9))),
        ("a loss twice", edit(lambda p: p["log"].append(copy.deepcopy(p["log"][loss])))),
        ("a loss without a round", edit(lambda p: p["log"][loss].update(round=None))),
        ("a warning changing a result", edit(lambda p: p["log"][1 - loss].update(after="corp"))),
        ("an impossible result", edit(lambda p: p["log"][loss].update(after="7-7"))),
        ("a NUL in the notes", edit(lambda p: p["log"][0].update(notes="a\x00b"))),
        ("notes too long", edit(lambda p: p["log"][0].update(notes="x" * 1001))),
        ("a game in single-sided", edit(lambda p: p["log"][loss].update(game=1))),
        ("a pick the seed does not make", edit(lambda p: p["draws"][0].update(picked=[
            c[0] for c in p["draws"][0]["candidates"] if c[0] not in p["draws"][0]["picked"]][:2]))),
        ("a candidate twice", edit(lambda p: p["draws"][0]["candidates"].append(p["draws"][0]["candidates"][0]))),
        ("too many picks asked", edit(lambda p: p["draws"][0].update(count=10**6))),
        ("a check twice", edit(lambda p: p["checks"].append(copy.deepcopy(p["checks"][0])))),
        ("a check of a missing draw", edit(lambda p: p["checks"][0].update(draw=5))),
        ("a bad time", edit(lambda p: p["checks"][0].update(at="yesterday"))),
    ]


def test_tampered_penalties_are_refused_whole(client, judged, login):
    owner, t = judged
    login()
    doc = backup_service.backup(t)
    count = db.session.scalar(sa.select(sa.func.count(Tournament.id)))
    failures = []
    for label, bad in _tampered(doc):
        response = _restore(client, bad)
        text = html.unescape(response.get_data(as_text=True))
        if response.status_code != 400 or "Nothing was created" not in text:
            failures.append(f"{label}: {response.status_code}")
    assert not failures, failures
    assert db.session.scalar(sa.select(sa.func.count(Tournament.id))) == count

"""Two workers (or hosts) claiming the same queued ABR upload at once send it once: each sender on its own app and
database connection, released together by a barrier, against a stand-in ABR that answers slowly so the sends would
overlap (app/services/abr/uploads.py `claim`). Meant for PostgreSQL (TEST_DATABASE_URL); runs on SQLite too."""
from __future__ import annotations

import pytest
import threading

import sqlalchemy as sa
from abr_standin import PASSWORD, USER, StandIn
from cut_helpers import add_players, add_round

from app import create_app
from app.extensions import db
from app.models import AbrUpload
from app.services.abr import sender, uploads


def _finished_event(make_user, make_tournament):
    t = make_tournament(make_user(), planned_rounds=1)
    a, b, c, d = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    add_round(t, 1, [(a, b, "corp"), (c, d, "runner")])
    return t


def _workers(database_uri: str, url: str, n: int):
    return [create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri, "ABR_URL": url,
                        "ABR_USER": USER, "ABR_PASSWORD": PASSWORD, "ABR_TIMEOUT_SECONDS": 10}) for _ in range(n)]


def _at_once(calls):
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)
    errors = []

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not errors, errors
    return results


def test_two_workers_send_one_queued_upload_once(app, make_user, make_tournament, database_uri):
    t = _finished_event(make_user, make_tournament)
    uploads.queue(t, "http://sass.example/t/x", "SASS", None)
    with StandIn() as abr:
        abr.mode, abr.delay = "slow", 0.5
        workers = _workers(database_uri, abr.url, 2)
        sent = _at_once([lambda w=w: sender.send_due(w) for w in workers])
        assert sorted(sent) == [0, 1] and abr.requests == 1 and len(abr.received) == 1
    db.session.expire_all()
    [row] = db.session.scalars(sa.select(AbrUpload)).all()
    assert row.state == "sent" and row.attempts == 1
    for w in workers:
        with w.app_context():
            db.engine.dispose()


@pytest.mark.slow
def test_of_eight_claims_of_one_upload_exactly_one_wins(app, make_user, make_tournament, database_uri):
    t = _finished_event(make_user, make_tournament)
    upload_id = uploads.queue(t, "http://sass.example/t/x", "SASS", None).upload.id
    workers = _workers(database_uri, "http://127.0.0.1:9", 8)

    def claim(w):
        with w.app_context():
            try:
                return uploads.claim(upload_id) is not None
            finally:
                db.session.remove()

    won = _at_once([lambda w=w: claim(w) for w in workers])
    assert won.count(True) == 1
    db.session.expire_all()
    assert db.session.get(AbrUpload, upload_id).attempts == 1
    for w in workers:
        with w.app_context():
            db.engine.dispose()

"""Two organizers saving different schedules of one event at once: each save replaces the plan whole under the
event's lock (app/services/schedule/plan.py `save`), so the event ends with one of the two plans, never a mix of
their days and items. Each save on its own app and database connection, released together by a barrier. Meant for
PostgreSQL (TEST_DATABASE_URL); runs on SQLite too."""
from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

import sqlalchemy as sa

from app import create_app
from app.core import schedule as rule
from app.extensions import db
from app.models import ScheduleDay, ScheduleItem, Tournament
from app.services.schedule import plan as plans

T0 = datetime(2027, 5, 1, 8, 0, tzinfo=timezone.utc)


def _plans():
    one = ([rule.Day(1, T0, 10)], [rule.Item(1, rule.Kind.ROUND, 60)] * 5)
    two = ([rule.Day(1, T0 + timedelta(hours=1), 5), rule.Day(2, T0 + timedelta(days=1), 5)],
           [rule.Item(1, rule.Kind.ROUND, 50)] * 3 + [rule.Item(2, rule.Kind.CUT, 200, "Top 8")])
    return one, two


def test_two_saves_at_once_leave_one_whole_plan(app, make_user, make_tournament, database_uri):
    tid = make_tournament(make_user()).id
    workers = [create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri}) for _ in range(2)]
    barrier = threading.Barrier(2)
    errors = []

    def save(worker, plan, zone):
        try:
            with worker.app_context():
                t = db.session.get(Tournament, tid)
                barrier.wait()
                plans.save(t, zone, *plan)
                db.session.remove()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    for _ in range(3):
        threads = [threading.Thread(target=save, args=(w, p, z))
                   for w, p, z in zip(workers, _plans(), ("Europe/Berlin", "America/Chicago"))]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=60)
        assert not errors, errors
        db.session.expire_all()
        days = db.session.scalars(sa.select(ScheduleDay).filter_by(tournament_id=tid)).all()
        items = db.session.scalars(sa.select(ScheduleItem).filter_by(tournament_id=tid)
                                   .order_by(ScheduleItem.position)).all()
        kept = [(len(days), [i.kind for i in items])]
        assert kept in ([(1, ["round"] * 5)], [(2, ["round"] * 3 + ["cut"])]), kept
        zone = db.session.get(Tournament, tid).time_zone  # the zone came with its own plan
        assert zone == ("Europe/Berlin" if len(days) == 1 else "America/Chicago")
        assert [i.position for i in items] == list(range(1, len(items) + 1))
    for w in workers:
        with w.app_context():
            db.engine.dispose()

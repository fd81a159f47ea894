"""The status poll's cost does not grow with other events' seats (PostgreSQL's plan, measured by EXPLAIN ANALYZE:
the rows of `seats` it reads)."""
from __future__ import annotations

import sqlalchemy as sa

import pytest

from app.extensions import db
from app.services.event_files import restore as restore_service
from app.services import status
from app.services.event_files import event_writer
from bench.bench_uploads import make_backup
from cut_helpers import add_players, add_round


def _seat_rows_read(plan: dict) -> int:
    """Rows of `seats` the plan's nodes read: those they returned and those their filters threw away."""
    total = 0
    if plan.get("Relation Name") == "seats":
        total += (plan.get("Actual Rows", 0) + plan.get("Rows Removed by Filter", 0)) * plan.get("Actual Loops", 1)
    for child in plan.get("Plans", []):
        total += _seat_rows_read(child)
    return total


def test_the_poll_reads_a_handful_of_seats_whatever_other_events_hold(app, make_user, make_tournament):
    if db.engine.dialect.name != "postgresql":
        pytest.skip("the plan is PostgreSQL's (set TEST_DATABASE_URL)")
    owner = make_user()
    t = make_tournament(owner)
    a, b, c, d = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    add_round(t, 1, [(a, b, None), (c, d, None)])
    event_writer.write(restore_service.read(make_backup(2000, 6)), owner, "backup")  # 24,000 newer seats elsewhere
    db.session.execute(sa.text("ANALYZE seats"))
    db.session.commit()
    compiled = status._POLL.params(slug=t.slug).compile(db.engine, compile_kwargs={"literal_binds": True})
    plan = db.session.execute(sa.text(f"EXPLAIN (ANALYZE, FORMAT JSON) {compiled}")).scalar()
    read = _seat_rows_read(plan[0]["Plan"])
    assert read <= 10, read
    assert status.poll(t.slug)["round"] == 1

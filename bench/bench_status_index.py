"""The status poll's plan on PostgreSQL beside a 2,000-player, 6-round event: the seat rows it reads and its median
execution time (EXPLAIN ANALYZE, 50 runs), with the index on seats (round_id, id) and without it.

`python -m bench.bench_status_index` (needs postgresql://postgres@127.0.0.1/test; makes and drops its own database).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("SECRET_KEY", "bench-status-index")

from app import create_app  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import User  # noqa: E402
from app.services import status  # noqa: E402
from app.services.event_files import event_writer  # noqa: E402
from app.services.event_files import restore as restore_service  # noqa: E402
from bench.bench_uploads import make_backup  # noqa: E402

ADMIN = "postgresql+psycopg2://postgres@127.0.0.1/test"
NAME = "sass_bench_status_index"


def _seat_rows(plan: dict) -> int:
    own = 0
    if plan.get("Relation Name") == "seats":
        own = (plan.get("Actual Rows", 0) + plan.get("Rows Removed by Filter", 0)) * plan.get("Actual Loops", 1)
    return own + sum(_seat_rows(c) for c in plan.get("Plans", []))


def _measure(slug: str, label: str) -> None:
    query = status._POLL.params(slug=slug).compile(db.engine, compile_kwargs={"literal_binds": True})
    times, plan = [], None
    for _ in range(50):
        plan = db.session.execute(sa.text(f"EXPLAIN (ANALYZE, FORMAT JSON) {query}")).scalar()
        times.append(plan[0]["Execution Time"])
    times.sort()
    print(f"| {label} | {_seat_rows(plan[0]['Plan']):,} | {times[len(times) // 2]:.3f} |")


def main() -> None:
    from flask_migrate import upgrade

    admin = sa.create_engine(ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f"DROP DATABASE IF EXISTS {NAME} WITH (FORCE)"))
        c.execute(sa.text(f"CREATE DATABASE {NAME}"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": sa.engine.make_url(ADMIN).set(database=NAME)
                      .render_as_string(hide_password=False)})
    try:
        with app.app_context():
            upgrade()
            owner = User(email="bench@example.com")
            owner.set_password("bench password")
            db.session.add(owner)
            db.session.commit()
            polled = event_writer.write(restore_service.read(make_backup(8, 1, seed=3)), owner, "backup")
            event_writer.write(restore_service.read(make_backup(2000, 6)), owner, "backup")  # newer seats elsewhere
            db.session.execute(sa.text("ANALYZE"))
            db.session.commit()
            print("| status poll | seat rows read | median execution (ms) |\n|---|---|---|")
            _measure(polled.slug, "with ix_seats_round_id_id")
            db.session.execute(sa.text("DROP INDEX ix_seats_round_id_id"))
            db.session.execute(sa.text("ANALYZE seats"))
            db.session.commit()
            _measure(polled.slug, "without it")
            db.session.remove()
            db.engine.dispose()
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f"DROP DATABASE IF EXISTS {NAME} WITH (FORCE)"))


if __name__ == "__main__":
    main()

"""What a player's live page costs the server per poll, beside the public status poll it joins.

`python -m bench.bench_player_live [--players 300] [--repeat 300] [--others 0]`. In process (Flask's test client,
SQLite in a temporary file; PostgreSQL too when postgresql://postgres@127.0.0.1/test answers): seed an event, pair and
publish round 1, then time, one request after another, the answers a phone asks for:

- status.json revalidated (304) and fresh (200): what every public page and player page polls;
- the player page's check (GET /t/<slug>/p/<token>/live) revalidated (304: nothing changed at the player's
  table) and fresh (200: every part's digest and HTML, what a phone asks once after a publish), and with one part
  named (?parts=me-card, as pages from before 2026-11-27 asked in a second request);
- the player page itself.

--others N first writes another event of N players x 6 rounds into the same tables (a shared server's seats).

Prints the median and 95th percentile of each, and the work per phone per minute at the intervals config.py sets
(STATUS_POLL_MS, PLAYER_CHECK_MS) next to the old 10 s status poll, in units of one revalidated status poll.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade

from app import create_app
from app.extensions import db
from app.models import Match, Player, Seat, Tournament, User
from app.services.players import player_links
from app.services.results import participation
from app.services.swiss import rounds as service

PG_ADMIN_URL = "postgresql+psycopg2://postgres@127.0.0.1/test"
PG_BENCH_DB = "sass_bench_player_live"
OLD_STATUS_MS = 10_000


def _time(fn, repeat: int) -> tuple[float, float, float]:
    """(median ms, p95 ms, mean ms of the requests' thread's CPU: the app's work and the database client's, not
    the PostgreSQL server's, nor another thread's)."""
    samples = []
    cpu = time.thread_time()
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    cpu = (time.thread_time() - cpu) * 1000 / repeat
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))], cpu


def run(uri: str, players: int, repeat: int, others: int = 0) -> list[tuple[str, float, float, float]]:
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                      "PAGE_CACHE_DIR": tempfile.mkdtemp(prefix="sass-pages-"),
                      "BACKUP_FOLLOW_SECONDS": 0})  # the claim's backup would run in a thread beside the timing
    with app.app_context():
        upgrade()
        user = User(email="bench@example.com")
        user.set_password("bench password")
        if others:  # another event's `others` players x 6 rounds in the same tables, as on a shared server
            from app.services.event_files import event_writer
            from app.services.event_files import restore as restore_service
            from bench.bench_uploads import make_backup
            db.session.add(user)
            db.session.commit()
            event_writer.write(restore_service.read(make_backup(others, 6)), user, "backup")
        t = Tournament(owner=user, name="Live Bench", format="single")
        db.session.add_all([user, t])
        db.session.flush()
        db.session.add_all(Player(tournament_id=t.id, name=f"Player {i:04d}") for i in range(players))
        db.session.commit()
        service.pair_next_round(t, 1)
        service.publish_round(t, 1)
        m = db.session.scalars(sa.select(Match).filter_by(tournament_id=t.id, is_bye=False)).first()
        corp, runner = (db.session.get(Player, s.player_id) for s in
                        sorted(db.session.scalars(sa.select(Seat).filter_by(match_id=m.id)), key=lambda s: s.side))
        slug, me = t.slug, f"/t/{t.slug}/p/{player_links.token(runner)}"
        participation.report(t, corp, m.id, "corp")  # the card has a claim to show
        if db.engine.dialect.name == "postgresql":
            db.session.execute(sa.text("ANALYZE"))
            db.session.commit()
        db.session.remove()

        client = app.test_client()
        status = client.get(f"/t/{slug}/status.json")
        live = client.get(f"{me}/live")
        assert status.status_code == 200 and live.status_code == 200
        rows = [
            ("status.json, 304", *_time(lambda: client.get(f"/t/{slug}/status.json",
                                                           headers={"If-None-Match": status.headers["ETag"]}),
                                        repeat)),
            ("status.json, 200", *_time(lambda: client.get(f"/t/{slug}/status.json"), repeat)),
            ("player live, 304", *_time(lambda: client.get(f"{me}/live",
                                                           headers={"If-None-Match": live.headers["ETag"]}),
                                        repeat)),
            ("player live, 200 (every part)", *_time(lambda: client.get(f"{me}/live"), repeat)),
            ("player live, 200, ?parts=me-card", *_time(lambda: client.get(f"{me}/live?parts=me-card"), repeat)),
            ("player page", *_time(lambda: client.get(me), max(20, repeat // 5))),
        ]
        db.engine.dispose()
    return rows


def propagation(poll_ms: int, cache_ms: int, phones: int = 100_000, jitter: float = 0.25) -> tuple[float, float]:
    """(median, p95) seconds from a publish to a phone's status poll that sees it: a model, not a measurement.
    Each phone waits poll_ms x U(1 - jitter, 1 + jitter) between polls (static/poll.js), at a random phase; a
    shared cache in front of status.json refreshes every cache_ms (always asked, so at a fixed random phase) and
    answers a poll from before the publish until its next refresh."""
    rng, seen = random.Random(1), []
    wait = lambda: poll_ms * (1 - jitter + 2 * jitter * rng.random()) / 1000
    for _ in range(phones):
        while True:  # the wait the publish falls into: a longer one is likelier
            span = wait()
            if rng.random() < span / (poll_ms * (1 + jitter) / 1000):
                break
        at, phase = rng.random() * span, rng.random() * cache_ms / 1000
        while cache_ms and math.floor((at - phase) / (cache_ms / 1000)) * cache_ms / 1000 + phase < 0:
            at += wait()  # the cached answer is older than the publish: the next poll
        seen.append(at)
    seen.sort()
    return statistics.median(seen), seen[int(0.95 * (len(seen) - 1))]


def _postgres() -> str | None:
    try:
        engine = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        with engine.connect() as c:
            c.execute(sa.text(f"DROP DATABASE IF EXISTS {PG_BENCH_DB}"))
            c.execute(sa.text(f"CREATE DATABASE {PG_BENCH_DB}"))
        engine.dispose()
    except Exception:  # noqa: BLE001 - no server: SQLite only
        return None
    return PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + PG_BENCH_DB


def _drop_postgres() -> None:
    engine = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with engine.connect() as c:
        c.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :db"),
                  {"db": PG_BENCH_DB})  # this bench's own database, left open by the app's pool
        c.execute(sa.text(f"DROP DATABASE IF EXISTS {PG_BENCH_DB}"))
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--others", type=int, default=0,
                        help="another event of this many players x 6 rounds in the same tables (0: none)")
    args = parser.parse_args()
    from config import Config

    status_ms, check_ms = Config.STATUS_POLL_MS, Config.PLAYER_CHECK_MS
    backends = [("SQLite", f"sqlite:///{tempfile.mkdtemp(prefix='sass-bench-')}/bench.db")]
    pg = _postgres()
    if pg:
        backends.append(("PostgreSQL", pg))
    print("Publish to phone (model, seconds): poll interval | shared cache | median | p95")
    for poll in sorted({status_ms, 2000, 2500, 10_000}):
        for cache in (0, 1000):
            median, p95 = propagation(poll, cache)
            print(f"| {poll / 1000:g} s | {cache / 1000:g} s | {median:.2f} | {p95:.2f} |")
    print(f"\n{args.players} players, {args.repeat} requests each, one after another (ms)")
    try:
        for name, uri in backends:
            rows = run(uri, args.players, args.repeat, args.others)
            print(f"\n{name}\n| answer | median | p95 | CPU (mean) |\n|---|---|---|---|")
            for label, median, p95, cpu in rows:
                print(f"| {label} | {median:.2f} | {p95:.2f} | {cpu:.2f} |")
            print(f"After a publish a phone asks its check once (every part's digest and HTML): "
                  f"{rows[3][3]:.1f} ms of CPU here per phone; the page itself {rows[5][3]:.1f} ms")
            unit = rows[0][1]  # one revalidated status poll
            live304 = rows[2][1]
            old = 60_000 / OLD_STATUS_MS
            print(f"\nPer phone per minute, in revalidated status polls ({unit:.2f} ms each):")
            print(f"- before: status every {OLD_STATUS_MS / 1000:g} s: {old:.1f}; the player page polled nothing")
            print(f"- now, no shared cache: status every {status_ms / 1000:g} s = {60_000 / status_ms:.1f}, "
                  f"player page check every {check_ms / 1000:g} s = {60_000 / check_ms * live304 / unit:.1f}")
            print(f"- now, status.json shared-cached 1 s (issue 18's proxy): status <= 60 per event in all, "
                  f"player page check {60_000 / check_ms * live304 / unit:.1f} per phone")
    finally:
        if pg:
            _drop_postgres()


if __name__ == "__main__":
    main()

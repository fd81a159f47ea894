"""The TO's round page at 10,000 players: entering a result there, and what the page's live poll then redraws.

`python -m bench.bench_round_entry [--players 10000] [--runs 7] [--backend all|sqlite|postgresql]` (`make
bench-round-entry`). Seeds a single-sided event with the real pairing engine (bench_web.seed: round 1 reported,
round 2 paired, published and reported), logs a TO in, then times through Flask's test client, one request after
another:

- the round page itself (its size, and gzipped as nginx sends it: deploy/nginx-sass.conf);
- a result entered as the page's script posts it (Accept: application/json: the saved row and the page's live parts
  come back drawn, app/web/views/rounds.py report);
- the page's live poll after that result (its ETag is now stale: every part's digest), and the parts it then asks.

Each row: the median wall time and the median CPU of the request's thread (the app and the database client, not
the PostgreSQL server), since the machine is shared. The app's garbage collector is set as deploy/gunicorn.conf.py
sets a worker's (the app's objects frozen, a collection per 20,000 new objects; --default-gc: Python's default),
and automatic backups after results are off (they run in a thread of their own). Target: a result entered answers
in <= 0.3 s (issue 32).
"""
from __future__ import annotations

import argparse
import gc
import gzip
import os
import random
import runpy
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from app import create_app  # noqa: E402
from app.extensions import db  # noqa: E402
from bench.bench_web import EMAIL, PASSWORD, drop_postgres, postgres_url, seed  # noqa: E402

TARGET_S = 0.3
GC_THRESHOLD = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))["GC_THRESHOLD"]
DEFAULT_GC = gc.get_threshold()
JSON = {"Accept": "application/json"}


def _timed(fn, runs: int) -> tuple[float, float, object]:
    """(median wall ms, median CPU ms, the last answer) over `runs` calls after one warm-up."""
    fn()
    walls, cpus, answer = [], [], None
    for _ in range(runs):
        w, c = time.perf_counter(), time.thread_time()
        answer = fn()
        walls.append((time.perf_counter() - w) * 1000)
        cpus.append((time.thread_time() - c) * 1000)
    return statistics.median(walls), statistics.median(cpus), answer


def measure(uri: str, players: int, runs: int, default_gc: bool) -> list[tuple[str, float, float, str]]:
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "TESTING": True, "WTF_CSRF_ENABLED": False,
                      "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False, "BACKUP_FOLLOW_SECONDS": 0})
    with app.app_context():
        upgrade()
    info = seed(app, players, 2, random.Random(2026))
    if not default_gc:  # as deploy/gunicorn.conf.py: pre_fork freezes, post_fork sets the threshold
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLD)
    tid, stored = info["tid"], info["matches"][2]
    client = app.test_client()
    assert client.post("/login", data={"email": EMAIL, "password": PASSWORD}).status_code in (302, 303)
    page_url, live_url = f"/tournaments/{tid}/rounds/2", f"/tournaments/{tid}/rounds/2/live"
    rows = []

    wall, cpu, page = _timed(lambda: client.get(page_url), runs)
    assert page.status_code == 200
    body = page.get_data()
    rows.append(("round page", wall, cpu, f"{len(body) / 1e6:.2f} MB, gzipped {len(gzip.compress(body, 1)) / 1e6:.2f} MB"))

    ids = iter(list(stored) * 2)

    def enter():
        mid = next(ids)
        key = stored[mid] = "runner" if stored[mid] == "corp" else "corp"
        answer = client.post(f"/tournaments/{tid}/matches/{mid}/result", data={"result": key}, headers=JSON)
        assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
        return answer

    wall, cpu, answer = _timed(enter, runs)
    rows.append(("a result entered (JSON, its row and parts)", wall, cpu, f"{len(answer.get_data()) / 1e3:.1f} KB"))

    etag = client.get(live_url, headers=JSON).headers["ETag"]

    def poll():
        enter()  # another device's result: the page's ETag is stale
        w, c = time.perf_counter(), time.thread_time()
        answer = client.get(live_url, headers={**JSON, "If-None-Match": etag})
        return answer, (time.perf_counter() - w) * 1000, (time.thread_time() - c) * 1000

    polls = [poll() for _ in range(runs + 1)][1:]
    last = polls[-1][0]
    assert last.status_code == 200
    rows.append(("live poll after a result (every digest)", statistics.median(p[1] for p in polls),
                 statistics.median(p[2] for p in polls), f"{len(last.get_data()) / 1e3:.1f} KB"))
    wall, cpu, parts = _timed(lambda: client.get(f"{live_url}?parts=t1,report-counts,unreported-line",
                                                 headers=JSON), runs)
    rows.append(("live poll, 3 parts drawn", wall, cpu, f"{len(parts.get_data()) / 1e3:.1f} KB"))
    wall, cpu, same = _timed(lambda: client.get(live_url, headers={**JSON, "If-None-Match": last.headers["ETag"]}),
                             runs)
    assert same.status_code == 304
    rows.append(("live poll, unchanged (304)", wall, cpu, ""))
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    gc.unfreeze()
    gc.set_threshold(*DEFAULT_GC)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--backend", choices=("all", "sqlite", "postgresql"), default="all")
    parser.add_argument("--default-gc", action="store_true", help="Python's garbage collector as it starts")
    args = parser.parse_args(argv)
    backends = []
    if args.backend in ("all", "sqlite"):
        backends.append(("SQLite", f"sqlite:///{tempfile.mkdtemp(prefix='sass-bench-')}/bench.db", None))
    if args.backend in ("all", "postgresql"):
        url = postgres_url()
        if url is not None:
            backends.append(("PostgreSQL", url, drop_postgres))
    print(f"The TO's round page, {args.players} players ({args.players // 2} tables), median of {args.runs}, "
          f"{'default' if args.default_gc else 'gunicorn.conf'} garbage collector; "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    missed = []
    for name, uri, cleanup in backends:
        try:
            rows = measure(uri, args.players, args.runs, args.default_gc)
        finally:
            if cleanup:
                cleanup()
        print(f"\n{name}\n| request | median ms | CPU ms | size |\n|---|---:|---:|---|")
        for label, wall, cpu, size in rows:
            print(f"| {label} | {wall:.1f} | {cpu:.1f} | {size} |")
        if rows[1][1] > TARGET_S * 1000:
            missed.append(f"{name}: a result entered took {rows[1][1]:.0f} ms")
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}. "
          + ("Missed: " + "; ".join(missed) if missed else f"A result entered answers within {TARGET_S} s."))
    return 0


if __name__ == "__main__":
    sys.exit(main())

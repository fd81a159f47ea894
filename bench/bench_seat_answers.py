"""What the app pays for a round's 64 seats answers at a publish (app/web/seat_answers.py), in one process.

`python -m bench.bench_seat_answers`: a 10,000-player event on PostgreSQL (database `sass_bench_seats`, dropped
afterwards), its last round published and withdrawn `--runs` times (as bench/bench_hall.py's Publisher does). Each
publish is answered twice, from a fresh worker's state: the hall's 64 first bucket asks from 8 threads at once (the
app lane's 2 workers x 4 threads) with nothing made ahead, as before; then the first status.json, which makes the
answers ahead, the next status, another worker's first status (reading the shared files), and the same 64 asks.
Wall and CPU of this process each; a loaded machine stretches the wall times, the CPU less so.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from app.services.swiss import seat_lookup  # noqa: E402
from app.web import page_cache, seat_answers  # noqa: E402
from bench.bench_proxy_load import ROUNDS, SECRET, Publisher, seed  # noqa: E402
from bench.bench_web import drop_postgres, postgres_url  # noqa: E402

DB_NAME = "sass_bench_seats"


def timed(work) -> tuple[float, float]:
    """(wall ms, this process's CPU ms) of `work()`."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    uri = postgres_url(DB_NAME)
    if uri is None:
        raise SystemExit("PostgreSQL does not answer at 127.0.0.1:5432")
    pages = tempfile.TemporaryDirectory(prefix="sass-seats-bench-")
    try:
        events, _ = seed(uri, sizes=(args.players,), links_of=1)
        tid, slug = events[args.players]
        pub = Publisher(uri)
        app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": SECRET,
                          "PAGE_CACHE_DIR": pages.name})
        status = f"/t/{slug}/status.json"

        def asks(buckets) -> None:
            client = app.test_client()
            for b in buckets:
                assert client.get(f"/api/tournaments/{slug}/rounds/{ROUNDS}/seats/{b}").status_code == 200

        def hall() -> None:
            threads = [threading.Thread(target=asks, args=(range(k, 64, 8),)) for k in range(8)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()

        def fresh_worker() -> None:
            page_cache.clear_memory()
            seat_answers.forget()
            seat_lookup._ROUNDS.clear()

        client = app.test_client()
        print(f"{args.players:,} players, round {ROUNDS}; ms wall / ms CPU")
        print("| run | 64 asks, nothing made | first status (makes them) | next status | another worker's first "
              "status | 64 asks then |")
        print("|---|---:|---:|---:|---:|---:|")
        for run in range(args.runs):
            cells = []
            for ahead in (False, True):
                pub.set(tid, False)
                client.get(status)
                pub.set(tid, True)
                fresh_worker()
                if ahead:
                    cells.append(timed(lambda: client.get(status)))
                    cells.append(timed(lambda: client.get(status)))
                    fresh_worker()
                    cells.append(timed(lambda: client.get(status)))
                cells.append(timed(hall))
            print(f"| {run + 1} | " + " | ".join(f"{w:.0f} / {c:.0f}" if w >= 10 else f"{w:.1f} / {c:.1f}"
                                                 for w, c in cells) + " |", flush=True)
        pub.set(tid, False)
        pub.close()
    finally:
        drop_postgres(DB_NAME)
        pages.cleanup()


if __name__ == "__main__":
    main()

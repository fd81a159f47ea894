"""Big events' backups and restores: players x rounds -> seconds.

`python -m bench.bench_restore_sizes` (`make bench-restore`). For each size (default 2,000 x 6, 5,000 x 8 and
10,000 x 10) on SQLite (a temporary file) and PostgreSQL (database `sass_bench_restore`, created and dropped here,
when postgresql://postgres@127.0.0.1/test answers): the event is written once from a generated backup (bench_uploads'
make_backup, a finished single-sided swiss), then, --runs times, its own backup is made and gzipped as the download
and the automatic backups make it (app/services/event_files/backup.py) and restored as a new event
(app/services/event_files/restore.py: unpack, check every value, bulk-write in one transaction), each timed. Prints the
medians, the gzipped and the unpacked size, and whether the file fits the 2 MB upload limit and the 32 MB unpacked
limit. Before round_tables (app/services/swiss/round_tables.py), a 10,000 x 10 backup took 142 s on SQLite: the backup,
not the restore, was slow.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import Tournament, User  # noqa: E402
from app.services.event_files import backup, event_writer, restore  # noqa: E402
from app.services.event_files.jsonfile import MAX_UNPACKED  # noqa: E402
from bench.bench_uploads import make_backup  # noqa: E402
from bench.bench_web import drop_postgres, postgres_url  # noqa: E402

DB_NAME = "sass_bench_restore"
SIZES = ((2000, 6), (5000, 8), (10000, 10))
UPLOAD_LIMIT = 2 * 2**20


def measure(uri: str, sizes, runs: int) -> list[tuple]:
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "bench", "TESTING": True})
    rows = []
    with app.app_context():
        db.create_all()
        owner = User(email="bench-restore@example.com")
        owner.set_password("bench password")
        db.session.add(owner)
        db.session.commit()
        for players, rounds in sizes:
            t = event_writer.write(restore.read(make_backup(players, rounds)), owner, "backup")
            if db.engine.dialect.name == "postgresql":
                db.session.execute(sa.text("ANALYZE"))  # as on a site in use
                db.session.commit()
            backups, restores, cpu = [], [], []
            for _ in range(runs):
                db.session.expire_all()
                started = time.perf_counter()
                packed = backup.packed(backup.backup(db.session.get(Tournament, t.id)))
                backups.append(time.perf_counter() - started)
                started, used = time.perf_counter(), time.process_time()
                copy = restore.restore(packed, owner)
                restores.append(time.perf_counter() - started)
                cpu.append(time.process_time() - used)
                db.session.execute(sa.delete(Tournament).where(Tournament.id == copy.id))  # ON DELETE CASCADE
                db.session.commit()
            unpacked = len(json.dumps(backup.backup(db.session.get(Tournament, t.id)), separators=(",", ":")))
            rows.append((db.engine.dialect.name, players, rounds, statistics.median(backups),
                         statistics.median(restores), statistics.median(cpu), len(packed), unpacked))
            print(f"  {rows[-1][0]} {players} x {rounds}: backup {rows[-1][3]:.1f} s, restore {rows[-1][4]:.1f} s",
                  flush=True)
        db.session.remove()
        db.engine.dispose()
    return rows


def table(rows) -> str:
    lines = ["| backend | players x rounds | backup s (median) | restore s (median) | restore's app CPU s "
             "| gzipped MB | unpacked MB | fits 2 MB upload and 32 MB unpacked |",
             "|---|---|---:|---:|---:|---:|---:|---|"]
    for backend, players, rounds, made, restored, cpu, packed, unpacked in rows:
        fits = "yes" if packed <= UPLOAD_LIMIT and unpacked <= MAX_UNPACKED else "no"
        lines.append(f"| {backend} | {players:,} x {rounds} | {made:.1f} | {restored:.1f} | {cpu:.1f} "
                     f"| {packed / 2**20:.2f} "
                     f"| {unpacked / 2**20:.1f} | {fits} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default=",".join(f"{p}x{r}" for p, r in SIZES),
                        help="players x rounds, comma-separated (default %(default)s)")
    args = parser.parse_args()
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        print("sqlite", flush=True)
        rows += measure(f"sqlite:///{tmp}/bench.db", sizes, args.runs)
    uri = postgres_url(DB_NAME)
    if uri is None:
        print("PostgreSQL does not answer: skipped")
    else:
        try:
            print("postgresql", flush=True)
            rows += measure(uri, sizes, args.runs)
        finally:
            drop_postgres(DB_NAME)
    print(time.strftime("%Y-%m-%d"), "restore sizes")
    print(table(rows))


if __name__ == "__main__":
    main()

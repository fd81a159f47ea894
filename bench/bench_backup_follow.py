"""What the automatic backups after results cost at 2,000 players: `python -m bench.bench_backup_follow`
(`make bench-backup-follow`).

On SQLite (a temporary file): a 2,000-player single-sided event of 6 rounds (bench_uploads' make_backup) whose last
round is then played again result by result. It times (1) one automatic backup (app/services/event_files/backup.py
`keep`: read the whole event, gzip, write, prune), (2) what a result's request pays for it (`follow` with a write
already due: it only notes the result), and (3) a burst of results reported as fast as one process can (match_results
.report_result, the TO's path) with BACKUP_FOLLOW_SECONDS as configured and with the backups off: the process CPU
(every thread: the timer's writes too) per result, and how many backups the burst wrote.
"""
from __future__ import annotations

import argparse
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
from app.core import results  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import Match, Round, Tournament, User  # noqa: E402
from app.services.event_files import backup, event_writer, restore  # noqa: E402
from app.services.results import match_results  # noqa: E402
from bench.bench_uploads import make_backup  # noqa: E402


def burst(t: Tournament, matches: list[int], follow_seconds: float, app) -> tuple[float, float, int]:
    """(CPU s per result, wall s per result, backups written) for one result per match, back to back; waits for
    the last backup the burst owes before reading the CPU."""
    app.config["BACKUP_FOLLOW_SECONDS"] = follow_seconds
    where = backup.folder() / t.slug
    before = len(list(where.glob("*.json.gz"))) if where.exists() else 0
    cpu, wall = time.process_time(), time.perf_counter()
    for i, mid in enumerate(matches):
        key = "corp" if i % 2 else "runner"
        match_results.report_result(t, mid, results.outcome(t.fmt, key), match_results.Actor("organizer"),
                                    past=True)
    reported = time.perf_counter() - wall
    while backup._due:  # the timer's last write, counted in the CPU
        time.sleep(0.05)
    cpu = time.process_time() - cpu
    written = len(list(where.glob("*.json.gz"))) - before if where.exists() else 0
    return cpu / len(matches), reported / len(matches), written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--results", type=int, default=300, help="results in the burst")
    parser.add_argument("--follow", type=float, default=5.0, help="BACKUP_FOLLOW_SECONDS")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.db", "SECRET_KEY": "bench",
                          "TESTING": True, "BACKUP_DIR": f"{tmp}/backups", "BACKUPS_KEPT": 1000,
                          "BACKUP_FOLLOW_SECONDS": 0})
        with app.app_context():
            db.create_all()
            owner = User(email="bench-follow@example.com")
            owner.set_password("bench password")
            db.session.add(owner)
            db.session.commit()
            t = event_writer.write(restore.read(make_backup(args.players, args.rounds)), owner, "backup")
            tid = t.id
            writes, cpus, sizes = [], [], []
            for _ in range(3):
                t = db.session.get(Tournament, tid)
                wall, cpu = time.perf_counter(), time.process_time()
                path = backup.keep(t, "bench")
                writes.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
                sizes.append(path.stat().st_size)
            last = db.session.scalar(sa.select(Round.id).filter_by(tournament_id=tid, number=args.rounds))
            matches = db.session.scalars(sa.select(Match.id).filter_by(round_id=last, is_bye=False)
                                         .order_by(Match.table).limit(args.results)).all()

            app.config["BACKUP_FOLLOW_SECONDS"] = 3600.0  # one write due for an hour: every call coalesces
            t = db.session.get(Tournament, tid)
            backup.follow(t)
            started = time.perf_counter()
            for _ in range(1000):
                backup.follow(t)
            noted = (time.perf_counter() - started) / 1000
            for due in backup._due.values():
                due.timer.cancel()
            backup._due.clear()

            t = db.session.get(Tournament, tid)
            off = burst(t, matches, 0, app)
            on = burst(t, matches, args.follow, app)
        print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              f"automatic backups after results, {args.players:,} players x {args.rounds} rounds, SQLite")
        print("| measure | value |\n|---|---:|")
        print(f"| one automatic backup, wall s (median of 3) | {statistics.median(writes):.2f} |")
        print(f"| one automatic backup, CPU s (median of 3) | {statistics.median(cpus):.2f} |")
        print(f"| its size, MB (gzip) | {statistics.median(sizes) / 2**20:.2f} |")
        print(f"| a result's request: `follow` with a write already due, µs | {noted * 1e6:.0f} |")
        print(f"| burst of {len(matches)} results, backups off: CPU ms per result | {off[0] * 1000:.1f} |")
        print(f"| same, BACKUP_FOLLOW_SECONDS={args.follow:g}: CPU ms per result | {on[0] * 1000:.1f} |")
        print(f"| backups the burst wrote ({on[1] * len(matches):.1f} s of reporting) | {on[2]} |")


if __name__ == "__main__":
    main()

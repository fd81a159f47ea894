"""Online events and the decklists' step before round 1, at GP size: what one dashboard view and one report-code
proof cost.

`python -m bench.bench_online` builds a SQLite event (a temporary file) of --players players, each with a
jinteki.net username, and a Corp and a Runner list for all but one in twenty (one list in ten invalid, ~1.5 kB of
text each), then prints the median of --repeat runs of: the decklists' counts the next step reads
(decklists.gaps) beside the full review they stand in for, the whole next step (next_step.for_tournament), the
handles the pairings read (online.handles.of_event), and through the app (test client): the report page, a wrong
code and a right one (throttling off).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
from flask_migrate import upgrade  # noqa: E402

from app import create_app  # noqa: E402
from app.core.names import name_key  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import Decklist, Player, Tournament, User  # noqa: E402
from app.services import decklists, next_step  # noqa: E402
from app.services.online import handles, report_codes  # noqa: E402

TEXT = "\n".join(f"3x Card number {i}" for i in range(80))  # about 1.5 kB, like a pasted list
CARDS = [[f"{30000 + i:05d}", 3] for i in range(15)]


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def seed(players: int) -> Tournament:
    owner = User(email="bench@example.com", password_hash="x")
    db.session.add(owner)
    db.session.flush()
    t = Tournament(owner_id=owner.id, name="Online GP", online=True, decklists=True)
    db.session.add(t)
    db.session.flush()
    db.session.execute(sa.insert(Player), [
        {"tournament_id": t.id, "name": f"Player {i}", "name_key": name_key(f"Player {i}"),
         "jinteki_name": f"jnet{i}", "discord": f"disc{i}" if i % 3 else "", "link_key": f"{i:032x}"}
        for i in range(players)])
    ids = [pid for (pid,) in db.session.execute(db.select(Player.id).filter_by(tournament_id=t.id))]
    db.session.execute(sa.insert(Decklist), [
        {"tournament_id": t.id, "player_id": pid, "side": side, "text": TEXT, "cards": CARDS,
         "valid": (n + k) % 10 != 0, "problems": [], "updated_by": "player"}
        for n, pid in enumerate(ids) if n % 20 for k, side in enumerate(("corp", "runner"))])
    db.session.commit()
    return t


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("SECRET_KEY", "bench")
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.db", "RATELIMIT_ENABLED": False,
                          "WTF_CSRF_ENABLED": False, "PAGE_CACHE_DIR": f"{tmp}/pages", "TESTING": True})
        with app.app_context():
            upgrade(directory=str(ROOT / "migrations"))
            t = seed(args.players)
            gaps = decklists.gaps(t)
            someone = db.session.scalars(db.select(Player).filter_by(tournament_id=t.id).limit(1)).one()
            right = report_codes.code(someone)
            rows = [
                ("decklists.gaps (the step's counts)", median_ms(lambda: decklists.gaps(t), args.repeat)),
                ("decklists.review (the full review)", median_ms(lambda: decklists.review(t), args.repeat)),
                ("next_step.for_tournament before round 1", median_ms(lambda: next_step.for_tournament(t),
                                                                      args.repeat)),
                ("online.handles.of_event (the pairings' handles)", median_ms(lambda: handles.of_event(t),
                                                                              args.repeat)),
            ]
            client = app.test_client()
            url = f"/t/{t.slug}/report"
            rows += [
                ("GET the report page", median_ms(lambda: client.get(url), args.repeat)),
                ("POST a wrong code", median_ms(lambda: client.post(url, data={"who": someone.jinteki_name,
                                                                              "code": "000000"}), args.repeat)),
                ("POST the right code", median_ms(lambda: client.post(url, data={"who": someone.name,
                                                                                "code": right}), args.repeat)),
            ]
        print(f"{args.players} players, {gaps.missing} missing a list, {gaps.invalid} invalid lists; "
              f"median of {args.repeat}\n")
        print("| step | ms |\n|---|---:|")
        for label, ms in rows:
            print(f"| {label} | {ms:.1f} |")


if __name__ == "__main__":
    main()

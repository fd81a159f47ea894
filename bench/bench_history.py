"""A player's history page (app/web/views/nrdb.py `history`, services/nrdb/history.py) when their NetrunnerDB account
is linked to 100 events.

`python -m bench.bench_history` writes 100 single-sided events in bulk (each --players players, --rounds published
rounds paired at random, results Corp win 48%, Runner win 48%, tie 4%; every fifth event also has a top-8 single
elimination cut played through the cut service), links one entry of each to one account, and prints a markdown
table: the median and worst over --runs of building the history (the service alone) and of the whole page as the
signed-in player's browser gets it, first (no line of the history kept, standings recomputed) and again (the
lines kept per event version), wall clock and this process's CPU, and the statements each runs. SQLite in a
temporary folder. Nothing talks to NetrunnerDB: the browser's sign-in is put in its session directly.
"""
from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from app import create_app  # noqa: E402
from app.core.names import name_key  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import Match, NrdbAccount, Player, Round, Seat, Tournament, User  # noqa: E402
from app.services import cut as cut_service  # noqa: E402
from app.services import state  # noqa: E402
from app.services.nrdb import history  # noqa: E402
from app.web import nrdb_oauth  # noqa: E402

RESULTS = (("corp", 48), ("runner", 48), ("tie", 4))
POINTS = {"corp": (3, 0), "runner": (0, 3), "tie": (1, 1)}


def seed(events: int, players: int, rounds: int, rng: random.Random) -> int:
    """The events and the account; returns the account's NetrunnerDB id."""
    user = User(email="bench@example.com")
    user.set_password("bench password")
    account = NrdbAccount(nrdb_id=777, username="bench_player")
    db.session.add_all([user, account])
    db.session.commit()
    keys, weights = zip(*RESULTS)
    for e in range(events):
        t = Tournament(owner=user, name=f"Store Champs {e:03d}", format="single", planned_rounds=rounds,
                       date=date(2025, 1, 1) + timedelta(days=3 * e))
        db.session.add(t)
        db.session.flush()
        db.session.execute(sa.insert(Player), [
            {"tournament_id": t.id, "name": f"Player {i:03d}", "name_key": name_key(f"Player {i:03d}"),
             "corp_identity": "Haas-Bioroid: Precision Design", "runner_identity": "Zahya Sadeghi: Versatile Smuggler",
             "nrdb_account_id": account.id if i == 0 else None} for i in range(players)])
        ids = list(db.session.scalars(sa.select(Player.id).filter_by(tournament_id=t.id).order_by(Player.id)))
        for number in range(1, rounds + 1):
            rnd = Round(tournament_id=t.id, number=number, published=True)
            db.session.add(rnd)
            db.session.flush()
            order = ids[:]
            rng.shuffle(order)
            seats = []
            for table, (a, b) in enumerate(zip(order[::2], order[1::2]), 1):
                result = rng.choices(keys, weights)[0]
                m = Match(tournament_id=t.id, round_id=rnd.id, table=table, result=result)
                db.session.add(m)
                db.session.flush()
                pa, pb = POINTS[result]
                seats += [{"tournament_id": t.id, "round_id": rnd.id, "match_id": m.id, "player_id": a,
                           "position": 1, "side": "corp", "points": pa},
                          {"tournament_id": t.id, "round_id": rnd.id, "match_id": m.id, "player_id": b,
                           "position": 2, "side": "runner", "points": pb}]
            db.session.execute(sa.insert(Seat), seats)
        db.session.commit()
        if e % 5 == 0:
            cut_service.create(t, 8, "single")
            while True:
                bracket = cut_service.bracket(t)
                game = next((g for g in bracket.games if g.ready and not g.reported), None)
                if game is None:
                    break
                cut = cut_service.load(t)
                if cut.sides(game) is None:  # the higher seed's side choice, recorded first
                    cut_service.set_corp(t, game.id, rng.choice(game.players))
                cut_service.report(t, game.id, rng.choice(game.players))
    return account.nrdb_id


def _statements(app):
    count = [0]

    def on(*_):
        count[0] += 1

    sa.event.listen(db.engine, "before_cursor_execute", on)
    return count, lambda: sa.event.remove(db.engine, "before_cursor_execute", on)


def measure(fn, runs: int) -> tuple[float, float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls) * 1000, max(walls) * 1000, statistics.median(cpus) * 1000


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    folder = tempfile.mkdtemp(prefix="sass-bench-history-")
    try:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db", "PAGE_CACHE_DIR": folder,
                          "BACKUP_DIR": folder, "NRDB_CLIENT_ID": "bench", "NRDB_CLIENT_SECRET": "bench",
                          "NRDB_URL": "http://127.0.0.1:9", "RATELIMIT_ENABLED": False})
        with app.app_context():
            upgrade()
            started = time.perf_counter()
            nrdb_id = seed(args.events, args.players, args.rounds, random.Random(35))
            seeded = time.perf_counter() - started
            account = db.session.scalar(sa.select(NrdbAccount).filter_by(nrdb_id=nrdb_id))
            lines = history.history(account)
            games = sum(len(line.games) for line in lines)
            client = app.test_client()
            with client.session_transaction() as s:
                s[nrdb_oauth.SIGNED_IN] = {"account": account.id, "nrdb_id": nrdb_id, "username": account.username,
                                           "until": int(time.time()) + 3600}
            page = client.get(f"/nrdb/players/{nrdb_id}")
            assert page.status_code == 200 and page.get_data(as_text=True).count("history-event") == args.events
            history.forget_cached()
            count, stop = _statements(app)
            history.history(account)
            service_statements = count[0]
            count[0] = 0
            history.forget_cached()
            client.get(f"/nrdb/players/{nrdb_id}")
            page_statements = count[0]
            stop()
            def first(fn):
                def run():
                    history.forget_cached()
                    state._STANDINGS_CACHE.clear()
                    db.session.expire_all()
                    fn()
                return run

            service = measure(first(lambda: history.history(account)), args.runs)
            whole = measure(first(lambda: client.get(f"/nrdb/players/{nrdb_id}")), args.runs)
            again = measure(lambda: client.get(f"/nrdb/players/{nrdb_id}"), args.runs)
            count, stop = _statements(app)
            client.get(f"/nrdb/players/{nrdb_id}")
            again_statements = count[0]
            stop()
        print(f"{args.events} events of {args.players} players, {args.rounds} rounds (a top-8 cut in every fifth); "
              f"{games} games in the history; page {len(page.data) // 1024} KiB; seeded in {seeded:.1f} s\n")
        print("| what | median ms | worst ms | CPU ms (median) | statements |")
        print("|---|---:|---:|---:|---:|")
        print(f"| the history (service), first view | {service[0]:.0f} | {service[1]:.0f} | {service[2]:.0f} | "
              f"{service_statements} |")
        print(f"| the whole page (GET, signed in), first view | {whole[0]:.0f} | {whole[1]:.0f} | {whole[2]:.0f} | "
              f"{page_statements} |")
        print(f"| the whole page again (lines kept) | {again[0]:.0f} | {again[1]:.0f} | {again[2]:.0f} | "
              f"{again_statements} |")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

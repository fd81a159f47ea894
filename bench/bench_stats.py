"""Event statistics benchmark: building the statistics of a 2,000-player, 15-round single-sided event.

`python -m bench.bench_stats` prints a markdown table: the median (wall clock, and this process's CPU) over
--runs of reading the published tables, the cut and the players (services/event_stats.build), of the counting
alone (app/core/event_stats.py on tables already read), and of the whole statistics page and API answer as a
worker builds them (page cache emptied before each request). SQLite in a temporary folder, and PostgreSQL
(database `sass_bench`, made and dropped here) when postgresql://postgres@127.0.0.1/test answers. The event is
written in bulk, no engine: each round pairs the players still in at random within rough score groups, the odd
one out gets a bye, 2% drop per round from round 3, results are Corp win 47%, Runner win 47%, tie 4%,
intentional draw 2%; identities are the card data's, and a top-16 double-elimination cut is played through the
cut service.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from app import create_app  # noqa: E402
from app.core import event_stats as core  # noqa: E402
from app.core.identities import identities  # noqa: E402
from app.core.names import name_key  # noqa: E402
from app.core.results import BYE, outcome  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import Match, Player, Round, Seat, Tournament, User  # noqa: E402
from app.services import cut as cut_service  # noqa: E402
from app.services import event_stats  # noqa: E402
from app.web import page_cache  # noqa: E402
from bench.bench_web import drop_postgres, postgres_url  # noqa: E402

RESULT_WEIGHTS = {"corp": 47, "runner": 47, "tie": 4, "id": 2}
DROP_RATE = 0.02
OUT = ROOT / "bench" / "out"


def seed(app, players: int, rounds: int, rng: random.Random) -> dict:
    """The event, written in bulk; returns its id and slug."""
    corps, runners = identities()["corp"], identities()["runner"]
    with app.app_context():
        user = User(email="bench@example.com")
        user.set_password("bench password")
        t = Tournament(owner=user, name="Bench Worlds", format="single", planned_rounds=rounds)
        db.session.add_all([user, t])
        db.session.commit()
        db.session.execute(sa.insert(Player), [
            {"tournament_id": t.id, "name": f"Player {i:05d}", "name_key": name_key(f"Player {i:05d}"),
             "corp_identity": rng.choice(corps[:60]), "runner_identity": rng.choice(runners[:60])}
            for i in range(players)])
        ids = list(db.session.scalars(sa.select(Player.id).filter_by(tournament_id=t.id).order_by(Player.id)))
        points = dict.fromkeys(ids, 0)
        active, had_bye, dropped = list(ids), set(), set()
        keys, weights = zip(*RESULT_WEIGHTS.items())
        for number in range(1, rounds + 1):
            if number >= 3:
                leaving = {p for p in active if rng.random() < DROP_RATE}
                dropped |= leaving
                active = [p for p in active if p not in leaving]
            order = active[:]
            rng.shuffle(order)
            order.sort(key=points.__getitem__, reverse=True)
            tables = []
            if len(order) % 2:
                bye = next(p for p in reversed(order) if p not in had_bye)
                had_bye.add(bye)
                order.remove(bye)
                tables.append((bye, None, BYE))
            tables = [(a, b, rng.choices(keys, weights)[0]) for a, b in zip(order[0::2], order[1::2])] + tables
            round_id = db.session.scalar(sa.insert(Round).returning(Round.id),
                                         [{"tournament_id": t.id, "number": number, "published": True}])
            match_ids = db.session.scalars(sa.insert(Match).returning(Match.id, sort_by_parameter_order=True), [
                {"tournament_id": t.id, "round_id": round_id, "table": n, "is_bye": b is None, "result": key,
                 "intentional_draw": key == "id", "drawn_games": 0}
                for n, (a, b, key) in enumerate(tables, 1)]).all()
            seats = []
            for mid, (a, b, key) in zip(match_ids, tables):
                if b is None:
                    seats.append({"tournament_id": t.id, "round_id": round_id, "match_id": mid, "player_id": a,
                                  "position": 1, "side": None, "points": 3, "games_won": 0})
                    points[a] += 3
                    continue
                pa, pb = outcome(t.fmt, key).points
                points[a] += pa
                points[b] += pb
                seats += [{"tournament_id": t.id, "round_id": round_id, "match_id": mid, "player_id": a,
                           "position": 1, "side": "corp", "points": pa, "games_won": 0},
                          {"tournament_id": t.id, "round_id": round_id, "match_id": mid, "player_id": b,
                           "position": 2, "side": "runner", "points": pb, "games_won": 0}]
            db.session.execute(sa.insert(Seat), seats)
        if dropped:
            db.session.execute(sa.update(Player).where(Player.id.in_(dropped)).values(dropped=True))
        db.session.commit()
        t = db.session.get(Tournament, t.id)
        cut_service.create(t, 16, "double")
        while True:
            cut = cut_service.load(t)
            ready = cut.bracket.ready_games()
            if not ready:
                break
            game = ready[0]
            if cut.sides(game) is None:
                cut_service.set_corp(t, game.id, game.higher_seed)
            cut_service.report(t, game.id, rng.choice(game.players))
        info = {"tid": t.id, "slug": t.slug}
        db.session.remove()
        if db.engine.dialect.name == "postgresql":
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.execute(sa.text("ANALYZE"))
    return info


def median_ms(fn, runs: int) -> tuple[float, float]:
    """(median wall-clock ms, median CPU ms of this process): on a shared, loaded machine the CPU time is the
    steadier figure (PostgreSQL's own work is in the wall clock only)."""
    times, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(times) * 1000, statistics.median(cpu) * 1000


def measure(backend: str, uri: str, players: int, rounds: int, runs: int, pages: Path) -> list[tuple]:
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "PAGE_CACHE_DIR": str(pages), "TESTING": True,
                      "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False})
    with app.app_context():
        upgrade()
    t0 = time.perf_counter()
    info = seed(app, players, rounds, random.Random(21))
    seed_s = time.perf_counter() - t0
    rows = []
    with app.app_context():
        t = db.session.get(Tournament, info["tid"])
        built = event_stats.build(t)
        games = built.swiss.games + built.swiss.intentional_draws
        rows.append((backend, "services/event_stats.build (read + count)", median_ms(lambda: event_stats.build(t),
                                                                                    runs)))
        rows.append((backend, "reading the published tables", median_ms(lambda: event_stats.tables(t), runs)))
        entries, tables = event_stats.entries(t), event_stats.tables(t)
        bracket = cut_service.bracket(t)
        cut_games = (bracket.seeds, core.cut_games(t.fmt, bracket.games))
        rows.append((backend, "app/core/event_stats.event_stats (counting alone)",
                     median_ms(lambda: core.event_stats(t.fmt, entries, tables, cut_games), runs)))
        db.session.remove()
    client = app.test_client()

    def cold(url):
        def get():
            page_cache.clear_memory()
            shutil.rmtree(pages, ignore_errors=True)
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
        return get

    for what, url in (("the statistics page, built", f"/t/{info['slug']}/stats"),
                      ("the statistics API answer, built", f"/api/tournaments/{info['slug']}/stats")):
        rows.append((backend, what, median_ms(cold(url), runs)))
    warm = f"/t/{info['slug']}/stats"
    client.get(warm)
    rows.append((backend, "the statistics page, from the page cache", median_ms(lambda: client.get(warm), runs)))
    print(f"{backend}: seeded in {seed_s:.1f} s; {games} swiss games, {built.byes} byes, "
          f"{built.swiss.intentional_draws} intentional draws, {built.cut.games} cut games", file=sys.stderr)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args(argv)
    os.environ["RATELIMIT_ENABLED"] = "0"
    rows = []
    with tempfile.TemporaryDirectory(prefix="sass-stats-") as tmp:
        rows += measure("SQLite", f"sqlite:///{Path(tmp) / 'bench.db'}", args.players, args.rounds, args.runs,
                        Path(tmp) / "pages")
        pg = None if args.sqlite_only else postgres_url()
        if pg:
            try:
                rows += measure("PostgreSQL", pg, args.players, args.rounds, args.runs, Path(tmp) / "pg-pages")
            finally:
                drop_postgres()
    header = (f"Event statistics: {args.players} players, {args.rounds} rounds single-sided, a top-16 cut; "
              f"median of {args.runs} runs, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}.")
    lines = [header, "", "| backend | what | median ms | median CPU ms |", "|---|---|---:|---:|"]
    lines += [f"| {b} | {w} | {ms:.1f} | {cpu:.1f} |" for b, w, (ms, cpu) in rows]
    report = "\n".join(lines)
    print(report)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "bench_stats.md").write_text(report + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Series standings across 50 events of 100 players (app/services/series/standings.py `build`).

`python -m bench.bench_series` (or `make bench-series`) writes --events single-sided events in bulk, each --players
entrants drawn from a club of --pool names (a third of the club linked to NetrunnerDB accounts, so entries join by
account, and the rest are matched by name suggestions), --rounds published rounds paired at random (Corp win 48%,
Runner win 48%, tie 4%), a top-8 single elimination cut played through the cut service in every fifth; puts them
all in one series (best 10 results, scaled by field, two tiers), and prints the median and worst over --runs of:

1. the standings built cold (nothing cached: no event's standings or placings, no series table, no ratings), wall and this
   process's CPU; and again after a result in one event (the other events' placings kept by their versions);
2. the public standings page, cold (no table, no page built anywhere) and again (kept for the same versions);
3. every game of the series (`series_games`, what ratings read), cold;
4. the series players with their name suggestions (the managers' players page works them out each time);
5. a series player's public page (their events and record by side), the table and each event's games kept;
6. what a result costs the series' pages (issue "Leagues, round two", point 4), CPU per request: the public page
   cold (nothing built anywhere: no table, no page in memory nor in the shared folder), the public page after one
   result in one event (the worker that builds it), the same page in another worker after that result (no page,
   table nor ratings of that edition in its memory; its other events' placings kept), and the managers' players
   page after one result (its first page), with that page's size; and the series' ratings alone after a result in
   the last event, rated on from the ratings kept before it, and rated from the first game (nothing kept); and
   the public and managers' players pages after a result that moves the last event's placings (6b's changes none).

SQLite in a temporary folder. The goal (issue 34): the standings of 50 events x 100 players in <= 1 s of CPU.
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
from app.models import (Match, NrdbAccount, Player, Round, Seat, Series, SeriesEvent, Tournament, User,  # noqa: E402
                        touch)
from app.services import cut as cut_service  # noqa: E402
from app.services import state  # noqa: E402
from app.services.series import manage, people  # noqa: E402
from app.services.series import standings as series_standings  # noqa: E402
from app.services.series import games as games_cache  # noqa: E402
from app.services.series import series_ratings  # noqa: E402
from app.services.series.games import series_games  # noqa: E402

RESULTS = (("corp", 48), ("runner", 48), ("tie", 4))
POINTS = {"corp": (3, 0), "runner": (0, 3), "tie": (1, 1)}


def seed(events: int, players: int, pool: int, rounds: int, rng: random.Random) -> Series:
    user = User(email="bench@example.com")
    user.set_password("bench password")
    db.session.add(user)
    db.session.flush()
    accounts = [NrdbAccount(nrdb_id=1000 + i, username=f"club{i:03d}") for i in range(0, pool, 3)]
    db.session.add_all(accounts)
    db.session.flush()
    account_of = {i * 3: a.id for i, a in enumerate(accounts)}
    series = manage.create(user, manage.Settings(
        name="Bench League", kind="league", points_table="1st 10, 2nd 8, 3rd-4th 6, 5th-8th 4, 9th-16th 2",
        participation="1", best_n=10, field_reference=32, tiers="Store: 1, Regional: 2",
        tie_breaks=("countback", "event_wins"), invite_top=8, invite_winners=True))
    keys, weights = zip(*RESULTS)
    for e in range(events):
        t = Tournament(owner=user, name=f"Week {e:02d}", format="single", planned_rounds=rounds,
                       date=date(2025, 1, 1) + timedelta(days=7 * e))
        db.session.add(t)
        db.session.flush()
        club = rng.sample(range(pool), players)
        db.session.execute(sa.insert(Player), [
            {"tournament_id": t.id, "name": f"Player {i:03d}", "name_key": name_key(f"Player {i:03d}"),
             "corp_identity": "", "runner_identity": "", "nrdb_account_id": account_of.get(i)} for i in club])
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
        db.session.add(SeriesEvent(series_id=series.id, tournament_id=t.id, tier="Regional" if e % 10 == 9 else ""))
        db.session.commit()
        if e % 5 == 0:
            cut_service.create(t, 8, "single")
            while True:
                game = next((g for g in cut_service.bracket(t).games if g.ready and not g.reported), None)
                if game is None:
                    break
                if cut_service.load(t).sides(game) is None:
                    cut_service.set_corp(t, game.id, rng.choice(game.players))
                cut_service.report(t, game.id, rng.choice(game.players))
    return series


def measure(fn, runs: int) -> tuple[float, float, float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls) * 1000, max(walls) * 1000, statistics.median(cpus) * 1000, max(cpus) * 1000


def forget_pages(folder: str) -> None:
    """No page built anywhere: this worker's memory (pages, drawn standings rows) and the shared folder's files."""
    try:
        from app.web import page_cache
    except ImportError:
        return
    page_cache.clear_memory()
    for path in Path(folder).glob("*.page"):
        path.unlink()
    try:
        from app.web import series_rows
    except ImportError:  # a tree before it (a before-and-after run)
        return
    series_rows.forget_cached()


def cold(fn, folder: str = ""):
    def run():
        if folder:
            forget_pages(folder)
        series_standings.forget_cached()
        series_ratings.forget_cached()
        games_cache.forget_cached()
        state._STANDINGS_CACHE.clear()
        db.session.expire_all()
        fn()
    return run


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--pool", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    folder = tempfile.mkdtemp(prefix="sass-bench-series-")
    try:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db", "PAGE_CACHE_DIR": folder,
                          "BACKUP_DIR": folder, "RATELIMIT_ENABLED": False,
                          "WTF_CSRF_ENABLED": False})
        with app.app_context():
            upgrade()
            started = time.perf_counter()
            series = seed(args.events, args.players, args.pool, args.rounds, random.Random(34))
            seeded = time.perf_counter() - started
            sid, slug = series.id, series.slug
            get = lambda: db.session.get(Series, sid)  # noqa: E731
            table = series_standings.build(get())
            client = app.test_client()
            assert client.get(f"/s/{slug}").status_code == 200
            games = len(series_games(get()))
            suggestions = len(people.roster(get(), suggest=True).people.suggestions)
            suggest = measure(lambda: people.roster(get(), suggest=True), args.runs)
            build = measure(cold(lambda: series_standings.build(get())), args.runs)
            last = db.session.scalars(sa.select(SeriesEvent.tournament_id).filter_by(series_id=sid)
                                      .order_by(SeriesEvent.tournament_id.desc())).first()

            def one_changes():
                touch(db.session, [last])  # what a result does to its event
                db.session.commit()
                series_standings.table(get())
            series_standings.table(get())
            changed = measure(one_changes, args.runs)
            page_cold = measure(cold(lambda: client.get(f"/s/{slug}"), folder), args.runs)
            page_again = measure(lambda: client.get(f"/s/{slug}"), args.runs)
            all_games = measure(cold(lambda: series_games(get())), args.runs)
            some = series_standings.table(get()).lines[0].key
            player_page = measure(lambda: client.get(f"/s/{slug}/players/{some}"), args.runs)

            def result_then(path, other_worker=False):
                def run():
                    touch(db.session, [last])
                    db.session.commit()
                    db.session.expire_all()
                    if other_worker:  # the first worker builds it; this one finds it in the shared folder
                        assert client.get(path).status_code == 200
                        from app.web import page_cache
                        page_cache.clear_memory()  # another worker: no page in its memory, nor this edition's
                        series_standings._TABLES.clear()  # table or ratings (its other events' placings kept)
                        series_ratings.forget_cached()
                        c = time.process_time()
                        assert client.get(path).status_code == 200
                        return time.process_time() - c
                    assert client.get(path).status_code == 200
                return run

            def measure_inner(fn, runs):
                cpus = sorted(fn() for _ in range(runs))
                return statistics.median(cpus) * 1000, cpus[-1] * 1000

            public_cold = measure(cold(lambda: client.get(f"/s/{slug}"), folder), args.runs)
            public_result = measure(result_then(f"/s/{slug}"), args.runs)
            public_other = measure_inner(result_then(f"/s/{slug}", other_worker=True), args.runs)
            def rated_after_result():
                touch(db.session, [last])
                db.session.commit()
                db.session.expire_all()
                series_standings.table(get())
                c = time.process_time()
                series_ratings.current(get(), series_standings.table(get()))
                return time.process_time() - c

            rated = measure_inner(rated_after_result, args.runs)
            series_ratings.forget_cached()
            rated_scratch = measure_inner(lambda: (series_ratings.forget_cached(), rated_after_result())[1], args.runs)

            def flip_result():
                """A result changed in the last event's last round: its two players' points swap, so the event's
                placings move, and with them series points and ranks (row 6b's result changes no placing)."""
                m = db.session.scalars(sa.select(Match).join(Round, Round.id == Match.round_id).where(
                    Round.tournament_id == last, Round.number == args.rounds, Match.result != "tie")
                    .order_by(Match.id)).first()
                m.result = {"corp": "runner", "runner": "corp"}[m.result]
                for seat in db.session.scalars(sa.select(Seat).filter_by(match_id=m.id)):
                    seat.points = POINTS[m.result][seat.position - 1]
                db.session.commit()
                db.session.expire_all()

            def flipped_then(who, path):
                def run():
                    flip_result()
                    c = time.process_time()
                    assert who.get(path).status_code == 200
                    return time.process_time() - c
                return run

            public_flipped = measure_inner(flipped_then(client, f"/s/{slug}"), args.runs)
            staff = app.test_client()
            assert staff.post("/login", data={"email": "bench@example.com", "password": "bench password"}
                              ).status_code in (302, 303)
            players_html = staff.get(f"/series/{sid}/players")
            assert players_html.status_code == 200
            players_size = len(players_html.data)
            staff_result = measure(lambda: (touch(db.session, [last]), db.session.commit(),
                                            staff.get(f"/series/{sid}/players")), args.runs)
            staff_flipped = measure_inner(flipped_then(staff, f"/series/{sid}/players"), args.runs)
        print(f"{args.events} events x {args.players} players (a club of {args.pool}, a third on NetrunnerDB), "
              f"{args.rounds} rounds, a top-8 cut in every fifth; {len(table.lines)} series players, "
              f"{suggestions} name suggestions, {games} games; seeded in {seeded:.0f} s\n")
        print("| what | median ms | worst ms | CPU ms (median) | CPU ms (worst) |")
        print("|---|---:|---:|---:|---:|")
        for name, (median, worst, cpu, cpu_worst) in (
                ("1. standings built cold", build), ("1b. again after a result in one event", changed),
                ("2. public page, cold", page_cold),
                ("2. public page again (kept)", page_again), ("3. every game (series_games), cold", all_games),
                ("4. the players and their name suggestions (managers' page)", suggest),
                ("5. a series player's page (table and games kept)", player_page)):
            print(f"| {name} | {median:.0f} | {worst:.0f} | {cpu:.0f} | {cpu_worst:.0f} |")
        print("\nWhat a result costs the series' pages (CPU per request, this process):\n")
        print("| what | CPU ms (median) | CPU ms (worst) |")
        print("|---|---:|---:|")
        for name, figures in (("6a. public page, cold (nothing built anywhere)", public_cold[2:]),
                              ("6b. public page after a result in one event (the worker that builds it)",
                               public_result[2:]),
                              ("6c. public page after that result, in another worker", public_other),
                              ("6d. managers' players page after a result (first page)", staff_result[2:]),
                              ("6e. the series' ratings after a result in the last event (the table built)", rated),
                              ("6f. the same, rated from the first game (nothing kept)", rated_scratch),
                              ("6g. public page after a changed result in the last event (its placings move)",
                               public_flipped),
                              ("6h. managers' players page after such a result (first page)", staff_flipped)):
            print(f"| {name} | {figures[0]:.0f} | {figures[1]:.0f} |")
        print(f"\nThe managers' players page (first page): {players_size / 1e6:.2f} MB of HTML")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Web benchmark: a 2,000-player, 15-round single-sided event, timed through the Flask test client.

`python -m bench.bench_web` (or `make bench-web`). For SQLite (a temporary file) and PostgreSQL (database
`sass_bench`, created and dropped here, when postgresql://postgres@127.0.0.1/test answers) it seeds the event with
the real pairing engine (each round paired by the rounds service, the TO's own code path) and random results
written in bulk, then measures the median over --runs requests of: reporting one result (rounds.report), the
public pairings and standings pages, both CSV exports, the TO's round page (the live round and a past one). SQL statements are counted per request; a result report
must cost as many in round 15 as in round 2. Targets: report < 30 ms, each page < 150 ms.
`--profile` prints the top functions (cProfile) of every request that misses its target.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from app import create_app  # noqa: E402
from app.extensions import db  # noqa: E402
from app.core.names import name_key  # noqa: E402
from app.models import Match, Player, Round, Seat, Tournament, User  # noqa: E402
from app.core.names import name_key  # noqa: E402
from app.core.results import outcome  # noqa: E402
from app.services.swiss import rounds as service  # noqa: E402

PG_ADMIN_URL = "postgresql+psycopg2://postgres@127.0.0.1/test"
PG_BENCH_DB = "sass_bench"
REPORT_TARGET_MS = 30
PAGE_TARGET_MS = 150
EMAIL, PASSWORD = "bench@example.com", "bench password"
RESULT_WEIGHTS = {"corp": 47, "runner": 47, "tie": 4, "id": 2}
OUT = ROOT / "bench" / "out"


@dataclass
class Row:
    backend: str
    what: str
    target_ms: int
    times: list = field(default_factory=list)  # wall clock, seconds
    cpu: list = field(default_factory=list)  # this process's CPU time, seconds (the shared machine is noisy)
    queries: int = 0
    sql: list = field(default_factory=list)  # seconds inside SQL statements, per request
    commits: list = field(default_factory=list)  # seconds inside COMMIT, per request
    size: int = 0

    @property
    def median(self) -> float:
        return statistics.median(self.times) * 1000

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu) * 1000

    @property
    def sql_ms(self) -> float:
        return statistics.median(self.sql) * 1000

    @property
    def commit_ms(self) -> float:
        return statistics.median(self.commits) * 1000

    @property
    def ok(self) -> bool:
        return self.median < self.target_ms


class QueryCounter:
    """Counts SQL statements and their time on one engine (cursor events), and the time of COMMITs
    (from the engine's commit event to the session's after_commit)."""

    def __init__(self, engine):
        self.count, self.seconds, self.commit_seconds, self._t0, self._c0 = 0, 0.0, 0.0, 0.0, None
        self.statements: list[tuple[float, str]] = []
        sa.event.listen(engine, "before_cursor_execute", self._before)
        sa.event.listen(engine, "after_cursor_execute", self._after)
        sa.event.listen(engine, "commit", self._commit)
        sa.event.listen(sa.orm.Session, "after_commit", self._committed)

    def _commit(self, conn):
        self._c0 = time.perf_counter()

    def _committed(self, session):
        if self._c0 is not None:
            self.commit_seconds += time.perf_counter() - self._c0
            self._c0 = None

    def _before(self, *args):
        self._t0 = time.perf_counter()

    def _after(self, conn, cursor, statement, *args):
        elapsed = time.perf_counter() - self._t0
        self.count += 1
        self.seconds += elapsed
        self.statements.append((elapsed, " ".join(statement.split())))

    @contextmanager
    def measure(self):
        self.count, self.seconds, self.commit_seconds, self.statements = 0, 0.0, 0.0, []
        yield self


# ---------------------------------------------------------------- seeding

def seed(app, players: int, rounds: int, rng: random.Random) -> dict:
    """A user, a single-sided tournament of `players`, `rounds` rounds paired by the engine and all reported."""
    with app.app_context():
        user = User(email=EMAIL)
        user.set_password(PASSWORD)
        t = Tournament(owner=user, name="Bench Regionals", format="single", planned_rounds=rounds)
        db.session.add_all([user, t])
        db.session.commit()
        db.session.execute(sa.insert(Player), [
            {"tournament_id": t.id, "name": f"Player {i:05d}", "name_key": name_key(f"Player {i:05d}"),
             "corp_identity": f"Corp identity {i % 40}",
             "runner_identity": f"Runner identity {i % 37}"} for i in range(1, players + 1)])
        db.session.commit()
        pairing_s = 0.0
        for number in range(1, rounds + 1):
            t0 = time.perf_counter()
            service.pair_next_round(t, number)
            pairing_s += time.perf_counter() - t0
            service.publish_round(t, number)
            _report_all(t, number, rng)
        info = {"tid": t.id, "slug": t.slug, "pairing_s": pairing_s,
                "matches": {n: _match_ids(t, n) for n in (2, rounds)}}
        db.session.remove()
        if db.engine.dialect.name == "postgresql":  # fresh statistics, as autovacuum keeps them in production
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.execute(sa.text("ANALYZE"))
    return info


def _report_all(t: Tournament, number: int, rng: random.Random) -> None:
    """Random results for every table of a round, written in two bulk UPDATEs (by primary key)."""
    seats = db.session.execute(
        sa.select(Seat.id, Seat.match_id, Seat.side).join(Round, Round.id == Seat.round_id)
        .join(Match, Match.id == Seat.match_id)
        .where(Round.tournament_id == t.id, Round.number == number, Match.is_bye.is_(False))).all()
    keys, weights = zip(*RESULT_WEIGHTS.items())
    chosen = {mid: rng.choices(keys, weights)[0] for mid in {s.match_id for s in seats}}
    db.session.execute(sa.update(Match), [
        {"id": mid, "result": key, "intentional_draw": key == "id"} for mid, key in chosen.items()])
    db.session.execute(sa.update(Seat), [
        {"id": s.id, "points": outcome(t.fmt, chosen[s.match_id]).points[0 if s.side == "corp" else 1]}
        for s in seats])
    db.session.commit()


def _match_ids(t: Tournament, number: int) -> dict[int, str]:
    """Match id -> stored result of every game (not bye) of a round."""
    return dict(db.session.execute(
        sa.select(Match.id, Match.result).join(Round, Round.id == Match.round_id)
        .where(Round.tournament_id == t.id, Round.number == number, Match.is_bye.is_(False))
        .order_by(Match.table)).all())


# ---------------------------------------------------------------- measuring

def timed(client, counter: QueryCounter, row: Row, method: str, url: str, expect: int, **kw):
    with counter.measure():
        t0, c0 = time.perf_counter(), time.process_time()
        response = getattr(client, method)(url, **kw)
        row.times.append(time.perf_counter() - t0)
        row.cpu.append(time.process_time() - c0)
        row.queries = counter.count
        row.sql.append(counter.seconds)
        row.commits.append(counter.commit_seconds)
    if response.status_code != expect:
        raise SystemExit(f"{method.upper()} {url} answered {response.status_code}, not {expect}:\n"
                         f"{response.get_data(as_text=True)[:800]}")
    row.size = len(response.get_data())
    return response


def profile_request(client, counter: QueryCounter, method: str, url: str, **kw) -> str:
    """The slowest SQL statements and the functions with the most cumulative time, for one request."""
    profiler = cProfile.Profile()
    with counter.measure():
        profiler.enable()
        getattr(client, method)(url, **kw)
        profiler.disable()
    out = io.StringIO()
    for elapsed, statement in sorted(counter.statements, reverse=True)[:3]:
        out.write(f"SQL {elapsed * 1000:.1f} ms: {statement[:300]}\n")
    stats = pstats.Stats(profiler, stream=out).sort_stats("cumulative")
    stats.print_stats(r"/app/|templates|sqlalchemy/orm/loading", 25)
    return out.getvalue()


def measure(backend: str, uri: str, players: int, rounds: int, runs: int, profile: bool) -> tuple[list, dict]:
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "TESTING": True, "WTF_CSRF_ENABLED": False,
                      "SECRET_KEY": "bench"})
    with app.app_context():
        upgrade()
    t0 = time.perf_counter()
    info = seed(app, players, rounds, random.Random(2026))
    seed_s = time.perf_counter() - t0
    tid, slug = info["tid"], info["slug"]
    client = app.test_client()
    login = client.post("/login", data={"email": EMAIL, "password": PASSWORD})
    assert login.status_code in (302, 303), login.status_code
    with app.app_context():
        counter = QueryCounter(db.engine)

    pages = [
        ("public pairings (round %d, %d tables)" % (rounds, players // 2), f"/t/{slug}/pairings"),
        ("public standings", f"/t/{slug}/standings"),
        ("standings CSV", f"/tournaments/{tid}/standings.csv"),
        ("games CSV (%d lines)" % (rounds * ((players + 1) // 2)), f"/tournaments/{tid}/games.csv"),
        ("public status.json", f"/t/{slug}/status.json"),
        ("TO round page (round %d, %d tables)" % (rounds, players // 2), f"/tournaments/{tid}/rounds/{rounds}"),
        ("TO round page, a past round (round 2)", f"/tournaments/{tid}/rounds/2"),
    ]
    rows, profiles = [], {}

    def past(number: int, key: str) -> dict:
        """A result form; an earlier round's needs the TO's "Edit results" (rounds.report refuses it otherwise)."""
        return {"result": key, "past": "1"} if number < rounds else {"result": key}

    for number in dict.fromkeys((rounds, 2)):
        label, stored = f"report a result, round {number}", info["matches"][number]
        row = Row(backend, label, REPORT_TARGET_MS)
        counts = set()
        ids = list(stored)
        for i in range(runs + 1):  # the first is a warm-up; each report changes the stored result
            mid = ids[i % len(ids)]
            key = stored[mid] = "runner" if stored[mid] == "corp" else "corp"
            answer = timed(client, counter, row, "post", f"/tournaments/{tid}/matches/{mid}/result", 303,
                           data=past(number, key))
            if "#" not in answer.headers["Location"]:  # a refusal goes back to the round, not to the table
                raise SystemExit(f"the result for match {mid} was refused: {answer.headers['Location']}")
            counts.add(row.queries)
        row.times, row.cpu, row.sql, row.commits = row.times[1:], row.cpu[1:], row.sql[1:], row.commits[1:]
        row.queries = max(counts)
        rows.append(row)
        if profile and not row.ok:
            key = stored[ids[0]] = "runner" if stored[ids[0]] == "corp" else "corp"
            profiles[label] = profile_request(client, counter, "post",
                                              f"/tournaments/{tid}/matches/{ids[0]}/result", data=past(number, key))
    # Standings are cached per tournament version: time the first view after each change too (a cache miss).
    row = Row(backend, "public standings, first view after a result", PAGE_TARGET_MS)
    stored = info["matches"][rounds]
    ids = list(stored)
    for i in range(runs + 1):
        mid = ids[i % len(ids)]
        key = stored[mid] = "runner" if stored[mid] == "corp" else "corp"
        assert client.post(f"/tournaments/{tid}/matches/{mid}/result", data={"result": key}).status_code == 303
        timed(client, counter, row, "get", f"/t/{slug}/standings", 200)
    row.times, row.cpu, row.sql, row.commits = row.times[1:], row.cpu[1:], row.sql[1:], row.commits[1:]
    rows.append(row)
    for label, url in pages:
        row = Row(backend, label, PAGE_TARGET_MS)
        for _ in range(runs + 1):
            timed(client, counter, row, "get", url, 200)
        row.times, row.cpu, row.sql, row.commits = row.times[1:], row.cpu[1:], row.sql[1:], row.commits[1:]
        rows.append(row)
        if profile and not row.ok:
            profiles[label] = profile_request(client, counter, "get", url)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    return rows, {"seed_s": seed_s, "pairing_s": info["pairing_s"], "profiles": profiles}


# ---------------------------------------------------------------- databases

def postgres_url(name: str = PG_BENCH_DB) -> str | None:
    """A fresh database `name` beside the test one, or None when PostgreSQL does not answer."""
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    except sa.exc.OperationalError:
        return None
    finally:
        admin.dispose()
    return sa.engine.make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False)


def drop_postgres(name: str = PG_BENCH_DB) -> None:
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


# ---------------------------------------------------------------- report

def table(rows: list[Row]) -> str:
    lines = ["| backend | request | median ms | min ms | median CPU ms | SQL statements | SQL ms | COMMIT ms "
             "| response KB | target ms | ok |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r.backend} | {r.what} | {r.median:.1f} | {min(r.times) * 1000:.1f} | {r.cpu_median:.1f} | "
                     f"{r.queries} | {r.sql_ms:.1f} | {r.commit_ms:.1f} | {r.size / 1024:.0f} | < {r.target_ms} | "
                     f"{'yes' if r.ok else '**NO**'} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--runs", type=int, default=11, help="timed requests per measurement (median)")
    parser.add_argument("--backend", choices=("all", "sqlite", "postgresql"), default="all")
    parser.add_argument("--profile", action="store_true", help="cProfile each request that misses its target")
    args = parser.parse_args(argv)
    if args.rounds < 2:
        parser.error("--rounds must be at least 2 (round 2 and the last round are compared)")

    header = (f"Web benchmark: {args.players} players, {args.rounds} rounds single-sided, median of {args.runs} "
              f"requests (Flask test client), {os.cpu_count()} cores, python {sys.version.split()[0]}, load average "
              f"{os.getloadavg()[0]:.1f} at the start.\n"
              "Seeded with the real pairing engine (app.core.pairing.pair_round via the rounds service) and random "
              "results; PostgreSQL gets ANALYZE after seeding.")
    print(header + "\n", flush=True)
    all_rows, notes, failures = [], [], []
    backends = []
    if args.backend in ("all", "sqlite"):
        tmp = tempfile.TemporaryDirectory(prefix="sass-bench-")
        backends.append(("sqlite", f"sqlite:///{Path(tmp.name) / 'bench.db'}", None))
    if args.backend in ("all", "postgresql"):
        url = postgres_url()
        if url is None:
            notes.append("PostgreSQL: not reachable at 127.0.0.1:5432, skipped.")
        else:
            backends.append(("postgresql", url, drop_postgres))
    for name, uri, cleanup in backends:
        try:
            rows, extra = measure(name, uri, args.players, args.rounds, args.runs, args.profile)
        finally:
            if cleanup:
                cleanup()
        all_rows += rows
        notes.append(f"{name}: seeding took {extra['seed_s']:.1f} s, of which pairing "
                     f"{extra['pairing_s']:.1f} s for {args.rounds} rounds.")
        by_label = {r.what: r for r in rows}
        late = by_label[f"report a result, round {args.rounds}"]
        early = by_label["report a result, round 2"]
        grows = late.queries > early.queries
        notes.append(f"{name}: SQL statements for one result: round 2 {early.queries}, round {args.rounds} "
                     f"{late.queries} ({'GROWS with the round number' if grows else 'constant'}).")
        if grows:
            failures.append(f"{name}: result report query count grows")
        failures += [f"{name}: {r.what} {r.median:.0f} ms >= {r.target_ms} ms" for r in rows if not r.ok]
        for label, text in extra["profiles"].items():
            notes.append(f"\n<details><summary>{name}: profile of {label}</summary>\n\n```\n{text}\n```\n</details>")
    if args.backend in ("all", "sqlite"):
        tmp.cleanup()

    legend = ("ms: wall clock per request; CPU ms: this process only (Python, SQLite); SQL ms: time inside SQL "
              "statements (SQLite fetches rows later, so its row reading counts as CPU ms); COMMIT ms: the commit "
              "(fsync); both medians. Load average at the end: "
              f"{os.getloadavg()[0]:.1f} (the machine is shared: compare CPU ms when it is high).")
    report = "\n\n".join([table(all_rows), legend, "\n".join(n if n.startswith("\n") else f"- {n}" for n in notes)])
    report += "\n\n" + ("All targets met." if not failures else "Missed: " + "; ".join(failures) + ".")
    print(report)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "bench_web.md").write_text(header + "\n\n" + report + "\n", encoding="utf-8")
    return 1 if any("grows" in f for f in failures) else 0  # timings on a shared machine only inform


if __name__ == "__main__":
    sys.exit(main())

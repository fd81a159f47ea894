"""Load: 1,000 phones polling a 300-player event's status (round, pairings version, timer) every 10 s.

`python -m bench.bench_status_load` (`make bench-load`). For SQLite (a temporary file) and PostgreSQL (database
`sass_load`, created and dropped here, when postgresql://postgres@127.0.0.1/test answers) it seeds a 300-player
single-sided event (round 1 paired by the engine, published, its timer running), serves it with gunicorn on
127.0.0.1 (a port the OS picked), and runs wrk against /t/<slug>/status.json for a bounded time: once as a phone's
first poll (200 with the JSON), once as the steady state (If-None-Match: the ETag, so 304). 1,000 phones every
10 s is 100 requests per second; the table says how many the server held, and the latency at that load.
"""
from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from app import create_app  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import Player, Tournament, User  # noqa: E402
from app.services.swiss import rounds as rounds_service  # noqa: E402
from app.services.swiss import timer as timer_service  # noqa: E402

PG_ADMIN_URL = "postgresql+psycopg2://postgres@127.0.0.1/test"
PG_DB = "sass_load"
PHONES, POLL_S = 1000, 10
NEEDED = PHONES / POLL_S  # requests per second
WRK = "/usr/bin/wrk"


def seed(uri: str, players: int) -> str:
    """A single-sided event with `players` players, round 1 paired, published and its timer running; its slug."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri})
    with app.app_context():
        upgrade()
        user = User(email="load@example.com")
        user.set_password("load password")
        t = Tournament(owner=user, name="Load Open", format="single", planned_rounds=9)
        db.session.add_all([user, t])
        db.session.commit()
        db.session.add_all(Player(tournament_id=t.id, name=f"Player {i:03d}") for i in range(1, players + 1))
        db.session.commit()
        rounds_service.pair_next_round(t, 1)
        rounds_service.publish_round(t, 1)
        timer_service.act(t, 1, "start", 65)
        slug = t.slug
        db.session.remove()
        db.engine.dispose()
    return slug


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(uri: str, workers: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": uri, "SECRET_KEY": "load-bench"}
    proc = subprocess.Popen([str(ROOT / ".venv" / "bin" / "gunicorn"), "-w", str(workers), "-b", f"127.0.0.1:{port}",
                             "--log-level", "warning", "wsgi:app"], cwd=ROOT, env=env)
    return proc, f"http://127.0.0.1:{port}"


def wait_until_up(url: str, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                return {"etag": r.headers["ETag"], "body": r.read()}
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def workers_cpu(master: int) -> float:
    """CPU seconds (user + system) used so far by the gunicorn master's worker processes."""
    total = 0
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    for pid in children:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / os.sysconf("SC_CLK_TCK")


def wrk(url: str, seconds: int, connections: int, headers: dict) -> dict:
    cmd = [WRK, "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "--latency", url]
    for k, v in headers.items():
        cmd += ["-H", f"{k}: {v}"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 30, check=True).stdout
    latency = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+\w+)", out, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sock = re.search(r"Socket errors: (.*)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "requests": int(re.search(r"(\d+) requests in", out).group(1)),
            "p50": latency.get("50", "?"), "p99": latency.get("99", "?"),
            "bad": int(errors.group(1)) if errors else 0, "socket_errors": sock.group(1) if sock else "none"}


def run(backend: str, uri: str, args) -> list[dict]:
    slug = seed(uri, args.players)
    proc, base = serve(uri, args.workers)
    rows = []
    try:
        url = f"{base}/t/{slug}/status.json"
        first = wait_until_up(url)
        assert b'"state":"running"' in first["body"], first["body"]
        for what, headers in (("first poll: 200 + JSON", {}),
                              ("steady poll: 304 (If-None-Match)", {"If-None-Match": first["etag"]})):
            wrk(url, 3, args.connections, headers)  # warm-up
            cpu = workers_cpu(proc.pid)
            result = wrk(url, args.seconds, args.connections, headers)
            result["cpu_ms"] = (workers_cpu(proc.pid) - cpu) * 1000 / max(1, result["requests"])
            rows.append({"backend": backend, "what": what, **result})
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers (2 per core)")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()

    rows = []
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            rows += run("sqlite", f"sqlite:///{tmp}/load.db", args)
    if args.backend in ("postgresql", "both"):
        admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))
                conn.execute(sa.text(f'CREATE DATABASE "{PG_DB}"'))
        except sa.exc.OperationalError:
            print("PostgreSQL is not answering: skipped")
        else:
            try:
                rows += run("postgresql", sa.engine.make_url(PG_ADMIN_URL).set(database=PG_DB)
                            .render_as_string(hide_password=False), args)
            finally:
                with admin.connect() as conn:
                    conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))
        admin.dispose()

    load = os.getloadavg()
    print(f"\n{args.players} players, gunicorn -w {args.workers} on 127.0.0.1, wrk -t2 -c{args.connections} "
          f"-d{args.seconds}s; needed: {PHONES} phones / {POLL_S} s = {NEEDED:.0f} req/s. "
          f"Load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (2 cores, shared).\n")
    cores = os.cpu_count() or 1
    print("| backend | request | req/s held | x needed | p50 | p99 | requests | non-2xx/3xx | socket errors "
          f"| server CPU ms/request | req/s the {cores} cores could serve | x needed |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")
    for r in rows:
        capacity = cores * 1000 / r["cpu_ms"] if r["cpu_ms"] else float("inf")
        print(f"| {r['backend']} | {r['what']} | {r['rps']:.0f} | {r['rps'] / NEEDED:.1f} | {r['p50']} | {r['p99']} "
              f"| {r['requests']} | {r['bad']} | {r['socket_errors']} | {r['cpu_ms']:.2f} | {capacity:.0f} "
              f"| {capacity / NEEDED:.1f} |")


if __name__ == "__main__":
    main()

"""Participation benchmark: a 300-player round where every player reports through HTTP against gunicorn.

`python -m bench.bench_participation` (or `make bench-participation`). For SQLite (a temporary file) and
PostgreSQL (database `sass_bench_part`, created and dropped here, when postgresql://postgres@127.0.0.1/test
answers): seed 300 players, pair and publish round 1 with the rounds service, start gunicorn on 127.0.0.1 (a free
port, 2 workers x 4 threads), then from --clients concurrent client threads: every Corp opens their player page
and reports (150 reports), every Runner opens theirs and confirms (150 confirmations, each writing the result);
meanwhile and afterwards the TO's live round feed is polled, fresh (200) and revalidated (304).
Prints medians and 95th percentiles per step; CSRF stays on (the player's page gives the token).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from app import create_app  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import Match, Player, Seat, Tournament, User  # noqa: E402
from app.services.players import player_links  # noqa: E402
from app.services.swiss import rounds as service  # noqa: E402

PG_ADMIN_URL = "postgresql+psycopg2://postgres@127.0.0.1/test"
PG_BENCH_DB = "sass_bench_part"
EMAIL, PASSWORD = "bench@example.com", "bench password"
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def seed(uri: str, secret: str, players: int) -> dict:
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": secret})
    with app.app_context():
        upgrade()
        user = User(email=EMAIL)
        user.set_password(PASSWORD)
        t = Tournament(owner=user, name="Bench Open", format="single")
        db.session.add_all([user, t])
        db.session.flush()
        db.session.add_all(Player(tournament_id=t.id, name=f"Player {i:03d}") for i in range(players))
        db.session.commit()
        service.pair_next_round(t, 1)
        service.publish_round(t, 1)
        tables = []
        for m in db.session.scalars(sa.select(Match).filter_by(tournament_id=t.id, is_bye=False)):
            sides = {s.side: s.player_id for s in db.session.scalars(sa.select(Seat).filter_by(match_id=m.id))}
            token = {side: player_links.token(db.session.get(Player, pid)) for side, pid in sides.items()}
            tables.append((m.id, token["corp"], token["runner"]))
        info = {"tid": t.id, "slug": t.slug, "tables": tables}
        db.session.remove()
        db.engine.dispose()
    return info


class Client:
    """One keep-alive connection with its own cookies (one phone, or the TO's laptop)."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            self.conn.close()  # gunicorn closed an idle keep-alive connection: open a new one
            start = time.perf_counter()
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
        data = response.read()
        elapsed = time.perf_counter() - start
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return response.status, data.decode(errors="replace"), dict(response.headers), elapsed


def act(port: int, slug: str, match_id: int, token: str, key: str) -> tuple[float, float]:
    """A phone opens its player page and taps a result: (page seconds, report seconds)."""
    phone = Client(port)
    path = f"/t/{slug}/p/{token}"
    status, html, _, page = phone.request("GET", path)
    assert status == 200, status
    csrf = CSRF.search(html).group(1)
    status, _, _, post = phone.request("POST", f"{path}/report", {"csrf_token": csrf, "match": match_id, "result": key})
    assert status == 303, status
    return page, post


def start_gunicorn(uri: str, secret: str, port: int) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=uri, SECRET_KEY=secret)
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-b", f"127.0.0.1:{port}", "-w", "2", "-k", "gthread",
                             "--threads", "4", "--log-level", "warning", "wsgi:app"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("gunicorn did not start")


def ms(values) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return f"{statistics.median(values) * 1000:7.1f} {p95 * 1000:7.1f}"


def run(backend: str, uri: str, players: int, clients: int, polls: int) -> list[tuple]:
    secret = secrets.token_hex(16)
    info = seed(uri, secret, players)
    port = free_port()
    proc = start_gunicorn(uri, secret, port)
    rows = []
    try:
        to = Client(port)
        status, html, _, _ = to.request("GET", "/login")
        csrf = CSRF.search(html).group(1)
        status, _, _, _ = to.request("POST", "/login", {"csrf_token": csrf, "email": EMAIL, "password": PASSWORD})
        assert status in (302, 303), status
        feed = f"/tournaments/{info['tid']}/rounds/1/live"  # what the round page polls
        live_times: list[float] = []
        stop = threading.Event()

        def poll_during():
            poller = Client(port)
            poller.cookies = dict(to.cookies)
            while not stop.is_set():
                status, _, _, elapsed = poller.request("GET", feed)
                assert status == 200, status
                live_times.append(elapsed)
                time.sleep(0.5)

        watcher = threading.Thread(target=poll_during, daemon=True)
        watcher.start()
        tables = info["tables"]
        with ThreadPoolExecutor(max_workers=clients) as pool:
            start = time.perf_counter()
            reports = list(pool.map(lambda t: act(port, info["slug"], t[0], t[1], "corp"), tables))
            report_wall = time.perf_counter() - start
            start = time.perf_counter()
            confirms = list(pool.map(lambda t: act(port, info["slug"], t[0], t[2], "corp"), tables))
            confirm_wall = time.perf_counter() - start
        stop.set()
        watcher.join(timeout=30)
        status, body, _, _ = to.request("GET", feed + "?parts=report-counts")
        assert f'data-count="confirmed">{len(tables)}<' in json.loads(body)["fragments"]["report-counts"], body[:300]
        fresh, revalidated = [], []
        etag = None
        for _ in range(polls):
            status, body, headers, elapsed = to.request("GET", feed)
            assert status == 200 and len(json.loads(body)["digests"]) == len(tables) + 5, body[:200]
            fresh.append(elapsed)
            etag = headers["ETag"]
            status, _, _, elapsed = to.request("GET", feed, headers={"If-None-Match": etag})
            assert status == 304, status
            revalidated.append(elapsed)
        rows += [
            (backend, "player page (GET, before reporting)", len(reports), ms([r[0] for r in reports])),
            (backend, f"report (POST), {len(tables)} at {clients} at once", len(reports), ms([r[1] for r in reports])),
            (backend, "confirm (POST, writes the result)", len(confirms), ms([r[1] for r in confirms])),
            (backend, "live feed while reports arrive (200)", len(live_times), ms(live_times)),
            (backend, "live feed, 150 tables (200)", polls, ms(fresh)),
            (backend, "live feed unchanged (304)", polls, ms(revalidated)),
        ]
        print(f"{backend}: {len(tables)} reports in {report_wall:.1f} s, {len(tables)} confirmations in "
              f"{confirm_wall:.1f} s (wall, {clients} clients)", flush=True)
        check = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": secret})
        with check.app_context():
            done = db.session.scalar(sa.select(sa.func.count(Match.id)).where(Match.result == "corp"))
            assert done == len(tables), done
            db.engine.dispose()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return rows


def postgres_available() -> bool:
    try:
        engine = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{PG_BENCH_DB}" WITH (FORCE)'))
            conn.execute(sa.text(f'CREATE DATABASE "{PG_BENCH_DB}"'))
        engine.dispose()
        return True
    except Exception as e:  # noqa: BLE001 - no server: skip the backend, say so
        print(f"PostgreSQL skipped: {e.__class__.__name__}", flush=True)
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--polls", type=int, default=100)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    rows = []
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            rows += run("SQLite", f"sqlite:///{tmp}/bench.db", args.players, args.clients, args.polls)
    if args.backend in ("postgresql", "both") and postgres_available():
        uri = PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + PG_BENCH_DB
        try:
            rows += run("PostgreSQL", uri, args.players, args.clients, args.polls)
        finally:
            engine = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
            with engine.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{PG_BENCH_DB}" WITH (FORCE)'))
            engine.dispose()
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print("\n| backend | request | n | median ms | p95 ms |\n|---|---|---|---|---|")
    for backend, what, n, times in rows:
        median, p95 = times.split()
        print(f"| {backend} | {what} | {n} | {median} | {p95} |")


if __name__ == "__main__":
    main()

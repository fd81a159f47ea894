"""A player's own NetrunnerDB decks (app/web/views/nrdb_picker.py, services/nrdb/picker.py) for accounts with few and
with many decks.

`python -m bench.bench_nrdb_picker` serves, from a stand-in NetrunnerDB on 127.0.0.1, an account's decks shaped as
NetrunnerDB's private API writes them (each a 45-card deck of the sample Corp or Runner list, a 1.5 KB
description, half of each side, one change a day), signs a browser in as the entry's own account (the session set
directly, as the sign-in leaves it), and prints a markdown table: per number of decks, the answer's size, and the
median and worst over --runs of the picker's page (GET: ask NetrunnerDB, read, sort, render this side's newest 60)
and of a pick (POST: fetch that deck, judge it, store it), wall clock and this process's CPU. SQLite in a
temporary folder.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from app import create_app  # noqa: E402
from app.core import cards, decklists  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import NrdbAccount, Player, Tournament, User  # noqa: E402
from app.services.players import player_links  # noqa: E402
from app.web import nrdb_oauth  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "decklists"


def _codes(path: Path, side: str) -> dict:
    checked = decklists.check(path.read_text(encoding="utf-8"), side, decklists.rules("standard"))
    return {cards.card(cid)["codes"][-1]: n for cid, n in [(checked.identity, 1), *checked.cards]}


def answer(count: int) -> tuple[bytes, dict]:
    """NetrunnerDB's /api/2.0/private/decks answer for `count` decks, and each deck's own answer by path."""
    corp, runner = _codes(FIXTURES / "corp_nrdb.txt", "corp"), _codes(FIXTURES / "runner_jinteki.txt", "runner")
    start = datetime(2024, 1, 1, tzinfo=timezone.utc)
    decks = [{"id": i, "uuid": f"5e1f0000-0000-4000-8000-{i:012d}", "date_creation": start.isoformat(),
              "date_update": (start + timedelta(days=i)).isoformat(), "name": f"Deck {i}",
              "description": "Notes on the matchups. " * 70, "mwl_code": None,
              "cards": corp if i % 2 else runner, "tags": "store"} for i in range(1, count + 1)]
    one = {f"/api/2.0/private/deck/{d['id']}": json.dumps({"version_number": "2.0", "data": [dict(d, history=[])],
                                                           "total": 1, "success": True}).encode() for d in decks}
    return json.dumps({"version_number": "2.0", "data": decks, "total": count, "success": True}).encode(), one


class _Standin:
    def __init__(self):
        self.routes: dict = {}
        routes = self.routes

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                body = routes.get(self.path.split("?")[0])
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def measure(fn, runs: int) -> tuple[float, float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return statistics.median(walls), max(walls), statistics.median(cpus)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, nargs="+", default=[10, 200, 1000])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    folder = tempfile.mkdtemp(prefix="sass-bench-picker-")
    standin = _Standin()
    try:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db", "PAGE_CACHE_DIR": folder,
                          "BACKUP_DIR": folder, "NRDB_CLIENT_ID": "bench", "NRDB_CLIENT_SECRET": "bench",
                          "NRDB_URL": standin.url, "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": False})
        rows = []
        with app.app_context():
            upgrade()
            user = User(email="bench@example.com")
            user.set_password("bench password")
            account = NrdbAccount(nrdb_id=777, username="bench_player")
            t = Tournament(owner=user, name="Deck Night", format="single", decklists=True)
            db.session.add_all([user, account, t])
            db.session.flush()
            player = Player(tournament_id=t.id, name="Ann", nrdb_account_id=account.id)
            db.session.add(player)
            db.session.commit()
            base = f"/t/{t.slug}/p/{player_links.token(player)}/decklists/nrdb/mine"
            client = app.test_client()
            with client.session_transaction() as s:
                s[nrdb_oauth.SIGNED_IN] = {"account": account.id, "nrdb_id": 777, "username": "bench_player",
                                           "until": int(time.time()) + 3600}
                s[nrdb_oauth.TOKEN] = {"sealed": nrdb_oauth._fernet().encrypt(b"bench-token").decode(),
                                       "expires_at": int(time.time()) + 3600}
            for count in args.decks:
                listing, one = answer(count)
                standin.routes.clear()
                standin.routes.update(one, **{"/api/2.0/private/decks": listing})
                page = client.get(f"{base}?side=corp")
                assert page.status_code == 200 and "nrdb-deck" in page.get_data(as_text=True), page.status_code
                picked = client.post(base, data={"side": "corp", "deck": 1})
                assert picked.status_code == 303
                shown = measure(lambda: client.get(f"{base}?side=corp"), args.runs)
                pick = measure(lambda: client.post(base, data={"side": "corp", "deck": 1}), args.runs)
                rows.append((count, len(listing), shown, pick))
        print("| decks | answer KiB | page median ms | page worst ms | page CPU ms | pick median ms | pick worst ms "
              "| pick CPU ms |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for count, size, shown, pick in rows:
            print(f"| {count} | {size // 1024} | {shown[0]:.0f} | {shown[1]:.0f} | {shown[2]:.0f} | {pick[0]:.0f} | "
                  f"{pick[1]:.0f} | {pick[2]:.0f} |")
    finally:
        standin.server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Every GET route's server CPU on a 2,000-player event: the cost bound of docs/security.md ("Cost of a page").

`python -m bench.bench_routes` (`make bench-routes`). Seeds a single-sided event (SQLite in a temporary folder:
--players, --rounds, all published and reported, a top-8 cut) with bench_web's seeder, then walks every GET
rule of the app's url_map (so a route added later is measured too) as the caller that may open it: anonymous
for public pages, the player through their link for a player's pages, the owner for staff pages. Per route:
the first request (it may build a cached page), then --runs requests, each measured with this process's CPU
time (Python, Jinja, SQLite), the median printed; and the same again with the worker's memory cache emptied
before each request (what another gunicorn worker pays to read the shared file). A route over LIMIT_MS at
either median fails the bound: docs/benchmarks.md says which and why.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from app import create_app  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import Match, Player, Round, Tournament  # noqa: E402
from app.services import cut as cut_service  # noqa: E402
from app.services.players import player_links  # noqa: E402
from app.services.results import slip_codes  # noqa: E402
from app.web import page_cache  # noqa: E402
from bench.bench_web import EMAIL, PASSWORD, seed  # noqa: E402

LIMIT_MS = 50
FIRST_LIMIT_MS = 1500  # any GET, its first build included (docs/security.md, "Cost of a page")
OUT = ROOT / "bench" / "out"
SKIP = {"static": "files from disk, no Python work"}


def _args(rule, ids: dict) -> dict:
    return {name: ids[name] for name in rule.arguments}


def _cpu(client, url: str, clear: bool) -> tuple[float, int, int]:
    if clear:
        page_cache.clear_memory()
    t0 = time.process_time()
    response = client.get(url, headers={"Accept-Encoding": "gzip"})
    data = response.get_data()
    return time.process_time() - t0, response.status_code, len(data)


def measure(players: int, rounds: int, runs: int) -> list[dict]:
    tmp = tempfile.TemporaryDirectory(prefix="sass-routes-")
    os.environ["RATELIMIT_ENABLED"] = "0"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(tmp.name) / 'bench.db'}",
                      "PAGE_CACHE_DIR": str(Path(tmp.name) / "pages"), "RATELIMIT_ENABLED": False,
                      "WTF_CSRF_ENABLED": False, "TESTING": True, "SECRET_KEY": "bench"})
    with app.app_context():
        upgrade()
    info = seed(app, players, rounds, random.Random(19))
    with app.app_context():
        t = db.session.get(Tournament, info["tid"])
        cut_service.create(t, 8, cut_service.kinds_for(t.fmt)[0])
        t = db.session.get(Tournament, info["tid"])
        player = db.session.scalars(db.select(Player).filter_by(tournament_id=t.id).order_by(Player.id)).first()
        last = db.session.scalars(db.select(Round).filter_by(tournament_id=t.id, number=rounds)).one()
        match = db.session.scalars(db.select(Match).filter_by(round_id=last.id, is_bye=False)
                                   .order_by(Match.table)).first()
        ids = {"tid": t.id, "slug": t.slug, "number": rounds, "pid": player.id, "game": 1, "mid": match.id,
               "token": player_links.token(player),
               "code": slip_codes.code(t, last.slip_ref, match.table,
                                       [db.session.get(Player, s.player_id).name for s in match.seats]),
               "side": "corp"}
    staff = app.test_client()
    staff.post("/login", data={"email": EMAIL, "password": PASSWORD})
    anonymous = app.test_client()
    rows = []
    with app.test_request_context():
        rules = sorted((r for r in app.url_map.iter_rules() if "GET" in r.methods), key=lambda r: r.rule)
    for rule in rules:
        if rule.endpoint in SKIP:
            continue
        with app.test_request_context():
            url = app.url_map.bind("localhost").build(rule.endpoint, _args(rule, ids))
        client = staff if "<int:tid>" in rule.rule or rule.rule.startswith("/tournaments") or \
            rule.rule.startswith("/account") else anonymous
        first, status, size = _cpu(client, url, clear=False)
        warm = [_cpu(client, url, clear=False)[0] for _ in range(runs)]
        other = [_cpu(client, url, clear=True)[0] for _ in range(runs)]
        rows.append({"rule": rule.rule, "endpoint": rule.endpoint, "as": "staff" if client is staff else "anyone",
                     "status": status, "kb": size / 1024, "first": first * 1000,
                     "warm": statistics.median(warm) * 1000, "other": statistics.median(other) * 1000})
        print(f"{rule.rule:60} {status} {rows[-1]['warm']:8.1f} ms", file=sys.stderr, flush=True)
    rows += slips_pages(app, staff, ids, runs)
    tmp.cleanup()
    return rows


def slips_pages(app, staff, ids: dict, runs: int) -> list[dict]:
    """The last round's slips (1,000 tables at 2,000 players) page by page, beyond the walk's page 1: each page's
    first build (its codes drawn), the same page rebuilt after a result (a new version: codes read from the shared
    folder, in a worker that never saw them), and cached."""
    base = f"/tournaments/{ids['tid']}/rounds/{ids['number']}/slips"
    rows = []
    for page in (2, 10):
        url = f"{base}?page={page}"
        first, status, size = _cpu(staff, url, clear=False)
        warm = [_cpu(staff, url, clear=False)[0] for _ in range(runs)]
        rebuilt = []
        for _ in range(runs):
            with app.app_context():  # what a result does to every page of the event
                db.session.execute(db.update(Tournament).where(Tournament.id == ids["tid"])
                                   .values(version=Tournament.version + 1))
                db.session.commit()
            rebuilt.append(_cpu(staff, url, clear=True)[0])
        rows.append({"rule": f"{base.split('/rounds')[0].replace(str(ids['tid']), '<int:tid>')}/rounds/<int:number>"
                             f"/slips?page={page}", "endpoint": "printouts.slips (after a result: rebuilt)",
                     "as": "staff", "status": status, "kb": size / 1024, "first": first * 1000,
                     "warm": statistics.median(warm) * 1000, "other": statistics.median(rebuilt) * 1000})
        print(f"{url:60} {status} first {first * 1000:8.1f} ms, rebuilt {rows[-1]['other']:8.1f} ms",
              file=sys.stderr, flush=True)
    return rows


def table(rows: list[dict]) -> str:
    lines = ["| route | endpoint | as | status | KB | first request CPU ms | median CPU ms | median CPU ms, "
             "another worker | over 50 ms |", "|---|---|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        over = max(r["warm"], r["other"]) > LIMIT_MS
        lines.append(f"| `{r['rule']}` | {r['endpoint']} | {r['as']} | {r['status']} | {r['kb']:.0f} | "
                     f"{r['first']:.1f} | {r['warm']:.1f} | {r['other']:.1f} | {'**yes**' if over else 'no'} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--runs", type=int, default=5, help="timed requests per route (median)")
    args = parser.parse_args(argv)
    header = (f"Every GET route: {args.players} players, {args.rounds} rounds single-sided and a top-8 cut, "
              f"SQLite, median CPU of {args.runs} requests (Flask test client, Accept-Encoding: gzip), "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start.")
    print(header + "\n", flush=True)
    rows = measure(args.players, args.rounds, args.runs)
    over = [r["rule"] for r in rows if max(r["warm"], r["other"]) > LIMIT_MS]
    dear = [r["rule"] for r in rows if r["first"] > FIRST_LIMIT_MS]
    report = table(rows) + f"\n\nLoad average at the end: {os.getloadavg()[0]:.1f}. Over {LIMIT_MS} ms: " + \
        (", ".join(f"`{r}`" for r in over) if over else "none") + \
        f". First request over {FIRST_LIMIT_MS} ms: " + (", ".join(f"`{r}`" for r in dear) if dear else "none") + "."
    print(report)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "bench_routes.md").write_text(header + "\n\n" + report + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Public pages at GP size: every phone in the hall loads the pairings when a round is published.

`python -m bench.bench_public_load` (`make bench-public`). For each event size (2,000 players after round 4, and
300 players after round 6) it makes a PostgreSQL database (`sass_public`, dropped afterwards), seeds the event
with bench_web's seeder (the real pairing engine, every round published and reported), serves it with
`gunicorn -w 4` on 127.0.0.1, and measures:

- every public page and API answer on its own: the median of --runs requests, one at a time, as a phone asks
  (Accept-Encoding: gzip), after warm-ups, and the CPU the server's workers spent on it (PostgreSQL's own
  not counted); a player's own answer (me.json, the part of a page that is theirs) for a device that
  remembers their link;
- the standings' first view after a result (a result written between requests, so every view is a miss);
- a burst: `wrk -t2 -c50 --latency` until 2,000 answers have arrived (a Lua script reports every 100), for the
  pairings (with and without gzip), the standings and the API round. Targets (issue 10): 2,000
  pairings in at most 5 s (400 req/s) with p99 under 500 ms; any answer on its own at most 50 ms; the
  standings' first view after a result at most 150 ms.
The machine is shared, so wrk gets what the other processes leave; the server's own CPU per answer (read from
/proc for the gunicorn workers) says how long the burst would take on the cores alone.
"""
from __future__ import annotations

import argparse
import gzip
import http.client
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import Match, Player, Round, Tournament  # noqa: E402
from app.core.results import outcome  # noqa: E402
from bench.bench_status_load import serve, wait_until_up, workers_cpu  # noqa: E402
from bench.bench_web import drop_postgres, postgres_url, seed  # noqa: E402

DB_NAME = "sass_public"
SECRET = "load-bench"  # what bench_status_load.serve gives gunicorn
WRK = "/usr/bin/wrk"
BURST = 2_000
CORES = os.cpu_count() or 1
BURST_TARGET_S, BURST_P99_MS, SINGLE_MS, FIRST_VIEW_MS = 5.0, 500, 50, 150
# wrk runs for its -d however early the burst is in, so each thread says every STEP answers; the bench counts
# those lines, and at the burst's size interrupts wrk (SIGINT: it prints its statistics at once) and times the
# burst itself. Threads never stop early: a stopped thread leaves connections open with no request sent, and a
# sync worker that accepts one waits on it until wrk exits (a stall of seconds in the tail that no phone causes).
STEP = 100
STEP_LUA = """
local answered = 0
response = function(status, headers, body)
  answered = answered + 1
  if answered %% %d == 0 then
    io.write("burst-step\\n")
    io.flush()
  end
end
""" % STEP


def get(base: str, path: str, headers: dict | None = None) -> tuple[int, dict, bytes, float]:
    """One request on a new connection (gunicorn's sync workers close each one): status, headers, body, seconds."""
    host, port = base.removeprefix("http://").split(":")
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
    finally:
        conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body, time.perf_counter() - t0


def player_cookie(base: str, slug: str, tid: int, uri: str) -> tuple[str, str]:
    """The session cookie of a device that opened a player's link, and the player's name."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": SECRET})
    with app.app_context(), app.test_request_context():
        from app.services.players import player_links

        player = db.session.scalars(sa.select(Player).filter_by(tournament_id=tid).order_by(Player.id)
                                    .offset(77)).first()
        token, name = player_links.token(player), player.name
        db.session.remove()
        db.engine.dispose()
    status, headers, _, _ = get(base, f"/t/{slug}/p/{token}")
    assert status == 200, status
    return headers["set-cookie"].split(";", 1)[0], name


class ResultWriter:
    """Changes one result of the last round between requests, as the TO does (bumps the event's version)."""

    def __init__(self, uri: str, tid: int, number: int):
        self.app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": SECRET})
        self.tid = tid
        with self.app.app_context():
            self.ids = db.session.scalars(
                sa.select(Match.id).join(Round, Round.id == Match.round_id)
                .where(Round.tournament_id == tid, Round.number == number, Match.is_bye.is_(False))
                .order_by(Match.table)).all()
        self.flip = 0

    def change(self) -> None:
        from app.services.results import match_results

        with self.app.app_context():
            t = db.session.get(Tournament, self.tid)
            self.flip += 1
            key = "corp" if self.flip % 2 else "runner"
            match_results.report_result(t, self.ids[0], outcome(t.fmt, key), match_results.Actor("organizer"))
            db.session.remove()

    def close(self) -> None:
        with self.app.app_context():
            db.engine.dispose()


def workers_ns(master: int) -> int:
    """Nanoseconds the gunicorn master's workers have run on a CPU (/proc/<pid>/schedstat, exact where
    /proc/<pid>/stat counts 10 ms ticks): a request's own cost, whatever else the shared machine runs."""
    total = 0
    for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split():
        try:
            total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
        except FileNotFoundError:
            continue
    return total


def single(base: str, path: str, runs: int, headers: dict, master: int, before=None) -> dict:
    times, cpu, size, sent = [], [], 0, 0
    warm = 1 if before else 8  # every worker has built its templates and statements: as in a running server
    for i in range(runs + warm):
        if before:
            before()
        ns = workers_ns(master)
        status, got, body, seconds = get(base, path, headers)
        used = workers_ns(master) - ns
        assert status == 200, (path, status, body[:300])
        if i >= warm:
            times.append(seconds)
            cpu.append(used / 1e6)
        sent = len(body)
        size = int(got.get("x-uncompressed-length", 0)) or sent
        if got.get("content-encoding") == "gzip":
            size = len(gzip.decompress(body))
    return {"median_ms": statistics.median(times) * 1000, "min_ms": min(times) * 1000,
            "cpu_ms": statistics.median(cpu), "kb": size / 1024, "sent_kb": sent / 1024}


def wrk_burst(url: str, headers: dict, requests: int, connections: int) -> dict:
    """wrk until `requests` answers are in: how long that took, the rate and the latency percentiles."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(STEP_LUA)
        script = f.name
    cmd = [WRK, "-t2", f"-c{connections}", "-d60s", "--timeout", "10s", "--latency", "-s", script, url]
    for k, v in headers.items():
        cmd += ["-H", f"{k}: {v}"]
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        done, lines = 0, []
        for line in proc.stdout:
            if not line.startswith("burst-step"):
                lines.append(line)
                continue
            done += STEP
            if done >= requests:
                    seconds = time.perf_counter() - t0
                    proc.send_signal(signal.SIGINT)
                    break
        else:
            seconds = time.perf_counter() - t0
        lines += proc.stdout.readlines()
        proc.wait(timeout=60)
    finally:
        os.unlink(script)
    out = "".join(lines)
    n = int(re.search(r"(\d+) requests in", out).group(1))
    latency = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+\w+)", out, re.M))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sock = re.search(r"Socket errors: (.*)", out)
    return {"requests": n, "seconds": seconds, "rps": min(n, requests) / seconds, "p50": latency.get("50", "?"),
            "p99": latency.get("99", "?"), "bad": int(bad.group(1)) if bad else 0,
            "socket_errors": sock.group(1) if sock else "none"}


def to_ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(\w+)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


def run(players: int, rounds: int, args) -> tuple[list, list]:
    uri = postgres_url(DB_NAME)
    if uri is None:
        raise SystemExit("PostgreSQL does not answer at 127.0.0.1:5432")
    try:
        app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": SECRET})
        with app.app_context():
            from flask_migrate import upgrade
            upgrade()
            db.engine.dispose()
        t0 = time.perf_counter()
        info = seed(app, players, rounds, random.Random(2026))
        print(f"{players} players, {rounds} rounds seeded in {time.perf_counter() - t0:.0f} s", flush=True)
        with app.app_context():
            db.engine.dispose()
        pages = os.environ["PAGE_CACHE_DIR"] = tempfile.mkdtemp(prefix="sass-bench-pages-")  # for gunicorn
        proc, base = serve(uri, args.workers)
        try:
            return measure(players, rounds, info, uri, proc, base, args)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            shutil.rmtree(pages, ignore_errors=True)
    finally:
        drop_postgres(DB_NAME)


def measure(players, rounds, info, uri, proc, base, args) -> tuple[list, list]:
    slug, tid = info["slug"], info["tid"]
    wait_until_up(f"{base}/t/{slug}/status.json")
    gz = {"Accept-Encoding": "gzip"}
    cookie, name = player_cookie(base, slug, tid, uri)
    event = f"{players} players, round {rounds}"
    singles = []
    pages = [("/t/<slug>", f"/t/{slug}", gz), ("/t/<slug>/pairings", f"/t/{slug}/pairings", gz),
             ("/t/<slug>/pairings, no gzip", f"/t/{slug}/pairings", {}),
             # a player's view is the shared page above and their own answer (me.json) since issue 18
             ("/t/<slug>/me.json?page=pairings as a player", f"/t/{slug}/me.json?page=pairings",
              {**gz, "Cookie": cookie}),
             ("/t/<slug>/pairings?q=<name>", f"/t/{slug}/pairings?q=" + name.replace(" ", "+"), gz),
             ("/t/<slug>/rounds/1", f"/t/{slug}/rounds/1", gz),
             ("/t/<slug>/standings", f"/t/{slug}/standings", gz),
             ("/t/<slug>/me.json?page=standings as a player", f"/t/{slug}/me.json?page=standings",
              {**gz, "Cookie": cookie}),
             ("/t/<slug>/status.json", f"/t/{slug}/status.json", gz),
             ("/api/tournaments/<slug>", f"/api/tournaments/{slug}", gz),
             ("/api/tournaments/<slug>/rounds", f"/api/tournaments/{slug}/rounds", gz),
             (f"/api/tournaments/<slug>/rounds/{rounds}", f"/api/tournaments/{slug}/rounds/{rounds}", gz),
             ("/api/tournaments/<slug>/standings", f"/api/tournaments/{slug}/standings", gz),
             ("/api/tournaments/<slug>/bracket", f"/api/tournaments/{slug}/bracket", gz)]
    for what, path, headers in pages:
        r = single(base, path, args.runs, headers, proc.pid)
        singles.append({"event": event, "what": what, **r, "target": SINGLE_MS})
    writer = ResultWriter(uri, tid, rounds)
    try:
        for what, path in (("/t/<slug>/standings, first view after a result", f"/t/{slug}/standings"),
                           ("/t/<slug>/pairings, first view after a result", f"/t/{slug}/pairings")):
            r = single(base, path, args.runs, gz, proc.pid, before=writer.change)
            singles.append({"event": event, "what": what, **r, "target": FIRST_VIEW_MS})
    finally:
        writer.close()
    bursts = []
    for what, path, headers in (("/t/<slug>/pairings, gzip", f"/t/{slug}/pairings", gz),
                                ("/t/<slug>/pairings, no gzip", f"/t/{slug}/pairings", {}),
                                ("/t/<slug>/me.json?page=pairings as a player, gzip",
                                 f"/t/{slug}/me.json?page=pairings", {**gz, "Cookie": cookie}),
                                ("/t/<slug>/standings, gzip", f"/t/{slug}/standings", gz),
                                (f"/api/tournaments/<slug>/rounds/{rounds}, gzip",
                                 f"/api/tournaments/{slug}/rounds/{rounds}", gz)):
        get(base, path, headers)  # the page is rendered once before the phones arrive
        cpu = workers_cpu(proc.pid)
        r = wrk_burst(base + path, headers, args.burst, args.connections)
        r["cpu_ms"] = (workers_cpu(proc.pid) - cpu) * 1000 / max(1, r["requests"])
        bursts.append({"event": event, "what": what, **r})
        print(f"  {event}: {what}: {r['requests']} in {r['seconds']:.2f} s, p99 {r['p99']}", flush=True)
    return singles, bursts


def report(singles: list, bursts: list, args) -> str:
    lines = ["| event | request | median ms | min ms | server CPU ms | page KB | sent KB | target ms | ok |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in singles:
        ok = r["median_ms"] <= r["target"]
        lines.append(f"| {r['event']} | {r['what']} | {r['median_ms']:.1f} | {r['min_ms']:.1f} | {r['cpu_ms']:.1f} | "
                     f"{r['kb']:.0f} | {r['sent_kb']:.0f} | ≤ {r['target']} | {'yes' if ok else '**NO**'} |")
    lines += ["", f"Bursts: wrk -t2 -c{args.connections} until {args.burst} answers are in "
                  f"(target for the 2,000-player pairings: ≤ {BURST_TARGET_S:.0f} s, p99 < {BURST_P99_MS} ms).", "",
              "| event | request | answers (to SIGINT) | seconds for the burst | req/s | p50 | p99 | non-2xx/3xx "
              "| socket errors "
              "| server CPU ms/answer | s for 2,000 on 2 free cores | ok |",
              "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|"]
    for r in bursts:
        in_time = r["seconds"] <= BURST_TARGET_S * min(r["requests"], BURST) / BURST
        ok = in_time and to_ms(r["p99"]) < BURST_P99_MS and not r["bad"]
        lines.append(f"| {r['event']} | {r['what']} | {r['requests']} | {r['seconds']:.2f} | {r['rps']:.0f} | "
                     f"{r['p50']} | {r['p99']} | {r['bad']} | {r['socket_errors']} | {r['cpu_ms']:.1f} | "
                     f"{BURST * r['cpu_ms'] / 1000 / CORES:.1f} | {'yes' if ok else '**NO**'} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers (2 per core)")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--burst", type=int, default=BURST, help="answers per burst")
    parser.add_argument("--runs", type=int, default=7, help="requests per single-request median")
    parser.add_argument("--events", default="2000:4,300:6", help="players:rounds, comma-separated")
    args = parser.parse_args(argv)
    start = os.getloadavg()
    singles, bursts = [], []
    for spec in args.events.split(","):
        players, rounds = map(int, spec.split(":"))
        s, b = run(players, rounds, args)
        singles += s
        bursts += b
    end = os.getloadavg()
    print(f"\nPublic pages, gunicorn -w {args.workers} on 127.0.0.1, PostgreSQL, {os.cpu_count()} cores (shared); "
          f"load average {start[0]:.1f} at the start, {end[0]:.1f} {end[1]:.1f} {end[2]:.1f} at the end.\n")
    print(report(singles, bursts, args))
    failed = [r for r in singles if r["median_ms"] > r["target"]]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

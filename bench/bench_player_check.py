"""What one player's check costs the app and PostgreSQL, straight to gunicorn as deployed, at a 10,000-player event.

`python -m bench.bench_player_check [--players 10000] [--phones 500] [--runs 4] [--seconds 5] [--compare REV]`
(`make bench-player-check`; `--connections`, `--workers`, `--threads` and `--close`, a new connection per check,
try other shapes).

PostgreSQL database `sass_bench_check` (dropped afterwards): the event (6 rounds, the last published) beside a
2,000-player one (bench/bench_proxy_load.py's seed), one gunicorn from deploy/gunicorn.conf.py (4 workers x 4 threads,
as the phones lane's unit runs it: nice 10, no access log) on 127.0.0.1. `--phones` players' pages are opened once
each (each phone keeps the cookies its page and its first check set, as a browser does), then wrk (`-t1 -c4`) sends
their requests in rotation, each kind in turn:

- revalidated: their checks (GET /t/<slug>/p/<token>/live), each with its current ETag (a 304, what a settled
  hall sends);
- fresh: each with a stale ETag (a 200 with every part drawn, what every phone asks once after a publish);
- page: the player's page itself (as a phone opens or reloads it).

Per request: the app's CPU (every thread of gunicorn's workers, /proc) and PostgreSQL's (every process of the cluster,
the backends that ended included), the median of `--runs` runs of `--seconds` s. `--compare REV` serves REV's app too
(a worktree of this repository at REV, beside this one) and alternates the two, run by run: the machine is noisy, a
ratio from one series is what to trust. Prints a table; figures go to docs/benchmarks.md by hand, dated.
"""
from __future__ import annotations

import argparse
import http.client
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_proxy_load import Publisher, app_cpu_ns, seed, serve, wait_up  # noqa: E402
from bench.bench_public_load import WRK  # noqa: E402
from bench.bench_web import drop_postgres, postgres_url  # noqa: E402
from bench.proxy import stop  # noqa: E402

DB_NAME = "sass_bench_check"
OTHER = 2_000


def postgres_cpu_ns() -> int:
    """CPU the PostgreSQL cluster has used, nanoseconds: each process's (utime + stime) and, for the postmaster,
    its children that have exited (cutime + cstime: a connection's backend ends with it)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        name, rest = text.split("(", 1)[1].rsplit(")", 1)
        if name.startswith("postgres"):
            fields = rest.split()
            used = int(fields[11]) + int(fields[12])
            if Path(f"/proc/{fields[1]}/comm").exists() and \
                    not Path(f"/proc/{fields[1]}/comm").read_text().startswith("postgres"):
                used += int(fields[13]) + int(fields[14])  # the postmaster: its reaped backends
            total += used * 1_000_000_000 // tick
    return total


def phones(base: str, slug: str, tokens: list[str]) -> list[tuple[str, str, str]]:
    """(check path, cookies, current ETag) of each phone: its page opened, then its check asked once, keeping the
    cookies each answer set (as a phone's browser does)."""
    host, port = base.split(":")
    got = []
    for token in tokens:
        jar: dict[str, str] = {}

        def ask(path: str, headers: dict | None = None) -> http.client.HTTPResponse:
            conn = http.client.HTTPConnection(host, int(port), timeout=30)
            conn.request("GET", path, headers={"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items()),
                                               **(headers or {})})
            answer = conn.getresponse()
            answer.read()
            conn.close()
            for k, v in answer.getheaders():
                if k.lower() == "set-cookie":
                    name, value = v.split(";", 1)[0].split("=", 1)
                    jar[name] = value
            return answer

        assert ask(f"/t/{slug}/p/{token}").status == 200
        path = f"/t/{slug}/p/{token}/live"
        etag = ask(path).getheader("ETag")
        assert ask(path, {"If-None-Match": etag}).status == 304
        got.append((path, "; ".join(f"{k}={v}" for k, v in jar.items()), etag))
    return got


KINDS = ("revalidated", "fresh", "page")


def script(checks: list[tuple[str, str, str]], kind: str, close: bool = False) -> str:
    """wrk Lua: the phones' requests in rotation, each with its cookies: their checks with their ETags
    (`revalidated`) or a stale one (`fresh`), or their pages (`page`, as a phone opens or reloads it)."""
    def row(path: str, cookie: str, etag: str) -> str:
        if kind == "page":
            return '{"%s", "%s"}' % (path.removesuffix("/live"), cookie)
        sent = '"stale"' if kind == "fresh" else etag
        return '{"%s", "%s", "%s"}' % (path, cookie, sent.replace('"', '\\"'))

    rows = ",\n".join(row(*check) for check in checks)
    closing = ', ["Connection"] = "close"' if close else ""
    return f"""
local checks = {{
{rows}
}}
local n = 0
request = function()
  n = n + 1
  local c = checks[(n % #checks) + 1]
  return wrk.format("GET", c[1], {{["Cookie"] = c[2], ["If-None-Match"] = c[3]{closing}}})
end
"""


def measure(master: int, base: str, lua: str, seconds: int, connections: int) -> tuple[float, float, float]:
    """(app CPU ms, PostgreSQL CPU ms, checks a second) over one wrk run."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(lua)
    try:
        app0, pg0 = app_cpu_ns(master), postgres_cpu_ns()
        out = subprocess.run([WRK, "-t1", f"-c{connections}", f"-d{seconds}s", "-s", f.name, f"http://{base}/"],
                             capture_output=True, text=True, timeout=seconds + 60, check=True).stdout
        app_ns, pg_ns = app_cpu_ns(master) - app0, postgres_cpu_ns() - pg0
    finally:
        os.unlink(f.name)
    done = int(re.search(r"(\d+) requests in", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    assert not bad, f"{bad.group(1)} checks failed"
    return app_ns / 1e6 / done, pg_ns / 1e6 / done, done / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--phones", type=int, default=500)
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=4, help="wrk's, each a phone's check at a time")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--close", action="store_true", help="each check on a new connection")
    parser.add_argument("--compare", help="a revision of this repository to serve beside this checkout")
    args = parser.parse_args()
    if not os.path.exists(WRK):
        raise SystemExit("needs wrk from Debian (apt-get install -y wrk)")
    uri = postgres_url(DB_NAME)
    if uri is None:
        raise SystemExit("PostgreSQL does not answer at 127.0.0.1:5432")
    folder = Path(tempfile.mkdtemp(prefix="sass-check-bench-"))
    roots = {"this checkout": ROOT}
    procs: list[subprocess.Popen] = []
    try:
        if args.compare:
            other = folder / "compare"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other), args.compare],
                           check=True, capture_output=True)
            roots = {args.compare: other, **roots}
        print(f"seeding a {args.players:,}-player event beside a {OTHER:,}-player one ...", flush=True)
        events, tokens = seed(uri, sizes=(args.players, OTHER), links_of=args.phones)
        _, slug = events[args.players]
        pub = Publisher(uri)  # the last round published, as in a hall after a publish
        pub.set(events[args.players][0], True)
        pub.close()
        served = {}
        for name, root in roots.items():
            proc, base = serve(uri, folder, args.workers, lane=True, threads=args.threads, root=root)
            procs.append(proc)
            wait_up(base, f"/t/{slug}/status.json")
            checks = phones(base, slug, tokens)
            served[name] = (proc.pid, base, {kind: script(checks, kind, args.close) for kind in KINDS})
        results = {(name, kind): [] for name in served for kind in KINDS}
        for _ in range(args.runs):
            for name, (master, base, scripts) in served.items():
                for kind, lua in scripts.items():
                    results[name, kind].append(measure(master, base, lua, args.seconds, args.connections))
        today = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        print(f"\n{today}, load average {os.getloadavg()[0]:.1f}: a player's check straight to gunicorn "
              f"({args.workers} workers x {args.threads} threads, wrk -t1 -c{args.connections}, {args.phones} "
              "phones' checks in rotation with their cookies), a "
              f"{args.players:,}-player event beside a {OTHER:,}-player one on PostgreSQL; median of {args.runs} "
              f"runs of {args.seconds} s")
        print("\n| app | request | app CPU ms | PostgreSQL CPU ms | a second |")
        print("|---|---|---:|---:|---:|")
        for (name, kind), rows in results.items():
            print(f"| {name} | {kind} | {statistics.median(r[0] for r in rows):.2f} "
                  f"| {statistics.median(r[1] for r in rows):.2f} | {statistics.median(r[2] for r in rows):,.0f} |")
    finally:
        stop(procs)
        if args.compare:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder / "compare")],
                           capture_output=True)
        drop_postgres(DB_NAME)


if __name__ == "__main__":
    main()

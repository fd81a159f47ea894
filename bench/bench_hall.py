"""A hall of 10,000 players' phones through the shipped site, each polling its own page as the page's scripts do.

`python -m bench.bench_hall` (`make bench-hall`). PostgreSQL database `sass_bench_hall` (dropped afterwards) with a
10,000-player single-sided event (6 rounds, the last paired but not published) beside a 2,000-player one, served as
deploy/ says (gunicorn from deploy/gunicorn.conf.py, nginx with deploy/nginx-sass.conf in front; bench/proxy.py),
all on 127.0.0.1. Each phone is one player's page, as static/poll.js and static/player_live.js drive it:

- its status poll (status.json every STATUS_POLL_MS, each wait drawn within +-25 %, revalidated): the phones' status
  polls are shared answers, the same bytes for every phone, so wrk sends them (at the hall's rate, with the ETag
  last heard) and each phone learns of a publish at its first status poll after nginx first serves the new status
  (a watcher, one more phone in a process of its own, polls status.json through nginx every 50 ms to see when);
- its own check (GET /t/<slug>/p/<token>/live, revalidated with its ETag) at the interval its page says
  (data-check-ms), and when its status poll names a new round or version at once, or at a big event at a moment
  drawn within the page's spread (data-spread-ms) in place of the next check; its own connection to nginx.

After a warm-up (every phone has checked once), the round is published (--publishes times, withdrawn in between),
and measured from the commit: when status.json names it through nginx, when the pairings page at the new version's
address names it, and when each phone's check has its new table (the answer's card names the round); the app's CPU
over the hall's steady state and over each publish (/proc: every gunicorn worker thread) and the phones' errors.
A failed check (any answer but 200 / 304) is tried again at the phone's next check, as the page does.

Push is on as deployed (bench/hall_push.py): --subscribed of the players (0.3 the likely share, 1 the worst case,
0 push off) subscribed to a stand-in push service in a process of its own, the publish queueing the round's push
event, `flask push-send` sending at its unit's Nice (or --push-sender workers: the workers' threads, which a
commit in this process cannot wake: they find the event within their idle time, 30 s); each publish also reports when
each phone first had its table, from its page or from its push message accepted by the stand-in.
Prints tables; figures go to docs/benchmarks.md by hand, dated. Needs a quiet machine: it fills both cores.
"""
from __future__ import annotations

import argparse
import asyncio
import gzip
import http.client
import multiprocessing
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import proxy  # noqa: E402
from bench.bench_proxy_load import ROUNDS, Publisher, app_cpu_ns, phones_lane, seed, serve, wait_up  # noqa: E402
from bench.proxy import finish  # noqa: E402
from app.core.seat_lookup import bucket  # noqa: E402
from bench.bench_public_load import WRK, get  # noqa: E402
from bench.bench_status_load import free_port  # noqa: E402
from bench.bench_web import drop_postgres, postgres_url  # noqa: E402
from bench.hall_push import HallPush, PushPublisher  # noqa: E402

DB_NAME = "sass_bench_hall"
HALL = 10_000
OTHER = 2_000  # another event's rows in the same tables
STATUS_POLL_MS = 2000  # config.py's default, which the page says (data-poll-ms); read from the page below
DEADLINE = 120  # seconds after a publish: a phone without its table by then is counted as never
LABELS: dict[int, str] = {}  # processes cpu_by_program names apart (the push sender, the stand-in)


@dataclass
class Flip:
    """One publish (or withdrawal) of the last round and what the hall saw of it."""
    published: bool
    at: float  # the commit, monotonic
    status_seen: float | None = None  # nginx's status.json names it
    version_seen: str | None = None  # the pairings' version status.json names then
    pairings_seen: float | None = None  # the pairings page at the new version's address names it
    done: list = field(default_factory=list)  # each phone's seconds from the commit to its new table
    page: dict = field(default_factory=dict)  # the same by player id
    push: dict = field(default_factory=dict)  # player id -> seconds from the commit to their message's acceptance
    commit_s: float = 0.0  # the publish's own time (its transaction)
    learned: list = field(default_factory=list)  # each phone's seconds from the commit to its status naming it
    fetched: list = field(default_factory=list)  # each phone's seconds from then to its bucket's seats answer
    cpu_ns: int = 0  # the app's CPU from the commit until the last phone
    checks: int = 0  # the phones' checks answered meanwhile
    fresh: int = 0  # of them, full answers (200)


@dataclass
class Hall:
    check_ms: int
    spread_ms: int
    status_ms: int
    flip: Flip | None = None
    checks: int = 0  # answers to the phones' own checks
    not_modified: int = 0
    errors: int = 0
    error_kinds: dict = field(default_factory=dict)
    seats: int = 0  # the shared seats answers fetched at publishes


def wrk_status(base: str, slug: str, etag: str, phones: int, every_ms: int, seconds: int) -> subprocess.Popen:
    """The hall's status polls: `phones` every `every_ms`, with the ETag last heard (wrk's Lua `delay`)."""
    connections = 250
    delay = max(1, round(connections * every_ms / phones))  # ms each connection waits: phones / every_ms a second
    script = f"""
local etag = '{etag}'
request = function()
  return wrk.format("GET", "/t/{slug}/status.json", {{["If-None-Match"] = etag, ["Accept-Encoding"] = "gzip"}})
end
response = function(status, headers, body)
  if status == 200 and headers["ETag"] then etag = headers["ETag"] end
end
delay = function() return {delay} end
"""
    lua = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    lua.write(script)
    lua.close()
    return subprocess.Popen([WRK, "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", lua.name,
                             f"http://{base}/"], stdout=subprocess.PIPE, text=True, start_new_session=True)


def watcher(base: str, slug: str, conn) -> None:
    """One more phone, in a process of its own (the hall's 10,000 share one event loop, whose lag would be timed
    too): status.json through nginx every 50 ms while a flip is unseen, as a page polls it (gzip, so it reads the
    copy the hall's polls read); when it names the flip, the pairings page at that version. Gets (flip number,
    published) and sends (flip number, "status" or "pairings", when: the monotonic clock every process shares)."""
    host, port = base.split(":")
    link = None
    flip = None
    while True:
        while conn.poll():
            flip = conn.recv()
            if flip is None:
                return
            version = None
        if flip is not None:
            k, published = flip
            try:
                if link is None:
                    link = http.client.HTTPConnection(host, int(port), timeout=10)
                if version is None:
                    body = _text(link, f"/t/{slug}/status.json")
                    if (f'"round":{ROUNDS},' in body) == published:
                        seen = time.monotonic()
                        version = re.search(r'"version":"([^"]+)"', body).group(1)
                        conn.send((k, "version", version))
                        conn.send((k, "status", seen))
                if version is not None:
                    page = _text(link, f"/t/{slug}/pairings?v={version}")
                    assert (f"Round {ROUNDS}<" in page) == published, "a stale page at the new version's address"
                    conn.send((k, "pairings", time.monotonic()))
                    flip = None
            except (OSError, http.client.HTTPException):
                link = None  # a saturated machine: asked again in 50 ms, and the flip's times say so
        time.sleep(0.05)


def _text(link: http.client.HTTPConnection, path: str) -> str:
    link.request("GET", path, headers={"Accept-Encoding": "gzip"})
    answer = link.getresponse()
    body = answer.read()
    return (gzip.decompress(body) if answer.getheader("Content-Encoding") == "gzip" else body).decode()


async def heard(conn, flips: dict, stop: asyncio.Event) -> None:
    """The watcher's times, onto their flips as they come."""
    while not stop.is_set():
        while conn.poll():
            k, what, when = conn.recv()
            setattr(flips[k], f"{what}_seen", when)  # "version": the version itself
        await asyncio.sleep(0.01)


async def phone(base: str, path: str, hall: Hall, session: aiohttp.ClientSession, stop: asyncio.Event,
                rng: random.Random) -> None:
    etag = None
    now = time.monotonic()
    next_check = now + rng.uniform(0, hall.check_ms / 1000)  # the hall's pages were opened over one interval
    next_status = now + rng.uniform(0, hall.status_ms / 1000)
    learned = None  # the flip this phone's status poll has named
    finished = None  # the flip whose new table this phone has
    player = path.split("/")[4].split(".")[0]  # /t/<slug>/p/<id>.<mac>/live
    seats = f"/api/tournaments/{path.split('/')[2]}/rounds/{ROUNDS}/seats/{bucket(int(player))}"

    async def preview(flip: Flip) -> None:
        """As static/player_live.js: a publish named, the new table from the round's shared seats answer of this
        player's bucket (through nginx's copy), before the page's own check."""
        nonlocal finished
        asked = time.monotonic()
        flip.learned.append(asked - flip.at)
        try:
            async with session.get(f"http://{base}{seats}?v={flip.version_seen}",
                                   headers={"Accept-Encoding": "gzip"}) as r:
                hall.seats += 1
                if r.status != 200:
                    return
                answer = await r.json()
        except (aiohttp.ClientError, asyncio.TimeoutError) as e:
            hall.errors += 1
            kind = f"seats {type(e).__name__}"
            hall.error_kinds[kind] = hall.error_kinds.get(kind, 0) + 1
            return
        flip.fetched.append(time.monotonic() - asked)
        if flip.published and finished is not flip and answer["seats"].get(player):
            finished = flip
            flip.done.append(time.monotonic() - flip.at)
            flip.page[player] = flip.done[-1]

    async def check() -> None:
        nonlocal etag, finished
        headers = {"Accept": "application/json", "Accept-Encoding": "gzip"}
        if etag:
            headers["If-None-Match"] = etag
        try:
            async with session.get(f"http://{base}{path}", headers=headers) as r:
                hall.checks += 1
                if r.status == 304:
                    hall.not_modified += 1
                    return
                if r.status != 200:
                    hall.errors += 1
                    hall.error_kinds[r.status] = hall.error_kinds.get(r.status, 0) + 1
                    return
                answer = await r.json()
                etag = r.headers.get("ETag", etag)
        except (aiohttp.ClientError, asyncio.TimeoutError) as e:
            hall.errors += 1
            kind = type(e).__name__
            hall.error_kinds[kind] = hall.error_kinds.get(kind, 0) + 1
            return
        card = answer["fragments"]["me-card"]
        flip = hall.flip  # as answered: an answer sent before the flip's commit names the old round
        if flip is not None and finished is not flip:
            if (f"Round {ROUNDS}<" in card or f"Round {ROUNDS} " in card) == flip.published:
                finished = flip
                flip.done.append(time.monotonic() - flip.at)
                flip.page[player] = flip.done[-1]

    while not stop.is_set():
        now = time.monotonic()
        if now >= next_status:
            next_status = now + hall.status_ms / 1000 * rng.uniform(0.75, 1.25)
            flip = hall.flip
            if flip is not None and learned is not flip and flip.status_seen is not None \
                    and flip.status_seen <= now:
                learned = flip
                if flip.published:
                    await preview(flip)
                if hall.spread_ms:  # the page's check after a publish, within its spread, in place of the next
                    next_check = now + rng.uniform(0, hall.spread_ms / 1000)
                else:
                    await check()  # a new round named: the page asks at once
        if now >= next_check:
            next_check = now + hall.check_ms / 1000 * rng.uniform(0.75, 1.25)
            await check()
        await asyncio.sleep(max(0.0, min(next_status, next_check) - time.monotonic()))


async def settled(hall: Hall, phones: int, most: float = 180) -> None:
    """Until the hall is in its steady state (as between two rounds, which are most of an hour apart): for 5 s
    almost every check a 304 (fewer full answers a second than 1 % of the phones' checks), and the checks at
    about the rate the interval sets (a server that fell behind gets a bunch of late ones)."""
    rate = phones / (hall.check_ms / 1000)
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        checks, fresh = hall.checks, hall.checks - hall.not_modified
        await asyncio.sleep(5)
        if (hall.checks - hall.not_modified - fresh) / 5 < 0.01 * rate and (hall.checks - checks) / 5 < 1.2 * rate:
            return
    print("  (the hall did not settle)", flush=True)


async def run_hall(args, base: str, slug: str, tid: int, links: list[str], pub: Publisher, master: int,
                   check_ms: int, spread_ms: int, status_ms: int, watching,
                   push: HallPush | None = None) -> tuple[Hall, list[Flip], dict]:
    hall = Hall(check_ms=check_ms, spread_ms=spread_ms, status_ms=status_ms)
    stop = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=75)  # a phone keeps its connection, as a browser
    timeout = aiohttp.ClientTimeout(total=60)
    flips: list[Flip] = []
    steady = {}
    async with aiohttp.ClientSession(connector=connector, timeout=timeout, auto_decompress=True) as session:
        rngs = random.Random(args.seed)
        tasks = [asyncio.create_task(phone(base, path, hall, session, stop, random.Random(rngs.random())))
                 for path in links]
        by_number: dict[int, Flip] = {}
        tasks.append(asyncio.create_task(heard(watching, by_number, stop)))
        loop = asyncio.get_running_loop()
        print(f"warming up: every phone opens its page's check over {check_ms / 1000:.0f} s ...", flush=True)
        await asyncio.sleep(check_ms / 1000 * 1.3 + 2)
        await settled(hall, len(links))
        cpu0, t0, checks0, own0 = app_cpu_ns(master), time.monotonic(), hall.checks, time.process_time()
        fresh0 = hall.checks - hall.not_modified
        programs = cpu_by_program()
        await asyncio.sleep(args.steady)
        elapsed = time.monotonic() - t0
        print(f"  steady state, cores by program: {cpu_since(programs, elapsed)}", flush=True)
        steady = {"seconds": elapsed, "app_cores": (app_cpu_ns(master) - cpu0) / 1e9 / elapsed,
                  "checks_per_s": (hall.checks - checks0) / elapsed,
                  "fresh_per_s": (hall.checks - hall.not_modified - fresh0) / elapsed,
                  "phones_cores": (time.process_time() - own0) / elapsed, "errors": hall.errors}
        for k in range(args.publishes * 2):
            published = k % 2 == 0
            cpu0, programs = app_cpu_ns(master), cpu_by_program()
            checks0, fresh0 = hall.checks, hall.checks - hall.not_modified
            flip = Flip(published, time.monotonic())  # before the commit: no answer after it goes uncounted
            hall.flip = by_number[k] = flip
            watching.send((k, published))
            await loop.run_in_executor(None, pub.set, tid, published)
            flip.commit_s = pub.seconds[-1]
            subscribed = len(push.player_of) if push and published else 0
            while (len(flip.done) < len(links) or len(flip.push) < subscribed) \
                    and time.monotonic() - flip.at < DEADLINE:
                await asyncio.sleep(0.1)
                if subscribed:
                    for player, at in push.taken().items():
                        flip.push.setdefault(player, at - flip.at)
            flip.cpu_ns = app_cpu_ns(master) - cpu0
            flip.checks, flip.fresh = hall.checks - checks0, hall.checks - hall.not_modified - fresh0
            print(f"  cores by program: {cpu_since(programs, time.monotonic() - flip.at)}", flush=True)
            flips.append(flip)
            print(f"  {'publish' if published else 'withdraw'}: status {_after(flip, flip.status_seen)} s, "
                  f"{len(flip.done):,} phones, the last at {max(flip.done or [0]):.1f} s; push messages "
                  f"{len(flip.push):,} of {subscribed:,}, the last at {max(flip.push.values() or [0]):.1f} s",
                  flush=True)
            await asyncio.sleep(args.pause)
            await settled(hall, len(links))
        stop.set()
        await asyncio.gather(*tasks)
    return hall, flips, steady


def _after(flip: Flip, seen: float | None) -> str:
    """Seconds from the flip's commit to `seen`; "never" within the benchmark's wait."""
    return "never" if seen is None else f"{seen - flip.at:.2f}"


def cpu_by_program() -> dict:
    """Seconds of CPU every process on the machine has used, by program (/proc/<pid>/stat: its own and its
    reaped children's), for what the hall costs beside the app: PostgreSQL, nginx, wrk, this process."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        pid = int(stat.parent.name)
        key = (LABELS[pid] if pid in LABELS else "phones" if pid == os.getpid()
               else "postgres" if name.startswith("postgres")
               else "gunicorn" if "gunicorn" in name or "python" in name else name)
        out[key] = out.get(key, 0) + (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / tick
    return out


def cpu_since(before: dict, seconds: float) -> str:
    """Cores each program used since `before` (cpu_by_program)."""
    now = cpu_by_program()
    used = {k: (v - before.get(k, 0)) / seconds for k, v in now.items()}
    return ", ".join(f"{k} {v:.2f}" for k, v in sorted(used.items(), key=lambda kv: -kv[1]) if v >= 0.01)


def _spread(values: list[float]) -> str:
    return (f"median {statistics.median(values):.2f}, p99 {pct(values, 0.99):.2f}, last {max(values):.2f}"
            if values else "never")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report_push(args, flips: list[Flip], push: HallPush | None) -> None:
    """Push's share of each publish: when each phone first had its table (page or message), the messages alone,
    and the publish's own time."""
    published = [f for f in flips if f.published]
    commits = ", ".join(f"{f.commit_s * 1000:.0f}" for f in published)
    if push is None:
        print(f"- push off; the publish's own time (its transaction) {commits} ms")
        return
    sender = "flask push-send at its unit's Nice" if push.where == "process" else "the workers' threads"
    print(f"- push on: {len(push.player_of):,} of {args.phones:,} players subscribed ({args.subscribed:.0%}), sent "
          f"by {sender}; the "
          f"stand-in decrypted and checked {push.decrypted:,} (1 in {args.verify_every}), refused {len(push.refused)}"
          f"{' ' + repr(push.refused[:3]) if push.refused else ''}; the publish's own time {commits} ms")
    print("\n| publish | page only: last s (p99) | page or push: median s | p99 s | last s "
          "| push accepted | push median s | push last s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for k, f in enumerate(published, 1):
        first = [min(t, f.push.get(p, t)) for p, t in f.page.items()]
        first += [t for p, t in f.push.items() if p not in f.page]
        pushed = list(f.push.values()) or [float("nan")]
        first = first or [float("nan")]
        print(f"| {k} | {max(f.done or [float('nan')]):.1f} ({pct(f.done or [0], 0.99):.1f})"
              f" | {statistics.median(first):.1f} | {pct(first, 0.99):.1f} | {max(first):.1f} "
              f"| {len(f.push):,} of {len(push.player_of):,} | {statistics.median(pushed):.1f} | {max(pushed):.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=HALL)
    parser.add_argument("--publishes", type=int, default=3, help="publishes timed (each withdrawn after)")
    parser.add_argument("--steady", type=int, default=15, help="seconds of the hall's steady state measured")
    parser.add_argument("--pause", type=float, default=5, help="seconds after a flip's last phone, before the "
                        "hall is waited for to settle")
    parser.add_argument("--workers", type=int, default=2, help="the app lane's gunicorn workers")
    parser.add_argument("--phone-workers", type=int, default=4, help="the phones lane's")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--subscribed", type=float, default=0.3, help="share of the players subscribed to push "
                        "(0.3 the likely case, 1 the worst; 0: push off)")
    parser.add_argument("--push-sender", choices=("process", "workers"), default="process",
                        help="flask push-send at its unit's Nice (as deploy/ runs it), or the workers' threads")
    parser.add_argument("--verify-every", type=int, default=50, help="the stand-in decrypts and checks every Nth "
                        "message and counts the others")
    args = parser.parse_args()
    if not os.path.exists(WRK) or not os.path.exists(proxy.NGINX):
        raise SystemExit("needs wrk and nginx from Debian (apt-get install -y wrk nginx)")
    uri = postgres_url(DB_NAME)
    if uri is None:
        raise SystemExit("PostgreSQL does not answer at 127.0.0.1:5432")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a connection per phone
    procs = []
    pub = None
    push = None
    try:
        print(f"seeding a {args.phones:,}-player event beside a {OTHER:,}-player one ...", flush=True)
        events, tokens = seed(uri, sizes=(args.phones, OTHER), links_of=args.phones)
        tid, slug = events[args.phones]
        folder = Path(tempfile.mkdtemp(prefix="sass-hall-bench-"))
        if args.subscribed > 0:
            push = HallPush(args.subscribed, args.verify_every, args.push_sender, args.seed)
            push.start(uri, tid, [token.split(".")[0] for token in tokens])
            push.start_sender(uri, folder)
            LABELS.update(push.pids())
        app, direct = serve(uri, folder, args.workers)
        procs.append(app)
        lane, lane_address = serve(uri, folder, args.phone_workers, lane=True)
        procs.append(lane)
        port = free_port()
        nginx = proxy.start([direct], port, folder, workers=1, log=False, connections=4 * args.phones,
                            phones=[lane_address])
        procs.append(nginx)
        base = f"127.0.0.1:{port}"
        wait_up(base, f"/t/{slug}/status.json")
        links = [f"/t/{slug}/p/{token}/live" for token in tokens]
        page = get(base, links[0].removesuffix("/live"))[2].decode()
        check_ms = int(re.search(r'data-check-ms="(\d+)"', page).group(1))
        spread_ms = int(re.search(r'data-spread-ms="(\d+)"', page).group(1))
        status_ms = int(re.search(r'data-poll-ms="(\d+)"', page).group(1))
        _, headers, _, _ = get(base, f"/t/{slug}/status.json")
        pub = PushPublisher(uri)
        seconds = int(check_ms / 1000 * 1.3 + 2 + args.steady
                      + (args.publishes * 2 + 1) * (DEADLINE + args.pause + 180))
        status_load = wrk_status(base, slug, headers["etag"], args.phones, status_ms, seconds)
        procs.append(status_load)
        watching, there = multiprocessing.Pipe()
        watch = multiprocessing.get_context("fork").Process(target=watcher, args=(base, slug, there), daemon=True)
        watch.start()
        try:
            hall, flips, steady = asyncio.run(run_hall(args, base, slug, tid, links, pub, lane.pid, check_ms,
                                                          spread_ms, status_ms, watching, push))
        finally:
            watching.send(None)
            watch.join(timeout=30)
        os.killpg(status_load.pid, signal.SIGINT)
        out = status_load.communicate(timeout=30)[0]
        status_rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        today = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        load = os.getloadavg()[0]
        print(f"\n{today}, load average {load:.1f}: {args.phones:,} phones, each its own player's page, through the "
              f"shipped site (gunicorn: app lane {args.workers} workers, phones lane {args.phone_workers} at nice "
              f"{phones_lane()[0]}, "
              "4 threads each; nginx, PostgreSQL, on 2 cores)")
        print(f"- the page's intervals: status every {status_ms / 1000:g} s (shared; wrk sent {status_rps:,.0f} "
              f"a second), own check every {check_ms / 1000:g} s, after a publish within {spread_ms / 1000:g} s")
        print(f"- steady state ({steady['seconds']:.0f} s): {steady['checks_per_s']:,.0f} own checks a second "
              f"({steady['fresh_per_s']:,.0f} a second answered 200), the app "
              f"{steady['app_cores']:.2f} cores (phones lane), the phones' process {steady['phones_cores']:.2f}")
        print("\n| flip | status.json names it s | pairings page names it s | phones with their new table "
              "| median s | p95 s | p99 s | last s | checks (200s) | phones lane CPU s |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for flip in flips:
            done = flip.done or [float("nan")]
            print(f"| {'publish' if flip.published else 'withdraw'} | {_after(flip, flip.status_seen)} "
                  f"| {_after(flip, flip.pairings_seen)} | {len(flip.done):,} of {args.phones:,} "
                  f"| {statistics.median(done):.1f} | {pct(done, 0.95):.1f} | {pct(done, 0.99):.1f} "
                  f"| {max(done):.1f} | {flip.checks:,} ({flip.fresh:,}) | {flip.cpu_ns / 1e9:.1f} |")
        for flip in flips:
            if flip.fetched:
                print(f"- {'publish' if flip.published else 'withdraw'}: the phones' status polls named it "
                      f"{_spread(flip.learned)} s after the commit; their bucket's seats answer then took "
                      f"{_spread(flip.fetched)} s")
        report_push(args, flips, push)
        print(f"\nphones' checks answered: {hall.checks:,}; shared seats answers fetched: {hall.seats:,}; "
              f"errors {hall.errors:,} {hall.error_kinds or ''}")
    finally:
        if push is not None:
            push.stop()
        finish(pub, procs, lambda: drop_postgres(DB_NAME))


if __name__ == "__main__":
    main()

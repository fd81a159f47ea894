"""Engine benchmark: median time per round, peak memory and certification at 50 to 100,000 players.

`python -m bench.bench_engine` (or `make bench`); `--quick` for 50 and 400 players only. Each size runs in its
own process (so memory figures do not mix): it plays a random event with the engine itself (random results)
and measures rounds 1, 5 and 10. At 400 players the same rounds are also paired with networkx on the full graph
and the total costs compared.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.core.pairing import Format, pair_round  # noqa: E402
from app.core.pairing.playout import field, play_rounds  # noqa: E402
from bench.workers import worker_rows  # noqa: E402

SIZES = (50, 400, 2_000, 20_000, 100_000)
QUICK_SIZES = (50, 400)
MEASURED_ROUNDS = (1, 5, 10)
REFERENCE_SIZE = 400


def repeats(n: int) -> int:
    return 5 if n <= 2_000 else 3 if n <= 20_000 else 1


def worker(fmt: Format, n: int) -> None:
    """Play one event of n players; print one JSON line per measured round."""
    ents = field(n)
    pair_round(fmt, field(40), [], seed=0)  # imports and first-call costs out of the way
    games: list = []
    for rnd in range(1, max(MEASURED_ROUNDS) + 1):
        if rnd in MEASURED_ROUNDS:
            times = []
            for k in range(repeats(n)):
                t0 = time.perf_counter()
                plan = pair_round(fmt, ents, games, seed=rnd)
                times.append(time.perf_counter() - t0)
            tracemalloc.start()
            pair_round(fmt, ents, games, seed=rnd)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            row = dict(
                format=fmt.value, players=n, round=rnd, median=statistics.median(times), peak_mb=peak / 2**20,
                rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                certified=plan.certified_optimal, notes=plan.notes, cost=str(plan.total_cost),
            )
            if n == REFERENCE_SIZE:
                t0 = time.perf_counter()
                ref = pair_round(fmt, ents, games, seed=rnd, solver="networkx")
                row["networkx"] = time.perf_counter() - t0
                row["equal_cost"] = ref.total_cost == plan.total_cost
            print(json.dumps(row), flush=True)
        if rnd < max(MEASURED_ROUNDS):
            games = play_rounds(fmt, ents, 1, seed=rnd, games=games)


def table_row(r: dict) -> str:
    ref = ratio = same = ""
    if "networkx" in r:
        ref = f"{r['networkx']:.3f}"
        ratio = f"{r['networkx'] / r['median']:.0f}x"
        same = "yes" if r["equal_cost"] else "NO"
    return (f"| {r['format']} | {r['players']:,} | {r['round']} | {r['median']:.3f} | {r['peak_mb']:.0f} | "
            f"{r['rss_mb']:.0f} | {'yes' if r['certified'] else 'no'} | {ref} | {ratio} | {same} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="50 and 400 players only")
    parser.add_argument("--sizes", type=int, nargs="*", help="player counts (default: 50 400 2000 20000 100000)")
    parser.add_argument("--formats", nargs="*", default=["single", "plain"], choices=["single", "double", "plain"])
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(Format(args.worker[0]), int(args.worker[1]))
        return 0
    sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)
    print(f"Engine benchmark, {os.cpu_count()} cores, python {sys.version.split()[0]}; "
          f"rounds {', '.join(map(str, MEASURED_ROUNDS))} of a random event; median of repeated pairings.\n")
    print("| format | players | round | median s | peak MB (tracemalloc) | max RSS MB | certified optimal "
          "| networkx s | speed-up | same cost |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    failures = 0
    for name in args.formats:
        fmt = Format(name)
        for n in sizes:
            rows = worker_rows("bench.bench_engine", fmt.value, n)
            failures += not rows
            for r in rows:
                print(table_row(r), flush=True)
                failures += r.get("equal_cost") is False
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

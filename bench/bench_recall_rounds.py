"""How many rounds of single-sided swiss find the 8 best players: expected true top-8 players in the swiss top 8,
per field size and round, next to the rounds the app recommends.

`python -m bench.bench_recall_rounds [--events N] [--sizes 16,32,...] [--jobs J] [--write]`

Rounds go up to 40, or a round robin's n - 1 where that is fewer; a round's figure is printed (and stored) while
at least 95 % of the events could still be paired that far.

`--write` stores the mean recall per size and round in app/core/data/top8_recall.json, which the app shows next
to the rounds it recommends (app/core/round_advice.py).

The events are bench_ranking's (normal skills, logistic results, 2 % ties) paired by SASS's engine with its
defaults; after every round the standings (points, SoS, ESoS) are compared with the true order. For each field size
it prints the app's recommended rounds (`app.core.standings.recommended_rounds`), the recall after them, and the
first round after which the mean recall reaches 7 of 8 (or "> R" when it does not within the rounds played).
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path

from app.core.pairing import PairingError
from app.core.standings import recommended_rounds
from bench.bench_ranking import CUT, _accuracy, final_orders, play, truth_order

SIZES = (12, 16, 20, 24, 28, 32, 40, 48, 60, 64, 80, 96, 128, 160, 192, 256)
TARGET = 7
DATA = Path(__file__).resolve().parent.parent / "app" / "core" / "data" / "top8_recall.json"


HORIZON = 40  # rounds: four days of single-sided play, well past any event
REACHED = 0.95  # a round's figure is kept when at least this share of the events could be paired that far


def max_rounds(n: int) -> int:
    """Rounds played per size: HORIZON, or a round robin's n - 1 rounds where that is fewer (past it, second
    meetings run out and the engine rightly finds no legal pairing)."""
    return min(n - 1, HORIZON)


def curve(args):
    """Top-8 recall after each round of one event."""
    n, rounds, seed = args
    out = []
    try:
        for skill, st, games, _ in play("sass", n, rounds, seed):
            order, _ = final_orders(seed, st, games)
            out.append(_accuracy(order, truth_order(skill))[1])
    except PairingError:  # late in a round robin, second meetings can run out: the event ends there
        pass
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=300)
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--write", action="store_true", help=f"store the curves in {DATA.name} for the app")
    args = ap.parse_args(argv)
    table = {}
    sizes = [int(x) for x in args.sizes.split(",")]
    print(f"\nTrue top-{CUT} players in the swiss top {CUT}, {args.events} events per size: mean (SE)\n")
    print("| players | recommended rounds | after them | after 2 more | after twice as many | rounds to 6 of 8 "
          "| rounds to 7 of 8 | after the last round simulated |")
    print("|---|---|---|---|---|---|---|---|")
    with Pool(args.jobs) as pool:
        for n in sizes:
            rounds = max_rounds(n)
            curves = pool.map(curve, [(n, rounds, s) for s in range(args.events)], chunksize=4)
            rounds = next((r for r in range(rounds) if sum(len(c) > r for c in curves) < REACHED * len(curves)),
                          rounds)
            means = [statistics.mean(c[r] for c in curves if len(c) > r) for r in range(rounds)]
            ses = [statistics.stdev(c[r] for c in curves if len(c) > r) / math.sqrt(len(curves))
                   for r in range(rounds)]
            table[str(n)] = [round(m, 2) for m in means]
            rec = recommended_rounds(n)

            def after(r):
                return f"{means[r - 1]:.2f} ({ses[r - 1]:.2f})" if r <= rounds else "-"

            def reach(target):
                return next((str(r + 1) for r in range(rounds) if means[r] >= target), f"> {rounds}")

            print(f"| {n} | {rec} | {after(rec)} | {after(rec + 2)} | {after(2 * rec)} | {reach(TARGET - 1)} "
                  f"| {reach(TARGET)} | {after(rounds)} after {rounds} |")
            sys.stdout.flush()
    if args.write:
        head = {"what": f"mean true top-{CUT} players in the swiss top {CUT} after each round, single-sided swiss, "
                        "SASS's defaults, standings with SoS and ESoS (bench/bench_recall_rounds.py)",
                "events": args.events, "date": datetime.date.today().isoformat(), "target": TARGET}
        lines = [f" {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
        curves = [f"  {json.dumps(n)}: {json.dumps(curve)}" for n, curve in table.items()]
        DATA.write_text("{\n" + "\n".join(lines) + '\n "players": {\n' + ",\n".join(curves) + "\n }\n}\n")
        print(f"\nwritten to {DATA}")


if __name__ == "__main__":
    main()

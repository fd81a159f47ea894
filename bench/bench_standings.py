"""Standings benchmark: median time of `compute_standings` (and of the `History` fold it starts with).

`python -m bench.bench_standings` prints a markdown table for 2,000 / 20,000 / 100,000 players x 10 rounds, for
single-sided and plain swiss under each tiebreaker system. Events are random but legal-looking: each round pairs
the players still in at random within rough score groups, the odd one out gets a bye (nobody twice), and a few
players drop (flagged, still ranked and still opponents). No engine involved, so 100,000 players build in seconds.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.core.pairing import Entrant, Format, Game, History, Side  # noqa: E402
from app.core.standings import TIEBREAKERS, compute_standings  # noqa: E402

SIZES = (2_000, 20_000, 100_000)
ROUNDS = 10
FORMATS = ("single", "plain")
DROP_RATE = 0.02  # per player per round, from round 3 on
PLAIN_RESULTS = ((2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1), (1, 1, 0), (2, 0, 1))


def event(fmt: Format, n: int, rounds: int = ROUNDS, seed: int = 0) -> tuple[list[Entrant], list[Game]]:
    """A random event of n players: byes, drops, ties, repeat-free pairings within rough score groups."""
    rnd = random.Random(f"standings:{fmt.value}:{n}:{seed}")
    s = fmt.scoring
    points = dict.fromkeys(range(1, n + 1), 0)
    active = list(points)
    had_bye: set = set()
    dropped: set = set()
    games: list[Game] = []
    for r in range(1, rounds + 1):
        if r >= 3:
            leaving = {p for p in active if rnd.random() < DROP_RATE}
            dropped |= leaving
            active = [p for p in active if p not in leaving]
        # a random shuffle, then a stable sort by points: random opponents of about the same score
        order = active[:]
        rnd.shuffle(order)
        order.sort(key=points.__getitem__, reverse=True)
        if len(order) % 2:
            bye = next(p for p in reversed(order) if p not in had_bye)
            had_bye.add(bye)
            order.remove(bye)
            games.append(Game(r, bye, None, s.bye))
            points[bye] += s.bye
        for a, b in zip(order[0::2], order[1::2]):
            if fmt.counts_games:
                ga, gb, gd = rnd.choice(PLAIN_RESULTS)
                pa, pb = (s.win, s.loss) if ga > gb else (s.loss, s.win) if gb > ga else (s.tie, s.tie)
                g = Game(r, a, b, pa, pb, player_games=ga, opponent_games=gb, drawn_games=gd)
            elif fmt.both_sides:
                pa = rnd.choice((6, 4, 3, 3, 2, 1, 0))
                pb = {6: 0, 4: 1, 3: 3, 2: 2, 1: 4, 0: 6}[pa]
                g = Game(r, a, b, pa, pb)
            else:
                x = rnd.random()
                pa, pb = (s.tie, s.tie) if x < 0.05 else (s.win, s.loss) if x < 0.525 else (s.loss, s.win)
                g = Game(r, a, b, pa, pb, player_side=rnd.choice((Side.CORP, Side.RUNNER)))
            games.append(g)
            points[a] += g.player_points
            points[b] += g.opponent_points
    entrants = [Entrant(p, f"Player {p}", dropped=p in dropped) for p in points]
    return entrants, games


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def repeats(n: int) -> int:
    return 7 if n <= 2_000 else 5 if n <= 20_000 else 3


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--formats", nargs="*", default=list(FORMATS), choices=["single", "double", "plain"])
    parser.add_argument("--systems", nargs="*", default=list(TIEBREAKERS), choices=list(TIEBREAKERS))
    parser.add_argument("--repeats", type=int, help="timings per cell (default: 7, 5 or 3 by size)")
    args = parser.parse_args(argv)
    print(f"Standings benchmark, {os.cpu_count()} cores, python {sys.version.split()[0]}; {ROUNDS} rounds of a "
          f"random event ({DROP_RATE:.0%} drop per round from round 3); median seconds.\n")
    print("| format | players | games | History fold | " + " | ".join(args.systems) + " |")
    print("|---|---|---|---|" + "---|" * len(args.systems))
    for name in args.formats:
        fmt = Format(name)
        for n in args.sizes:
            entrants, games = event(fmt, n)
            k = args.repeats or repeats(n)
            ids = [e.id for e in entrants]
            cells = [f"{median_time(lambda: History(fmt, games, ids), k):.3f}"]
            for system in args.systems:
                t = median_time(lambda: compute_standings(fmt, entrants, games, tiebreakers=system), k)
                cells.append(f"{t:.3f}")
            print(f"| {name} | {n:,} | {len(games):,} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

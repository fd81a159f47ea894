"""Rating speed: a series of 50 events x 100 players rated from scratch, and the update after one result.

`python -m bench.bench_ratings` (`make bench-ratings`). A club of 100 players; 50 events, each with every player
and 7 rounds of random pairings (350 games an event, 17,500 in all), sided, 2 % draws. Times are CPU
(time.process_time), the best of 3. "After one result": the current event's period rated again from the snapshot
kept before it (`rate_period(before, games)`), which is what a changed result in the current event costs; a
changed result in an earlier event rates again from that event's snapshot on (at most the full recompute). Then
the seeding's joint fit of all the games (app/core/rating_fit.py), made once per event a worker pairs.
"""
from __future__ import annotations

import random
import time
from fractions import Fraction

from app.core import rating_fit
from app.core.pairing.formats import Side
from app.core.ratings import Game, Model, rate, rate_period

PLAYERS, EVENTS, ROUNDS = 100, 50, 7


def series(seed: int = 1) -> list[list[Game]]:
    rnd = random.Random(seed)
    skill = [rnd.gauss(0, 1) for _ in range(PLAYERS)]
    out = []
    for e in range(EVENTS):
        games = []
        for _ in range(ROUNDS):
            ids = list(range(PLAYERS))
            rnd.shuffle(ids)
            for a, b in zip(ids[::2], ids[1::2]):
                p = 1 / (1 + 2.718281828 ** (skill[b] - skill[a]))
                x = rnd.random()
                outcome = Fraction(1, 2) if x < 0.02 else Fraction(1) if rnd.random() < p else Fraction(0)
                games.append(Game(a, b, outcome, rnd.choice([Side.CORP, Side.RUNNER]), e))
        out.append(games)
    return out


def _cpu(fn, repeat=3):
    best = None
    for _ in range(repeat):
        t = time.process_time()
        fn()
        t = time.process_time() - t
        best = t if best is None else min(best, t)
    return best


def main() -> None:
    events = series()
    flat = [g for e in events for g in e]
    print(f"{EVENTS} events x {PLAYERS} players, {len(flat):,} games\n")
    print("| model | from scratch (CPU s) | per event (CPU ms) | after one result (CPU ms) |")
    print("|---|---|---|---|")
    for model in Model:
        full = _cpu(lambda: rate(flat, model))
        before = rate([g for e in events[:-1] for g in e], model)
        last = events[-1]
        changed = last[:-1] + [Game(last[-1].first, last[-1].second, 1 - last[-1].outcome, last[-1].first_side,
                                    last[-1].period)]
        one = _cpu(lambda: rate_period(before, changed), repeat=5)
        print(f"| {model.value} | {full:.2f} | {1000 * full / EVENTS:.1f} | {1000 * one:.1f} |")
    # the seeding's joint fit (app/core/rating_fit.py): once per event and worker, from scratch (never warm-started
    # in the app, so every worker agrees); warm-started from the fit before the last event, for comparison
    full = _cpu(lambda: rating_fit.fit(flat))
    before = rating_fit.fit([g for e in events[:-1] for g in e])
    warm = _cpu(lambda: rating_fit.fit(flat, start=before), repeat=5)
    print(f"| the seeding's joint fit | {full:.2f} | - | (from scratch; warm-started {1000 * warm:.0f}) |")


if __name__ == "__main__":
    main()

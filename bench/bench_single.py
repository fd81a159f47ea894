"""Sided-swiss benchmark on histories that are not easy: ties, late entries, drops, fixed tables, lopsided sides,
and the |bias|-16 adversarial field. Median seconds per round, peak RSS, rounds certified optimal.

`python -m bench.bench_single` (run by `make bench`); `--quick` for small fields. Each (scenario, size) runs in its
own process so that RSS figures do not mix. Every round of the event is paired by the engine (solver "auto") and
timed; the history is then extended with seeded results.

Scenarios (all 2 % ties, Corp and Runner equally likely to win unless said otherwise):
- base: nothing else.
- late: before every round from 2 on, 5 % of the starting field more join late, each with a bye for the round
  before the one they join (their only earlier round), so the lowest scorers have already had a bye.
- drops: 3 % of the active players drop after every round.
- fixed: 1 % of the players hold a fixed table.
- lopsided: the Corp wins 70 % of the games that are not tied.
- all: every one of the above at once.
- bias16: half the field played Corp against the other half in 16 drawn rounds (|bias| 16 for everybody, side
  costs near 2**50); the 17th round is paired (the only round timed).

`--random`: the random-pairing histories instead (app/core/pairing/random_pairings.py: what an imported
hand-paired event looks like; points, side biases and earlier opponents scattered). 20,000 players after 14
random rounds (round 15 paired) and 2,000 after 24 (round 25), each with no drops (even field) and with 1 % of
the field dropping after every round (odd fields, byes); three histories each, the last round timed on each.
The engine's bound (docs/engine.md): every round <= 5 s CPU and <= 500 MB, certified or with its proven gap.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.core.pairing import Entrant, Format, Game, Side, pair_round  # noqa: E402
from bench.workers import worker_rows  # noqa: E402

SCENARIOS = ("base", "late", "drops", "fixed", "lopsided", "all", "bias16")
SIZES = (20_000, 100_000)
QUICK_SIZES = (2_000,)
ROUNDS = 15
BIG_ROUNDS = 5  # at 100,000 players only the first rounds are paired (bounded run time on a shared machine)
BIG = 50_000


def scenario_options(name: str) -> dict:
    opts = dict(tie=0.02, late=0.0, drop=0.0, fixed=0.0, corp_wins=0.5)
    if name in ("late", "all"):
        opts["late"] = 0.05
    if name in ("drops", "all"):
        opts["drop"] = 0.03
    if name in ("fixed", "all"):
        opts["fixed"] = 0.01
    if name in ("lopsided", "all"):
        opts["corp_wins"] = 0.7
    return opts


class Event:
    """A growing single- or double-sided event: entrants (late ones join, some drop) and its games."""

    def __init__(self, fmt: Format, n: int, seed: int, tie=0.02, late=0.0, drop=0.0, fixed=0.0, corp_wins=0.5):
        self.fmt, self.n, self.rnd = fmt, n, random.Random(f"bench-single:{seed}")
        self.tie, self.late, self.drop, self.corp_wins = tie, late, drop, corp_wins
        start = n if not late else int(n * (1 - late * 4))  # late entrants bring the field up to about n
        tables = self.rnd.sample(range(1, n // 2), int(n * fixed)) if fixed else []
        self.entrants: dict = {}
        for i in range(start):
            self.entrants[i] = Entrant(i, f"P{i}", fixed_table=tables[i] if i < len(tables) else None)
        self.next_id = start
        self.games: list[Game] = []

    def before_round(self, r: int) -> None:
        """Late entrants for round r join with a bye for round r - 1."""
        if not self.late or r < 2:
            return
        for _ in range(int(self.n * self.late / 4)):  # about 5 % of the starting field over four rounds
            pid = self.next_id
            self.next_id += 1
            self.entrants[pid] = Entrant(pid, f"P{pid}")
            self.games.append(Game(r - 1, pid, None, self.fmt.scoring.bye))

    def play(self, plan) -> None:
        s = self.fmt.scoring
        for p in plan.pairings:
            if p.is_bye:
                self.games.append(Game(plan.round, p.player, None, s.bye))
                continue
            if self.fmt.both_sides:
                pts = [self._game() for _ in range(2)]
                a, b = sum(x for x, _ in pts), sum(y for _, y in pts)
                self.games.append(Game(plan.round, p.player, p.opponent, a, b))
            else:
                a, b = self._game()
                self.games.append(Game(plan.round, p.player, p.opponent, a, b, player_side=Side.CORP))
        if self.drop:
            for pid, e in list(self.entrants.items()):
                if not e.dropped and self.rnd.random() < self.drop:
                    self.entrants[pid] = Entrant(pid, e.name, dropped=True, fixed_table=e.fixed_table)

    def _game(self) -> tuple[int, int]:
        s = self.fmt.scoring
        if self.rnd.random() < self.tie:
            return s.tie, s.tie
        return (s.win, s.loss) if self.rnd.random() < self.corp_wins else (s.loss, s.win)


def bias16_games(n: int, rounds: int = 16) -> tuple[list[Entrant], list[Game]]:
    """Half the field always Corp against the other half, every game drawn: |bias| 16, equal points."""
    half = n // 2
    tie = Format.SINGLE_SIDED.scoring.tie
    games = [Game(r, i, half + (i + r) % half, tie, tie, player_side=Side.CORP)
             for r in range(1, rounds + 1) for i in range(half)]
    return [Entrant(i, f"P{i}") for i in range(2 * half)], games


RANDOM_CASES = ((20_000, 15), (2_000, 25))
RANDOM_DROPS = (0.0, 0.01)
RANDOM_SEEDS = (1, 2, 3)


def random_worker(fmt: Format, n: int, rnd: int, drop: float, seed: int) -> None:
    """The last round of one random-pairing history: CPU, certified, gap, and the process's max RSS."""
    from app.core.pairing.random_pairings import random_history

    pair_round(fmt, [Entrant(i) for i in range(40)], [], seed=0)  # imports out of the way
    ents, games = random_history(fmt, n, rnd - 1, seed=seed, drop=drop)
    c0 = time.process_time()
    plan = pair_round(fmt, ents, games, round_number=rnd, seed=seed)
    print(json.dumps(dict(cpu=time.process_time() - c0, certified=plan.certified, gap=str(plan.gap),
                          active=sum(not e.dropped for e in ents), rss_mb=rss_mb(), units=spent_units(plan),
                          notes=plan.notes)), flush=True)


def spent_units(plan) -> list:
    """[units spent, budget, units of the first pairing] from the round's notes (work.py: a round may spend its
    budget plus its first pairing), or None for a round that needs no solver."""
    first = 0
    for note in plan.notes:
        if "first paired" in note:
            first = int(note.rsplit("(", 1)[1].split()[0].replace(",", ""))
        if note.startswith("work: "):
            used, _, budget = note[len("work: "):].split()[:3]
            return [int(used.replace(",", "")), int(budget.replace(",", "")), first]
    return None


def random_table(formats) -> int:
    print(f"Random-pairing histories, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start; "
          f"the last round of {len(RANDOM_SEEDS)} histories each, CPU seconds of pair_round alone.\n")
    print("| format | players | round | drops | active (odd?) | median CPU s | max CPU s | max RSS MB | certified "
          "| gaps (cost units) | units spent / budget |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    failures = 0
    for name in formats:
        for n, rnd in RANDOM_CASES:
            for drop in RANDOM_DROPS:
                rows = [r for seed in RANDOM_SEEDS  # one process per history: its own max RSS
                        for r in worker_rows("bench.bench_single", "random", name, n, rnd, drop, seed)]
                if len(rows) < len(RANDOM_SEEDS):
                    failures += 1
                    continue
                cpu = [x["cpu"] for x in rows]
                rss = max(x["rss_mb"] for x in rows)
                ok = sum(x["certified"] for x in rows)
                active = ", ".join(f"{x['active']:,}{' odd' if x['active'] % 2 else ''}" for x in rows)
                gaps = ", ".join(x["gap"] for x in rows)
                units = ", ".join(f"{x['units'][0]:,}" for x in rows) + f" / {rows[0]['units'][1]:,}"
                failures += max(cpu) > 5 or rss > 500 or any(x["units"][0] > x["units"][1] + x["units"][2] for x in rows)
                print(f"| {name} | {n:,} | {rnd} | {drop:.0%} a round | {active} | {statistics.median(cpu):.2f} | "
                      f"{max(cpu):.2f} | {rss:.0f} | {ok}/{len(cpu)} | {gaps} | {units} |", flush=True)
    return failures


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker(fmt: Format, scenario: str, n: int, rounds: int) -> None:
    pair_round(fmt, [Entrant(i) for i in range(40)], [], seed=0)  # imports out of the way
    base_rss = rss_mb()
    rows = []
    if scenario == "bias16":
        ents, games = bias16_games(n)
        t0, c0 = time.perf_counter(), time.process_time()
        plan = pair_round(fmt, ents, games, seed=17)
        rows.append((17, time.perf_counter() - t0, plan, time.process_time() - c0))
    else:
        event = Event(fmt, n, seed=n, **scenario_options(scenario))
        for r in range(1, rounds + 1):
            event.before_round(r)
            ents = list(event.entrants.values())
            t0, c0 = time.perf_counter(), time.process_time()
            plan = pair_round(fmt, ents, event.games, round_number=r, seed=r)
            rows.append((r, time.perf_counter() - t0, plan, time.process_time() - c0))
            event.play(plan)
    out = dict(format=fmt.value, scenario=scenario, players=n, rounds=[r[0] for r in rows],
               seconds=[r[1] for r in rows], cpu=[r[3] for r in rows],
               certified=[r[2].certified_optimal for r in rows], base_rss_mb=base_rss, rss_mb=rss_mb(),
               units=[spent_units(r[2]) for r in rows],
               uncertified=[dict(round=r, cost=str(p.total_cost), notes=p.notes)
                            for r, _, p, _ in rows if not p.certified_optimal])
    print(json.dumps(out), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 players only")
    parser.add_argument("--sizes", type=int, nargs="*")
    parser.add_argument("--scenarios", nargs="*", default=list(SCENARIOS), choices=SCENARIOS)
    parser.add_argument("--formats", nargs="*", default=["single", "double"], choices=["single", "double"])
    parser.add_argument("--random", action="store_true", help="the random-pairing histories (20,000 x 15, 2,000 x 25)")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker and args.worker[0] == "random":
        _, fmt, n, rnd, drop, seed = args.worker
        random_worker(Format(fmt), int(n), int(rnd), float(drop), int(seed))
        return 0
    if args.random:
        return 1 if random_table(args.formats) else 0
    if args.worker:
        fmt, scenario, n, rounds = args.worker
        worker(Format(fmt), scenario, int(n), int(rounds))
        return 0
    sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)
    print(f"Sided-swiss benchmark, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start; "
          f"{ROUNDS} rounds ({BIG_ROUNDS} from {BIG:,} players), every round timed once.\n")
    print("| format | scenario | players | rounds | median s | max s | median CPU s | max CPU s | max RSS MB "
          "| certified | units spent per round / budget |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    failures = 0
    started = time.perf_counter()
    for name in args.formats:
        fmt = Format(name)
        for scenario in args.scenarios:
            if scenario == "bias16" and not fmt.sided_tables:
                continue
            for n in sizes:
                rows = worker_rows("bench.bench_single", fmt.value, scenario, n, ROUNDS if n < BIG else BIG_ROUNDS)
                if not rows:
                    failures += 1
                    continue
                r = rows[-1]
                ok = sum(r["certified"])
                failures += ok < len(r["certified"])
                rounds = f"{r['rounds'][0]}" if len(r["rounds"]) == 1 else f"{r['rounds'][0]}-{r['rounds'][-1]}"
                units = [u for u in r["units"] if u]
                spent = ", ".join(f"{u[0]:,}" for u in units) + (f" / {units[0][1]:,}" if units else "")
                failures += any(u[0] > u[1] + u[2] for u in units)
                print(f"| {r['format']} | {scenario} | {n:,} | {rounds} | {statistics.median(r['seconds']):.3f} | "
                      f"{max(r['seconds']):.3f} | {statistics.median(r['cpu']):.3f} | {max(r['cpu']):.3f} | "
                      f"{r['rss_mb']:.0f} | {ok}/{len(r['certified'])} | {spent} |", flush=True)
                for u in r["uncertified"]:
                    print(f"<!-- round {u['round']} not certified: {u['notes']} -->", flush=True)
    print(f"\n{time.perf_counter() - started:.0f} s in all; load average {os.getloadavg()[0]:.1f} at the end.")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Plain swiss benchmark against swisspair 0.2.1 (PyPI), measured in the same run on the same inputs.

`python -m bench.bench_plain` (`make bench`, every round of every history; `--quick` for the small inputs and
every 10th round of the deep histories, `--deep` for the deep histories alone). swisspair is a bench-only
dependency: `pip install -r bench/requirements.txt`. Each history runs in its own process (peak RSS per history).

Histories (plain swiss, best-of-three matches):
- one-draw: round 2 after a round 1 with a single drawn match and a bye (the two drawn players met and form a
  pod of their own); 2,001 to 20,001 players.
- natural: random strengths, 2 % draws, paired by SASS; every round of a 2,000-player 15-round event.
- messy: 10 % draws, 3 % drops a round, a tenth of the field entering late (round 3), 16 fixed tables, 8
  requested first-round byes; 2,000 players, 15 rounds.
- power: the natural event with power pairing (1-2, 3-4, ... by standings).
- natural 20,000 players (rounds 2, 5, 8) and swisspair's own 199 players (rounds 10 and 20).
- deep into an event, every round: 300 players x 24 rounds, 60 players until no legal pairing is left (58 rounds
  at most), 100 x 90, 199 x 150; and 199 players after a circle-method round robin of every length from 60 to 190
  rounds. Most pods there cannot pair inside themselves (`--deep` runs these alone).

Times are CPU seconds (`time.process_time`): the machine is shared, so SASS's and swisspair's calls alternate (one
of each, again and again) and each side's median is taken: load that comes and goes then weighs on both alike.
5 samples each (3 above 4,001 players or 30 rounds; `--samples N` to choose); a call of LONG (0.25 s) or more is
timed once. `--seeds 0-9` plays the deep histories with other seeds (other strengths and results) and says per
seed whether every round stayed within 2x of swisspair.

Per round: our median time (`pair_round` from the games: history fold, MTR standings, pairing, tables) and
swisspair's (`create_matches` on players built beforehand from our standings: it gets the ranks, points, byes and
met sets for free), the ratio, whether our down-pair vector (swisspair's own lexicographic cost, compared
exactly) equals or beats its one, and whether ours is certified optimal; then one summary line per history (median
and worst ratio, rounds above 2x, the process's peak RSS, down-pairs, proofs).
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

from app.core.pairing import Entrant, Format, Game, PairingError, pair_round  # noqa: E402
from app.core.pairing.plain import prepare  # noqa: E402
from bench.workers import worker_rows  # noqa: E402

HISTORIES = {
    # name: (players, rounds measured, kind)
    "one-draw 2,001": (2_001, (2,), "one-draw"),
    "one-draw 4,001": (4_001, (2,), "one-draw"),
    "one-draw 8,001": (8_001, (2,), "one-draw"),
    "one-draw 20,001": (20_001, (2,), "one-draw"),
    "natural 2,000": (2_000, tuple(range(1, 16)), "natural"),
    "messy 2,000": (2_000, (3, 6, 9, 12, 15), "messy"),
    "power 2,000": (2_000, (2, 4, 8, 12, 15), "power"),
    "natural 20,000": (20_000, (2, 5, 8), "natural"),
    "natural 199": (199, (10, 20), "natural"),
    # deep into an event: most pods cannot pair inside themselves, every round measured
    "deep 300": (300, tuple(range(1, 25)), "natural"),
    "deep 60": (60, tuple(range(1, 59)), "natural"),
    "deep 100": (100, tuple(range(1, 91)), "natural"),
    "deep 199": (199, tuple(range(1, 151)), "natural"),
    # one swiss round after each round robin length from 60 to 190 rounds
    "round robin 199": (199, tuple(range(61, 192)), "round-robin"),
}
QUICK = ("one-draw 2,001", "natural 199", "deep 300", "deep 60", "deep 100", "deep 199", "round robin 199")
DEEP = ("deep 300", "deep 60", "deep 100", "deep 199", "round robin 199")
THIN = 10  # --quick measures every 10th round of the deep histories (the full run, `make bench`, every one)


def repeats(n: int, rounds: int = 1) -> int:
    return 3 if n > 4_001 or rounds > 30 else 5


LONG = 0.25  # CPU seconds: a call this long is timed once (its CPU time is steady; deep histories stay feasible)


def timed(call, times: int) -> tuple[list, object]:
    """CPU seconds of `times` calls (one if the first takes LONG or more), and the last result."""
    seconds = []
    for _ in range(times):
        t0 = time.process_time()
        out = call()
        seconds.append(time.process_time() - t0)
        if seconds[0] >= LONG:
            break
    return seconds, out


class Event:
    """A plain event played round by round: pairings by SASS, results drawn from the players' strengths."""

    def __init__(self, n: int, kind: str, seed: int = 0):
        self.kind, self.rnd = kind, random.Random(f"plain:{kind}:{n}:{seed}")
        self.strength = {i: self.rnd.random() for i in range(n)}
        messy = kind == "messy"
        self.late = set(self.rnd.sample(range(n), n // 10)) if messy else set()
        self.draws = 0.10 if messy else 0.02
        self.drop_rate = 0.03 if messy else 0.0
        self.power = kind == "power"
        fixed = dict(zip(self.rnd.sample(range(n), 16), range(1, 17))) if messy else {}
        asks = set(self.rnd.sample(range(n), 8)) if messy else set()
        self.entrants = [Entrant(i, f"P{i}", fixed_table=fixed.get(i), first_round_bye=i in asks) for i in range(n)]
        self.games: list[Game] = []
        self.round = 0

    def field(self, rnd: int) -> list[Entrant]:
        """Entrants of round `rnd` (late entrants join in round 3)."""
        return [e for e in self.entrants if rnd >= 3 or e.id not in self.late]

    def play(self, plan=None) -> None:
        """Play the next round: SASS's pairing (`plan`, when the caller already has it) or the round robin's."""
        self.round += 1
        if self.kind == "round-robin":
            pairings = round_robin(len(self.entrants), self.round)
        else:
            plan = plan or pair_round(Format.PLAIN, self.field(self.round), self.games, round_number=self.round,
                                      seed=self.round, power_pairing=self.power)
            pairings = [(p.player, p.opponent) for p in plan.pairings]
        self.record(pairings)

    def record(self, pairings) -> None:
        """Results of one round's pairings ((player, opponent or None)), drawn from the strengths."""
        rnd = self.rnd
        for player, opponent in pairings:
            p = Pairing(player, opponent)
            if p.opponent is None:
                self.games.append(Game(self.round, p.player, None, 3, player_games=2))
            elif rnd.random() < self.draws:
                self.games.append(Game(self.round, p.player, p.opponent, 1, 1, player_games=1, opponent_games=1,
                                       drawn_games=1))
            else:
                a, b = p.player, p.opponent
                if rnd.random() * (self.strength[a] + self.strength[b]) >= self.strength[a]:
                    a, b = b, a
                self.games.append(Game(self.round, a, b, 3, 0, player_games=2, opponent_games=rnd.choice((0, 1))))
        if self.drop_rate:
            self.entrants = [Entrant(e.id, e.name, dropped=e.dropped or rnd.random() < self.drop_rate,
                                     fixed_table=e.fixed_table, first_round_bye=e.first_round_bye)
                             for e in self.entrants]


class Pairing:
    def __init__(self, player, opponent):
        self.player, self.opponent = player, opponent


def round_robin(n: int, rnd: int) -> list:
    """Round `rnd` of the circle method for players 0..n-1 (odd n: the one left over has the bye)."""
    slots = list(range(n)) + ([None] if n % 2 else [])
    m = len(slots)
    turn = (rnd - 1) % (m - 1)
    rest = slots[1:]
    rest = rest[-turn:] + rest[:-turn] if turn else rest
    ring = [slots[0]] + rest
    out = []
    for k in range(m // 2):
        a, b = ring[k], ring[m - 1 - k]
        if a is None or b is None:
            out.append((b if a is None else a, None))
        else:
            out.append((a, b))
    return out


def one_draw(n: int) -> tuple[list[Entrant], list[Game]]:
    """The issue's reproduction: one drawn match in round 1, every other match won, one bye."""
    games = [Game(1, 0, 1, 1, 1, player_games=1, opponent_games=1, drawn_games=1)]
    games += [Game(1, i, i + 1, 3, 0, player_games=2) for i in range(2, n - 1, 2)]
    games += [Game(1, n - 1, None, 3, player_games=2)]
    return [Entrant(i) for i in range(n)], games


def swisspair_players(field):
    """swisspair's input for our ranked field: the same ranks, points, met sets and bye circle."""
    from swisspair import Player

    fewest = min(field.byes.values(), default=0)
    names = [str(p) for p in field.ranked]
    return [Player(id=names[i], points=field.points[p], rank=i + 1, can_get_bye=field.byes[p] <= fewest,
                   cannot_be_paired_against_ids={names[j] for j in field.met[i]})
            for i, p in enumerate(field.ranked)]


def interleaved(ours_call, theirs_call, times: int) -> tuple[list, object, list, object]:
    """CPU seconds of `times` calls of each, alternating (one of ours, one of theirs), and their last results;
    once each if both take LONG or more."""
    ours, theirs = [], []
    for _ in range(times):
        a, mine = timed(ours_call, 1)
        b, their = timed(theirs_call, 1)
        ours += a
        theirs += b
        if a[0] >= LONG and b[0] >= LONG:
            break
    return ours, mine, theirs, their


def measure(entrants, games, rnd: int, power: bool, samples: int | None = None) -> tuple[dict, object]:
    """The round's row, and SASS's plan for it."""
    import swisspair

    n = len([e for e in entrants if not e.dropped])
    pair_round(Format.PLAIN, entrants, games, round_number=rnd, seed=rnd, power_pairing=power)  # warm caches
    field = prepare(entrants, games, rnd, random.Random(f"{rnd}:{rnd}"))
    players = swisspair_players(field)
    swisspair.create_matches(players, power_pairing=power)
    ours, plan, theirs, matches = interleaved(
        lambda: pair_round(Format.PLAIN, entrants, games, round_number=rnd, seed=rnd, power_pairing=power),
        lambda: swisspair.create_matches(players, power_pairing=power), samples or repeats(n, rnd))
    by_name = {str(p): p for p in field.ranked}
    their_pairs = [(by_name[m.p1.id], None if m.p2 is None else by_name[m.p2.id]) for m in matches]
    met = {(field.ranked[i], field.ranked[j]) for i, m in enumerate(field.met) for j in m}
    legal = all(b is None or (a, b) not in met for a, b in their_pairs)
    mine = [(t.player, t.opponent) for t in plan.pairings if t.player not in field.requested]
    our_cost, their_cost = field.down_pairs(mine, power), field.down_pairs(their_pairs, power)
    assert our_cost == plan.total_cost, "the bench's cost must be the engine's"
    return dict(players=n, round=rnd, ours=statistics.median(ours), theirs=statistics.median(theirs),
                versus="equal" if our_cost == their_cost else "better" if our_cost < their_cost else "WORSE",
                legal=legal, certified=plan.certified_optimal, notes=plan.notes[0],
                rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024), plan


def thinned(name: str) -> tuple:
    """--quick's rounds of a history: every THIN-th round of the deep ones (the first and last kept)."""
    rounds = HISTORIES[name][1]
    if name not in DEEP:
        return rounds
    return tuple(r for k, r in enumerate(rounds) if k % THIN == 0 or r == rounds[-1])


def worker(name: str, quick: bool = False, seed: int = 0, samples: int | None = None) -> None:
    n, rounds, kind = HISTORIES[name]
    rounds = thinned(name) if quick else rounds
    pair_round(Format.PLAIN, [Entrant(i) for i in range(40)], [], seed=0)  # imports out of the way
    if kind == "one-draw":
        entrants, games = one_draw(n)
        for rnd in rounds:
            print(json.dumps(dict(history=name, **measure(entrants, games, rnd, False, samples)[0])), flush=True)
        return
    event = Event(n, kind, seed)
    while event.round < max(rounds):
        try:
            plan = None
            if event.round + 1 in rounds:
                row, plan = measure(event.field(event.round + 1), event.games, event.round + 1, event.power, samples)
                print(json.dumps(dict(history=name + (f" seed {seed}" if seed else ""), **row)), flush=True)
            event.play(plan)
        except PairingError:  # a small field can run out of legal opponents: the event ends there
            print(json.dumps(dict(history=name, round=event.round + 1, ended=True)), flush=True)
            return


def summary(cases: list) -> str:
    """One line per history: the ratio's median and worst round, rounds over 2x, peak RSS, down-pairs, proofs."""
    lines = ["| history | rounds measured | SASS median s | SASS max s | swisspair median s | ratio median "
             "| ratio worst (round) | rounds above 2x | max RSS MB | down-pairs vs swisspair (equal/better/worse) "
             "| certified |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, rows in cases:
        done = [r for r in rows if not r.get("ended")]
        if not done:
            lines.append(f"| {name} | none | | | | | | | | | |")
            continue
        ratio = {r["round"]: r["ours"] / r["theirs"] for r in done}
        worst = max(ratio, key=ratio.get)
        ended = [r["round"] for r in rows if r.get("ended")]
        measured = f"{len(done)} ({done[0]['round']}-{done[-1]['round']})" + (
            f"; round {ended[0]}: no legal pairing left" if ended else "")
        versus = [sum(r["versus"] == v for r in done) for v in ("equal", "better", "WORSE")]
        lines.append(
            f"| {name} | {measured} | {statistics.median(r['ours'] for r in done):.4f} | "
            f"{max(r['ours'] for r in done):.4f} | {statistics.median(r['theirs'] for r in done):.4f} | "
            f"{statistics.median(ratio.values()):.2f} | {ratio[worst]:.2f} ({worst}) | "
            f"{sum(v > 2 for v in ratio.values())} | {max(r['rss_mb'] for r in done):.0f} | "
            f"{'/'.join(map(str, versus))} | {sum(r['certified'] for r in done)}/{len(done)} |")
        if any(v > 2 for v in ratio.values()):
            lines.append(f"<!-- {name}: NOT within 2x of swisspair on every round -->")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="the small histories, and every 10th round of the deep ones")
    parser.add_argument("--deep", action="store_true", help="the histories deep into an event only")
    parser.add_argument("--histories", nargs="*", choices=list(HISTORIES), help="which histories (default: all)")
    parser.add_argument("--rows", nargs="*", type=Path,
                        help="print the tables from files of a worker's JSON lines (`--worker NAME > FILE`) instead")
    parser.add_argument("--seeds", help="seeds of the deep histories' events, e.g. 0-9 (default: 0)")
    parser.add_argument("--samples", type=int, help="alternating calls timed per round, each side (default 5)")
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.quick, args.seed, args.samples)
        return 0
    if args.rows:
        cases = [(path.stem, [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")])
                 for path in args.rows]
        print(summary([(rows[0]["history"] if rows else name, rows) for name, rows in cases]))
        return 0
    try:
        import swisspair  # noqa: F401
    except ImportError:
        print("swisspair is missing: pip install -r bench/requirements.txt")
        return 1
    names = args.histories or (QUICK if args.quick else DEEP if args.deep else list(HISTORIES))
    first, _, last = (args.seeds or "0").partition("-")
    seeds = list(range(int(first), int(last or first) + 1))
    print(f"Plain swiss vs swisspair 0.2.1, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the "
          f"start; median of repeated pairings, both measured in this run.\n")
    print("| history | players | round | SASS s | swisspair s | SASS / swisspair | down-pairs vs swisspair "
          "| max RSS MB | certified optimal | SASS notes |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    failures, ratios, cases = 0, [], []
    runs = [(name, seed) for name in names for seed in (seeds if name in DEEP else [0])]
    within = []  # (history, seed, worst ratio, its round) of every seeded run
    for name, seed in runs:
        rows = worker_rows("bench.bench_plain", name, *(["--quick"] if args.quick else []), "--seed", seed,
                           *(["--samples", args.samples] if args.samples else []))
        failures += not rows
        for r in rows:
            if r.get("ended"):
                print(f"| {r['history']} | | {r['round']} | no legal pairing left: SASS refuses, naming the players "
                      "| | | | | | |")
                continue
            ratios.append(r["ours"] / r["theirs"])
            versus = r["versus"] + ("" if r["legal"] else " (swisspair paired a rematch)")
            print(f"| {r['history']} | {r['players']:,} | {r['round']} | {r['ours']:.3f} | {r['theirs']:.3f} | "
                  f"{ratios[-1]:.2f} | {versus} | {r['rss_mb']:.0f} | {'yes' if r['certified'] else 'NO'} | "
                  f"{r['notes']} |", flush=True)
            failures += r["versus"] == "WORSE" or not r["certified"]
        cases.append((rows[0]["history"] if rows else name, rows))
        done = [r for r in rows if not r.get("ended")]
        if done:
            worst = max(done, key=lambda r: r["ours"] / r["theirs"])
            within.append((name, seed, worst["ours"] / worst["theirs"], worst["round"]))
    if ratios:
        print(f"\nSASS / swisspair: median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}; "
              f"load average {os.getloadavg()[0]:.1f} at the end.")
        print("\n" + summary(cases))
    if len(seeds) > 1 or args.seeds:
        print("\nWithin 2x of swisspair on every round, per seed:\n")
        for name, seed, worst, rnd in within:
            print(f"- {name}, seed {seed}: {'yes' if worst <= 2 else 'NO'} (worst {worst:.2f}x, round {rnd})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Play simulated swiss events to measure what a pairing cost model trades: score groups against side balance.

The seed author tuned SASS by simulation; this makes that a feature. `python -m app.core.pairing.simulate --help`.
Every number is reproducible: an event's strengths, results and drops come from its own seed, and a game's
result depends only on (event, round, the two players, their sides), so the cost models compared with
`--compare` play the same players and, wherever their pairings agree, the same results.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Optional, Sequence

from . import DEFAULT_SCORE_FACTOR, Entrant, Format, Game, Side, pair_round
from .history import History

COST_MODELS = ("sass", "deployed", "cobra", "article")
TARGET_SCENARIOS = ((12, 5), (28, 6), (60, 7), (150, 9))  # the quality target
DEFAULT_CHART = Path("bench/out/score_factor_sweep.png")


@dataclass(frozen=True)
class Config:
    """One kind of simulated event."""

    players: int = 28
    rounds: int = 6
    fmt: Format = Format.SINGLE_SIDED
    cost_model: str = "sass"
    score_factor: Optional[Fraction] = None  # None: the engine's default for the cost model
    tie_rate: float = 0.02  # chance a game is tied
    rating_sd: float = 200.0  # Elo spread of player strengths
    corp_advantage: float = 0.0  # Elo points the Corp gains (single-sided); negative favours the Runner
    drop_rate: float = 0.0  # chance an active player drops after a round


@dataclass
class EventStats:
    """What one event did. Metrics come from the games alone (see `measure`); timing from the engine calls."""

    games: int = 0
    mismatched: int = 0  # games between players on different points
    win_diff: Fraction = Fraction(0)  # sum over games of |points difference| / points per win
    rematches: int = 0  # games between two players who had met before
    uneven_players: int = 0  # finishers with |bias| > games mod 2 (single-sided)
    violations: int = 0  # broken hard rules: third meeting, rematch on the same sides, second bye
    byes: int = 0
    dropped: int = 0
    round_seconds: list = field(default_factory=list)

    @property
    def uneven_event(self) -> int:
        return int(self.uneven_players > 0)

    @property
    def ms_per_round(self) -> float:
        return 1000 * statistics.fmean(self.round_seconds) if self.round_seconds else 0.0


# The columns every table shows, in order: (header, how to read it off an EventStats).
METRICS = (
    ("mismatched", lambda s: s.mismatched),
    ("win diffs", lambda s: float(s.win_diff)),
    ("rematches", lambda s: s.rematches),
    ("uneven players", lambda s: s.uneven_players),
    ("uneven event", lambda s: s.uneven_event),
    ("ms/round", lambda s: s.ms_per_round),
)


def measure(fmt: Format, games: Sequence[Game], finishers: Iterable) -> EventStats:
    """The quality metrics of a finished event, from its games; `finishers` are the players who did not drop."""
    scoring = fmt.scoring
    stats = EventStats()
    points: dict = {}
    met: dict = {}
    sides_met: dict = {}
    byes: set = set()
    for rnd in sorted({g.round for g in games}):
        this_round = [g for g in games if g.round == rnd]
        for g in this_round:  # compare points as they stood before the round
            if g.opponent is None:
                stats.byes += 1
                stats.violations += g.player in byes
                byes.add(g.player)
                continue
            stats.games += 1
            diff = abs(points.get(g.player, 0) - points.get(g.opponent, 0))
            stats.mismatched += diff > 0
            stats.win_diff += Fraction(diff, scoring.win)
            pair = frozenset((g.player, g.opponent))
            before = met.get(pair, 0)
            stats.rematches += before > 0
            if fmt is Format.SINGLE_SIDED:
                corp = g.player if g.player_side is Side.CORP else g.opponent
                stats.violations += before >= 2 or (before == 1 and sides_met[pair] == corp)
                sides_met[pair] = corp
            else:
                stats.violations += before >= 1
            met[pair] = before + 1
        for g in this_round:
            points[g.player] = points.get(g.player, 0) + g.player_points
            if g.opponent is not None:
                points[g.opponent] = points.get(g.opponent, 0) + g.opponent_points
    if fmt is Format.SINGLE_SIDED:
        history = History(fmt, games)
        stats.uneven_players = sum(abs(history[p].bias) > history[p].games % 2 for p in finishers)
    return stats


def _win_probability(rating: float, other: float) -> float:
    return 1 / (1 + 10 ** ((other - rating) / 400))


def _play(config: Config, event_seed: int, rnd: int, player, opponent, ratings: dict) -> Game:
    """One result. Its dice depend only on the event, round, players and sides, not on the rest of the round."""
    scoring = config.fmt.scoring
    rng = random.Random(f"{event_seed}:{rnd}:{player}:{opponent}")
    if config.fmt is Format.SINGLE_SIDED:  # `player` is the Corp
        p_win = _win_probability(ratings[player] + config.corp_advantage, ratings[opponent])
        if rng.random() < config.tie_rate:
            return Game(rnd, player, opponent, scoring.tie, scoring.tie, player_side=Side.CORP)
        won = rng.random() < p_win
        return Game(rnd, player, opponent, scoring.win if won else scoring.loss,
                    scoring.loss if won else scoring.win, player_side=Side.CORP)
    p_win = _win_probability(ratings[player], ratings[opponent])
    results = []  # per game: 1 player won, 0 tie, -1 opponent won
    for _ in range(2 if config.fmt is Format.DOUBLE_SIDED else 3):
        results.append(0 if rng.random() < config.tie_rate else (1 if rng.random() < p_win else -1))
    if config.fmt is Format.DOUBLE_SIDED:
        results = results[:2]
        value = {1: (scoring.win, scoring.loss), 0: (scoring.tie, scoring.tie), -1: (scoring.loss, scoring.win)}
        return Game(rnd, player, opponent, sum(value[r][0] for r in results), sum(value[r][1] for r in results))
    # Plain swiss: best of three, stopping when someone has two wins; a drawn match if still level.
    wins = [0, 0, 0]  # player, opponent, draws
    for r in results:
        if max(wins[:2]) == 2:
            break
        wins[{1: 0, -1: 1, 0: 2}[r]] += 1
    outcome = (wins[0] > wins[1]) - (wins[0] < wins[1])
    points = {1: (scoring.win, scoring.loss), 0: (scoring.tie, scoring.tie), -1: (scoring.loss, scoring.win)}[outcome]
    return Game(rnd, player, opponent, *points, player_games=wins[0], opponent_games=wins[1], drawn_games=wins[2])


def play_event(config: Config, event_seed: int) -> tuple[list[Game], list, EventStats]:
    """Play one event to the end; returns its games, its finishers and their stats."""
    strengths = random.Random(f"{event_seed}:strengths")
    ratings = {p: strengths.gauss(1500, config.rating_sd) for p in range(1, config.players + 1)}
    active = list(ratings)
    dropped: list = []
    games: list[Game] = []
    seconds = []
    kwargs = {"cost_model": config.cost_model}
    if config.score_factor is not None:
        kwargs["score_factor"] = config.score_factor
    for rnd in range(1, config.rounds + 1):
        entrants = [Entrant(p) for p in active] + [Entrant(p, dropped=True) for p in dropped]
        start = time.perf_counter()
        plan = pair_round(config.fmt, entrants, games, round_number=rnd, seed=event_seed * 1000 + rnd, **kwargs)
        seconds.append(time.perf_counter() - start)
        for p in plan.pairings:
            if p.opponent is None:
                games.append(Game(rnd, p.player, None, config.fmt.scoring.bye))
            else:
                games.append(_play(config, event_seed, rnd, p.player, p.opponent, ratings))
        if rnd < config.rounds and config.drop_rate:
            leaving = [p for p in active if random.Random(f"{event_seed}:{rnd}:drop:{p}").random() < config.drop_rate]
            if len(active) - len(leaving) >= 2:
                dropped += leaving
                active = [p for p in active if p not in leaving]
    stats = measure(config.fmt, games, active)
    stats.round_seconds = seconds
    stats.dropped = len(dropped)
    return games, active, stats


def _event_stats(job: tuple[Config, int]) -> EventStats:
    return play_event(*job)[2]


def _warm_up() -> None:
    """Pair a tiny round once so that the engine's first-use imports are not timed as a round."""
    for fmt in Format:
        pair_round(fmt, [Entrant(1), Entrant(2), Entrant(3)], [], round_number=1)


def run_many(jobs: list[tuple[Config, int]], processes: int) -> list[EventStats]:
    """Stats of each (config, seed) job, in order; spread over `processes` worker processes."""
    if processes <= 1 or len(jobs) < 2:
        _warm_up()
        return [_event_stats(job) for job in jobs]
    with multiprocessing.get_context("fork").Pool(processes, initializer=_warm_up) as pool:
        return pool.map(_event_stats, jobs, chunksize=max(1, len(jobs) // (processes * 8)))


def event_seeds(events: int, seed: int) -> list[int]:
    return [seed + i for i in range(events)]


# ---- tables -------------------------------------------------------------------------------------------------

def _fmt(x) -> str:
    if isinstance(x, int):
        return str(x)
    return f"{x:.0f}" if abs(x) >= 1000 else f"{x:.4g}"


def markdown(header: Sequence[str], rows: Iterable[Sequence]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(c if isinstance(c, str) else _fmt(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def per_event_table(seeds: Sequence[int], stats: Sequence[EventStats]) -> str:
    return markdown(["event seed"] + [name for name, _ in METRICS],
                    ([seed] + [get(s) for _, get in METRICS] for seed, s in zip(seeds, stats)))


def summary_table(stats: Sequence[EventStats]) -> str:
    rows = []
    for name, get in METRICS:
        values = [get(s) for s in stats]
        rows.append([name, statistics.fmean(values), statistics.median(values), max(values), sum(values)])
    return markdown(["per event", "mean", "median", "max", "total"], rows)


def means(stats: Sequence[EventStats]) -> dict:
    return {name: statistics.fmean(get(s) for s in stats) for name, get in METRICS} | {
        "games": statistics.fmean(s.games for s in stats),
        "uneven events": sum(s.uneven_event for s in stats),
        "violations": sum(s.violations for s in stats),
    }


COMPARE_HEADER = ["players/rounds", "cost model", "mismatched/event", "win diffs/event", "rematches/event",
                  "uneven players (total)", "events with anyone uneven", "violations", "ms/round"]


def compare_rows(label: str, by_model: dict) -> list[list]:
    rows = []
    for model, stats in by_model.items():
        m = means(stats)
        rows.append([label, model, m["mismatched"], m["win diffs"], m["rematches"],
                     sum(s.uneven_players for s in stats), m["uneven events"], m["violations"], m["ms/round"]])
    return rows


def target_verdict(label: str, by_model: dict) -> list[str]:
    """The issue's quality target for one scenario, as readable lines (PASS/FAIL with the margin)."""
    ours = means(by_model["sass"])
    uneven = sum(s.uneven_players for s in by_model["sass"])
    best = min(("deployed", "cobra"), key=lambda m: means(by_model[m])["mismatched"])
    best_mm = means(by_model[best])["mismatched"]
    checks = [
        (uneven == 0, f"players with uneven sides {uneven} (target 0)"),
        (ours["rematches"] <= 0.1, f"rematches/event {ours['rematches']:.3f} (target <= 0.1)"),
        (ours["mismatched"] <= best_mm,
         f"mismatched/event {ours['mismatched']:.3f} vs best baseline {best} {best_mm:.3f} "
         f"(diff {ours['mismatched'] - best_mm:+.3f})"),
    ]
    return [f"{label}: {'PASS' if ok else 'FAIL'} {text}" for ok, text in checks]


# ---- sweep chart ----------------------------------------------------------------------------------------------

def plot_sweep(curves: dict, baselines: dict, path: Path, title: str) -> Path:
    """Chart the trade-off: % of games score-mismatched (x) against % of events where anyone went home uneven (y).

    `curves`: scenario -> [(score factor, mismatched share, uneven-event share)];
    `baselines`: scenario -> {cost model: (mismatched share, uneven-event share)}, drawn in the scenario's colour.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=110)
    markers = dict(zip(COST_MODELS[1:], "s^D"))
    for label, points in curves.items():
        line, = ax.plot([100 * x for _, x, _ in points], [100 * y for _, _, y in points], marker="o", label=label)
        for factor, x, y in points:
            ax.annotate(f"{float(factor):g}", (100 * x, 100 * y), textcoords="offset points", xytext=(4, 4),
                        fontsize=8, color=line.get_color())
        for model, (x, y) in baselines.get(label, {}).items():
            ax.plot([100 * x], [100 * y], marker=markers.get(model, "x"), linestyle="none", markersize=8,
                    markerfacecolor="none", color=line.get_color(), label=f"{model} ({label.split()[-1]})")
    ax.set_xlabel("score-mismatched games (% of games)")
    ax.set_ylabel("events where someone went home with uneven sides (%)")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


# ---- command line ----------------------------------------------------------------------------------------------

def _scenarios(text: str) -> list[tuple[int, int]]:
    try:
        return [tuple(int(v) for v in item.lower().split("x")) for item in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("use PLAYERSxROUNDS,... for example 12x5,28x6") from None


def _factors(text: str) -> list[Fraction]:
    try:
        return [Fraction(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("use numbers separated by commas, for example 1,1.5,2") from None


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m app.core.pairing.simulate", description=__doc__.split("\n")[0])
    ap.add_argument("--events", "-n", type=int, default=20, help="events per setting (default 20)")
    ap.add_argument("--players", type=int, default=28)
    ap.add_argument("--rounds", type=int, default=None, help="default: ceil(log2(players)) + 1")
    ap.add_argument("--scenarios", type=_scenarios, help="several PLAYERSxROUNDS, e.g. 12x5,28x6 (overrides --players)")
    ap.add_argument("--format", choices=[f.value for f in Format], default=Format.SINGLE_SIDED.value)
    ap.add_argument("--cost-model", choices=COST_MODELS, default="sass")
    ap.add_argument("--score-factor", type=Fraction, default=None,
                    help=f"default: the engine's ({DEFAULT_SCORE_FACTOR} for sass)")
    ap.add_argument("--tie-rate", type=float, default=0.02)
    ap.add_argument("--rating-sd", type=float, default=200.0, help="Elo spread of strengths (default 200)")
    ap.add_argument("--corp-advantage", type=float, default=0.0, help="Elo points for the Corp (single-sided)")
    ap.add_argument("--drop-rate", type=float, default=0.0, help="chance a player drops after a round")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", "-j", type=int, default=min(2, os.cpu_count() or 1), help="worker processes")
    ap.add_argument("--summary", action="store_true", help="aggregate (mean/median/max) instead of per event")
    ap.add_argument("--compare", action="store_true", help="all cost models on the same events")
    ap.add_argument("--target", action="store_true",
                    help="the issue's quality target (12x5, 28x6, 60x7, 150x9 unless --scenarios): "
                         "sass vs deployed vs cobra, with PASS/FAIL lines")
    ap.add_argument("--sweep", type=_factors, help="score factors to sweep, e.g. 1,1.5,2,2.5,3,4")
    ap.add_argument("--chart", type=Path, default=DEFAULT_CHART, help=f"sweep chart (default {DEFAULT_CHART})")
    return ap


def _config(args, players: int, rounds: Optional[int]) -> Config:
    return Config(players=players, rounds=rounds or math.ceil(math.log2(players)) + 1, fmt=Format(args.format),
                  cost_model=args.cost_model, score_factor=args.score_factor, tie_rate=args.tie_rate,
                  rating_sd=args.rating_sd, corp_advantage=args.corp_advantage, drop_rate=args.drop_rate)


def _run_models(configs: dict, seeds: list[int], processes: int) -> dict:
    """label -> [EventStats] for each config, all on the same event seeds, in one pool."""
    jobs = [(config, seed) for config in configs.values() for seed in seeds]
    started = time.perf_counter()
    results = run_many(jobs, processes)
    config = next(iter(configs.values()))
    print(f"  {config.players}/{config.rounds}: {len(jobs)} events in {time.perf_counter() - started:.0f} s",
          file=sys.stderr)
    return {label: results[i * len(seeds):(i + 1) * len(seeds)] for i, label in enumerate(configs)}


def sweep(configs: Sequence[Config], factors: Sequence[Fraction], seeds: list[int], processes: int,
          with_baselines: bool) -> tuple[list, dict, dict]:
    """Each config at each score factor (plus deployed and cobra, if asked) on the same events.

    Returns the table rows, and the chart's curves and baseline points (shares of games and of events).
    """
    models = ("deployed", "cobra") if with_baselines else ()
    rows, curves, baselines = [], {}, {}
    for config in configs:
        label = f"{config.players}/{config.rounds}"
        settings = {f"{config.cost_model} x{float(f):g}": replace(config, score_factor=f) for f in factors}
        settings |= {m: replace(config, cost_model=m, score_factor=None) for m in models}
        results = _run_models(settings, seeds, processes)
        rows += compare_rows(label, results)
        curve = f"{config.cost_model} {label}"
        shares = {name: (means(stats)["mismatched"] / means(stats)["games"],
                         sum(s.uneven_event for s in stats) / len(stats)) for name, stats in results.items()}
        curves[curve] = [(f, *shares[name]) for f, name in zip(factors, settings)]
        baselines[curve] = {m: shares[m] for m in models}
    return rows, curves, baselines


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parser().parse_args(argv)
    if args.events < 1 or args.players < 2:
        print("need at least 1 event and 2 players", file=sys.stderr)
        return 2
    seeds = event_seeds(args.events, args.seed)
    scenarios = args.scenarios or (TARGET_SCENARIOS if args.target else [(args.players, args.rounds)])
    configs = [_config(args, p, r) for p, r in scenarios]
    started = time.perf_counter()
    print(f"# {args.events} events per setting, format {args.format}, tie rate {args.tie_rate}, "
          f"rating sd {args.rating_sd}, corp advantage {args.corp_advantage}, drop rate {args.drop_rate}, "
          f"seed {args.seed}\n")

    if args.sweep:
        rows, curves, baselines = sweep(configs, args.sweep, seeds, args.jobs, args.compare)
        print(markdown(COMPARE_HEADER, rows))
        path = plot_sweep(curves, baselines, args.chart,
                          f"Score factor sweep, {args.events} events per point ({args.format})")
        print(f"\nchart: {path}")
    elif args.compare or args.target:
        models = COST_MODELS if args.compare else ("sass", "deployed", "cobra")
        rows, verdicts = [], []
        for config in configs:
            label = f"{config.players}/{config.rounds}"
            by_model = _run_models({m: replace(config, cost_model=m, score_factor=config.score_factor
                                               if m == config.cost_model else None) for m in models},
                                   seeds, args.jobs)
            rows += compare_rows(label, by_model)
            if args.target:
                verdicts += target_verdict(label, by_model)
        print(markdown(COMPARE_HEADER, rows))
        if verdicts:
            print("\n" + "\n".join(verdicts))
    else:
        for config in configs:
            stats = run_many([(config, seed) for seed in seeds], args.jobs)
            print(f"## {config.players} players, {config.rounds} rounds, cost model {config.cost_model}\n")
            print(summary_table(stats) if args.summary else per_event_table(seeds, stats))
            print(f"\nevents with anyone uneven: {sum(s.uneven_event for s in stats)} of {len(stats)}\n")
    print(f"\n({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

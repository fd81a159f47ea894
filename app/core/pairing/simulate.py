"""Play simulated swiss events to measure what a pairing cost model trades: score groups against side balance.

The seed author tuned SASS by simulation; this makes that a feature. `python -m app.core.pairing.simulate --help`.
This module is the command line; the events are played by simulate_events.py, measured by simulate_metrics.py,
printed by simulate_tables.py and charted by simulate_chart.py. The cost models compared with `--compare` play
the same players and, wherever their pairings agree, the same results.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Optional, Sequence

from .costs import DEFAULT_SCORE_FACTOR
from .formats import DEFAULT_FORMAT, Format
from .simulate_chart import plot_sweep
from .simulate_events import COST_MODELS, Config, event_seeds, run_many
from .simulate_tables import (COMPARE_HEADER, compare_rows, markdown, means, per_event_table, summary_table,
                              target_verdict)

__all__ = ["Config", "main", "parser", "sweep"]

TARGET_SCENARIOS = ((12, 5), (28, 6), (60, 7), (150, 9))  # the quality target (docs/quality_target.md)
DEFAULT_CHART = Path("bench/out/score_factor_sweep.png")


def _scenarios(text: str) -> list[tuple[int, int]]:
    try:
        cells = (item.lower().split("x") for item in text.split(","))
        return [(int(players), int(rounds)) for players, rounds in cells]
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
    ap.add_argument("--format", choices=[f.value for f in Format], default=DEFAULT_FORMAT.value)
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
                    help="the quality target (12x5, 28x6, 60x7, 150x9 unless --scenarios): "
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
        curves[curve] = [(f, *shares[name]) for f, name in zip(factors, settings, strict=False)]
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

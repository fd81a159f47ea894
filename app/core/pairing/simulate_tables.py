"""The simulator's printed tables (markdown): per event, summaries, cost models side by side, the target verdict."""
from __future__ import annotations

import statistics
from typing import Iterable, Sequence

from .simulate_metrics import METRICS, EventStats


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
                    ([seed] + [get(s) for _, get in METRICS] for seed, s in zip(seeds, stats, strict=True)))


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
    """The quality target (docs/quality_target.md) for one scenario, as readable lines (PASS/FAIL with the margin)."""
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

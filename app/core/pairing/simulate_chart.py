"""The score-factor sweep chart: score-mismatched games against events where someone went home uneven."""
from __future__ import annotations

from pathlib import Path

from .simulate_events import COST_MODELS


def plot_sweep(curves: dict, baselines: dict, path: Path, title: str) -> Path:
    """Chart the trade-off: % of games score-mismatched (x) against % of events where anyone went home uneven (y).

    `curves`: scenario -> [(score factor, mismatched share, uneven-event share)];
    `baselines`: scenario -> {cost model: (mismatched share, uneven-event share)}, drawn in the scenario's colour.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=110)
    markers = dict(zip(COST_MODELS[1:], "s^D", strict=True))
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

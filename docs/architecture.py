"""Draw docs/img/layers.png, the picture of the three layers in docs/architecture.md.

Run it again after a module moves: `.venv/bin/python docs/architecture.py` (matplotlib is in requirements.txt).
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

OUT = Path(__file__).resolve().parent / "img" / "layers.png"

# (title, what it may not do, modules, fill colour), top to bottom: each layer imports only the ones below it.
LAYERS = [
    ("app/web", "parses requests, checks access, renders; never holds a rule",
     "views/ (blueprints)   forms/   access.py   player_session.py   template_helpers.py\n"
     "home.py   page_cache.py   headers.py   throttle.py   errors.py\n"
     "with templates/ and static/ (they ask the layers below, they work no rule out)",
     "#dbe9f6"),
    ("app/services", "database <-> core; no request, no session, no response",
     "swiss/   results/   players/   event_files/   organizers/   check_in/   series/   abr/\n"
     "cut.py   decklists.py   next_step.py   state.py   locks.py   status.py   ...\n"
     "with app/models/ and app/extensions.py (SQLAlchemy), migrations/",
     "#fdf0d5"),
    ("app/core", "pure Python: no Flask, no SQL, nothing above it",
     "pairing/ (formats, costs, rules, solvers, tiebreakers)   results.py   standings.py\n"
     "round_check.py   pairing_edits.py   brackets.py   bracket_games.py   bracket_layout.py\n"
     "clock.py   names.py   identities.py",
     "#dcefdc"),
]


def main() -> None:
    fig, ax = plt.subplots(figsize=(10, 6.2), dpi=100)
    ax.set_xlim(0, 100)
    ax.set_ylim(-3, 62)
    ax.axis("off")
    height, gap, top = 15, 5, 58
    boxes = []
    for i, (title, rule, modules, colour) in enumerate(LAYERS):
        y = top - height - i * (height + gap)
        ax.add_patch(FancyBboxPatch((3, y), 94, height, boxstyle="round,pad=0.4,rounding_size=1.5",
                                    facecolor=colour, edgecolor="#333333", linewidth=1.2))
        ax.text(5, y + height - 2.6, title, fontsize=15, fontweight="bold", family="monospace", va="center")
        ax.text(30, y + height - 2.6, rule, fontsize=10.5, style="italic", va="center", color="#333333")
        ax.text(5, y + height / 2 - 2.4, modules, fontsize=9.2, family="monospace", va="center", linespacing=1.5)
        boxes.append(y)
    for upper, lower in zip(boxes, boxes[1:]):
        ax.add_patch(FancyArrowPatch((50, upper - 0.4), (50, lower + height + 0.4), arrowstyle="-|>",
                                     mutation_scale=18, linewidth=1.6, color="#333333"))
        ax.text(51.5, (upper + lower + height) / 2, "imports", fontsize=9.5, va="center", color="#333333")
    ax.text(50, -1.5, "tests/test_layers.py fails on any import against the arrows, on a view importing another view,"
            " and on any import cycle", fontsize=9, ha="center", color="#555555")
    OUT.parent.mkdir(exist_ok=True)
    fig.savefig(OUT, bbox_inches="tight", facecolor="white")
    print(OUT)


if __name__ == "__main__":
    main()

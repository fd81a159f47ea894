"""What a number of single-sided swiss rounds buys: how many of the 8 strongest players can be expected in the
swiss top 8, from simulated events (app/core/data/top8_recall.json, written by bench/bench_recall_rounds.py; how
they were simulated: docs/benchmarks.md). The app shows it beside the rounds it recommends, so a TO choosing the
rounds sees what one more round is worth and why the top cut decides the rest."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional

from .pairing.formats import Format

PATH = Path(__file__).resolve().parent / "data" / "top8_recall.json"
CUT = 8


@dataclass(frozen=True)
class Recall:
    players: int  # the simulated field size the figures are read from: the nearest to the event's
    asked: int  # the rounds asked about
    expected: float  # mean number of the true top CUT in the swiss top CUT after `rounds`
    target: int  # the recall the table marks (7 of 8)
    rounds_to_target: Optional[int]  # the fewest rounds whose mean reaches `target`; None: none simulated
    simulated_rounds: int  # how many rounds were simulated for that size

    @property
    def rounds(self) -> int:
        """The rounds `expected` is for: the asked ones, at most the simulated ones."""
        return min(self.asked, self.simulated_rounds)

    @property
    def capped(self) -> bool:
        """More rounds were asked than were simulated: `expected` is the last simulated round's."""
        return self.asked > self.simulated_rounds


@lru_cache(maxsize=1)
def _table() -> dict:
    return json.loads(PATH.read_text(encoding="utf-8"))


def simulated_sizes() -> list[int]:
    return sorted(int(n) for n in _table()["players"])


def top8_recall(fmt: Format, players: int, rounds: int) -> Optional[Recall]:
    """The figures for a single-sided event of `players` after `rounds`; None for other formats (a round there
    is not one game), for fields of CUT players or fewer (everyone makes the top 8), or before round 1."""
    if not Format(fmt).sided_tables or players <= CUT or rounds < 1:
        return None
    table = _table()
    size = min(simulated_sizes(), key=lambda n: (abs(math.log(n / players)), n))
    curve = table["players"][str(size)]
    target = table["target"]
    reached = next((r for r, mean in enumerate(curve, 1) if mean >= target), None)
    return Recall(size, rounds, curve[min(rounds, len(curve)) - 1], target, reached, len(curve))

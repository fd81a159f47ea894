"""Double-sided swiss rules: two games a round with no sides to assign, and never a rematch."""
from __future__ import annotations

import random
from typing import Optional

from .costs import CostModel, Standing
from .history import History


class DoubleSidedRules:
    """The hard rules of double-sided swiss (plain swiss keeps the same two: no rematch, no sides)."""

    sided = False
    max_meetings = 1

    def __init__(self, history: History, model: Optional[CostModel] = None):
        self.history, self.model = history, model

    def may_meet(self, a, b) -> bool:
        return self.history.times_met(a, b) < self.max_meetings

    def repeats_sides(self, corp, runner) -> bool:
        return False  # no sides to repeat

    def rematch_cost(self, a, b, sa: Standing, sb: Standing) -> None:
        return None  # players meet once at most (max_meetings)

    def orient(self, a, b, sa: Standing, sb: Standing, rng: random.Random) -> tuple:
        """Higher score first (the table list reads better); no sides are assigned."""
        return (b, a) if sb.points > sa.points else (a, b)

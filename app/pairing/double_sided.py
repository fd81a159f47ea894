"""Double-sided swiss rules: two games a round with no sides to assign, and never a rematch."""
from __future__ import annotations

import random

from .costs import CostModel, Standing
from .history import History


class DoubleSidedRules:
    sided = False

    def __init__(self, history: History, model: CostModel):
        self.history, self.model = history, model

    def rematch_cost(self, a, b, sa: Standing, sb: Standing) -> None:
        return None  # players meet once at most

    def orient(self, a, b, sa: Standing, sb: Standing, rng: random.Random) -> tuple:
        """Higher score first (the table list reads better); no sides are assigned."""
        return (b, a) if sb.points > sa.points else (a, b)

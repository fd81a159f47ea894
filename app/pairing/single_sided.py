"""Single-sided swiss rules: rematches (at most two meetings, the second on reversed sides) and side choice."""
from __future__ import annotations

import random
from typing import Optional

from .costs import CostModel, Standing
from .formats import Side
from .history import History


class SingleSidedRules:
    sided = True

    def __init__(self, history: History, model: CostModel):
        self.history, self.model = history, model

    def forced_corp(self, a, b) -> Optional[object]:
        """The player who must play Corp in a rematch of a and b (the one who ran last time), or None."""
        sides = self.history.sides_played_against(a, b)
        if not sides:
            return None
        return b if Side(sides[-1]) is Side.CORP else a

    def rematch_cost(self, a, b, sa: Standing, sb: Standing) -> Optional[int]:
        """Exact (scaled int) cost of a game between players who met before; None when the rules forbid it.

        Forbidden: a third meeting, and (as in the published article) a rematch whose forced sides would
        push a player with a non-zero bias further from even.
        """
        if self.history.times_met(a, b) >= 2:
            return None
        corp = self.forced_corp(a, b)
        if corp is None:  # the earlier game has no sides on record: either orientation
            both = (self.model.oriented_int(sa, sb, True), self.model.oriented_int(sb, sa, True))
            costs = [c for c in both if c is not None]
            return min(costs) if costs else None
        sc, sr = (sa, sb) if corp == a else (sb, sa)
        for st, delta in ((sc, 1), (sr, -1)):
            if st.bias and abs(st.bias + delta) > abs(st.bias):
                return None
        return self.model.oriented_int(sc, sr, True)

    def orient(self, a, b, sa: Standing, sb: Standing, rng: random.Random) -> tuple:
        """(corp, runner): forced for a rematch; else the cheaper side; tie: larger Corp bias runs; then a coin."""
        if self.history.times_met(a, b):
            corp = self.forced_corp(a, b)
            if corp is not None:
                return (corp, b if corp == a else a)
        ab, ba = self.model.oriented_int(sa, sb), self.model.oriented_int(sb, sa)
        if ab is not None and (ba is None or ab < ba):
            return (a, b)
        if ba is not None and (ab is None or ba < ab):
            return (b, a)
        if sa.bias != sb.bias:
            return (b, a) if sa.bias > sb.bias else (a, b)
        return (a, b) if rng.random() < 0.5 else (b, a)

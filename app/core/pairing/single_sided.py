"""Single-sided swiss rules: rematches (at most two meetings, the second on reversed sides) and side choice."""
from __future__ import annotations

import random
from typing import Optional

from .costs import CostModel, Standing
from .formats import Side
from .history import History

MAX_MEETINGS = 2  # a pair meets twice at most, the second time on reversed sides


def worsens_bias(bias: int, step: int) -> bool:
    """Whether a game on side `step` (+1 Corp, -1 Runner) pushes a non-zero bias further from even."""
    return bool(bias) and abs(bias + step) > abs(bias)


class SingleSidedRules:
    """The hard rules of single-sided swiss; `model` prices games (only `rematch_cost` and `orient` need it),
    so a hand-edited round can be checked against the same rules without one."""

    sided = True
    max_meetings = MAX_MEETINGS

    def __init__(self, history: History, model: Optional[CostModel] = None):
        self.history, self.model = history, model

    def _priced(self) -> CostModel:
        if self.model is None:
            raise ValueError("pricing a game needs the cost model")
        return self.model

    def may_meet(self, a, b) -> bool:
        return self.history.times_met(a, b) < self.max_meetings

    def forced_corp(self, a, b) -> Optional[object]:
        """The player who must play Corp in a rematch of a and b (the one who ran last time), or None."""
        sides = self.history.sides_played_against(a, b)
        if not sides:
            return None
        return b if Side(sides[-1]) is Side.CORP else a

    def repeats_sides(self, corp, runner) -> bool:
        """Whether `corp` playing Corp against `runner` repeats the sides a rematch must reverse."""
        forced = self.forced_corp(corp, runner)
        return forced is not None and forced != corp

    def rematch_cost(self, a, b, sa: Standing, sb: Standing) -> Optional[int]:
        """Exact (scaled int) cost of a game between players who met before; None when the rules forbid it.

        Forbidden: a third meeting, and (as in the published article) a rematch whose forced sides would
        push a player with a non-zero bias further from even.
        """
        if not self.may_meet(a, b):
            return None
        corp = self.forced_corp(a, b)
        if corp is None:  # the earlier game has no sides on record: either orientation
            both = (self._priced().oriented_int(sa, sb, True), self._priced().oriented_int(sb, sa, True))
            costs = [c for c in both if c is not None]
            return min(costs) if costs else None
        sc, sr = (sa, sb) if corp == a else (sb, sa)
        if worsens_bias(sc.bias, 1) or worsens_bias(sr.bias, -1):
            return None
        return self._priced().oriented_int(sc, sr, True)

    def orient(self, a, b, sa: Standing, sb: Standing, rng: random.Random) -> tuple:
        """(corp, runner): forced for a rematch; else the cheaper side; tie: larger Corp bias runs; then a coin."""
        if self.history.times_met(a, b):
            corp = self.forced_corp(a, b)
            if corp is not None:
                return (corp, b if corp == a else a)
        ab, ba = self._priced().oriented_int(sa, sb), self._priced().oriented_int(sb, sa)
        if ab is not None and (ba is None or ab < ba):
            return (a, b)
        if ba is not None and (ab is None or ba < ab):
            return (b, a)
        if sa.bias != sb.bias:
            return (b, a) if sa.bias > sb.bias else (a, b)
        return (a, b) if rng.random() < 0.5 else (b, a)

"""What a simulated event did: its quality metrics, read off the games alone (score-mismatched games, win
differences, rematches, broken hard rules, players going home with uneven sides)."""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Sequence

from .formats import Format, Side
from .history import History
from .types import Game


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
            if fmt.sided_tables:
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
    if fmt.sided_tables:
        history = History(fmt, games)
        stats.uneven_players = sum(abs(history[p].bias) > history[p].games % 2 for p in finishers)
    return stats

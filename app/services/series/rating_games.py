"""A series' games as the rating takes them (app/core/ratings.py): each event a period, byes and intentional draws
marked (the rating leaves them out)."""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from ...core import ratings as core
from .games import DRAW, WIN, SeriesGame

OUTCOME = {WIN: Fraction(1), DRAW: Fraction(1, 2)}  # anything else counted is a loss: 0


def rating_games(games: Sequence[SeriesGame]) -> list[core.Game]:
    return [core.Game(g.player, g.opponent, OUTCOME.get(g.outcome, Fraction(0)), g.player_side, g.event,
                      g.intentional_draw) for g in games]

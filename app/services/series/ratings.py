"""A series' ratings (docs/domain.md 15): every game of its events rated, each event one rating period; and the
rating source that lets an event of the series seed its pairings by the ratings from the events before it.

Kept per the standings' versions (app/services/series/standings.py): a result in any event bumps its version, so a
changed past result rates the series again from its games.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Hashable, Optional, Sequence

import sqlalchemy as sa

from ...core import ratings as core
from ...core.kept import Kept
from ...extensions import db
from ...models import Series, SeriesEvent, Tournament
from ..ratings import register_rating_source
from .games import DRAW, WIN, SeriesGame, series_games
from .people import roster as load_roster
from .standings import Table, versions

OUTCOME = {WIN: Fraction(1), DRAW: Fraction(1, 2)}  # anything else counted is a loss: 0


def rating_games(games: Sequence[SeriesGame]) -> list[core.Game]:
    """The series' games as the rating takes them: each event a period, byes and intentional draws marked (the
    rating leaves them out)."""
    return [core.Game(g.player, g.opponent, OUTCOME.get(g.outcome, Fraction(0)), g.player_side, g.event,
                      g.intentional_draw) for g in games]


_RATINGS: Kept[core.Ratings] = Kept(64)


def current(series: Series, table: Table) -> core.Ratings:
    """Every series player's rating after all of the series' games so far."""
    return _RATINGS.get(versions(series),
                        lambda: core.rate(rating_games(series_games(series, table.roster))))


def shown(series: Series, table: Table) -> dict[str, int]:
    """What the standings show beside each rated player: the conservative value (unrated players: nothing)."""
    rated = current(series, table)
    return {key: rating.display for key, rating in rated.ratings.items()}


def forget_cached() -> None:
    _RATINGS.clear()


@register_rating_source
def games_before(t: Tournament) -> Optional[tuple[list[core.Game], dict[int, Hashable]]]:
    """An event of a series: the series' games of its events before this one (by date, then id), and this event's
    entries' series player keys. None for an event of no series (the first series it joined decides)."""
    series = db.session.scalar(sa.select(Series).join(SeriesEvent, SeriesEvent.series_id == Series.id)
                               .where(SeriesEvent.tournament_id == t.id).order_by(SeriesEvent.id).limit(1))
    if series is None:
        return None
    roster = load_roster(series)
    before = [g for g in series_games(series, roster) if (g.date, g.event) < (t.date, t.id)]
    keys = {pid: key for pid, key in roster.people.key_of.items() if roster.entries[pid].tournament_id == t.id}
    return rating_games(before), keys

"""A series' ratings (docs/domain.md 15): every game of its events rated, each event one rating period, as its pages
show them. (What seeds an event by the ratings before it, from every event on the server:
app/services/server_ratings.py.)

Kept per the standings' versions (app/services/series/standings.py): a result in any event bumps its version, so a
changed past result rates the series again from its games.
"""
from __future__ import annotations

from ...core import ratings as core
from ...core.kept import Kept
from ...models import Series
from .games import series_games
from .rating_games import rating_games
from .standings import Table, versions


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

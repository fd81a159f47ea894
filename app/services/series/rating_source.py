"""Where an event of a series takes its ratings from (docs/domain.md 15.2): the series' games of its events before
this one, and this event's entries' series player keys. app/services/ratings.py asks this source itself, so seeding
by rating works through the services alone (a script, the command line), whatever else was imported.

Apart from app/services/series/series_ratings.py (the ratings the series' pages show), which reads the cached standings:
this module needs only the roster and the games."""
from __future__ import annotations

from typing import Hashable, Optional

import sqlalchemy as sa

from ...core import ratings as core
from ...extensions import db
from ...models import Series, SeriesEvent, Tournament
from .games import series_games
from .people import roster as load_roster
from .rating_games import rating_games


def series_of(t: Tournament) -> Optional[Series]:
    """The series whose ratings seed the event: the first series it joined (None: no series)."""
    return db.session.scalar(sa.select(Series).join(SeriesEvent, SeriesEvent.series_id == Series.id)
                             .where(SeriesEvent.tournament_id == t.id).order_by(SeriesEvent.id).limit(1))


def games_before(t: Tournament) -> Optional[tuple[list[core.Game], dict[int, Hashable]]]:
    """An event of a series: the series' games of its events before this one (by date, then id), and this event's
    entries' series player keys. None for an event of no series (the first series it joined decides)."""
    series = series_of(t)
    if series is None:
        return None
    roster = load_roster(series)
    before = [g for g in series_games(series, roster) if (g.date, g.event) < (t.date, t.id)]
    keys = {pid: key for pid, key in roster.people.key_of.items() if roster.entries[pid].tournament_id == t.id}
    return rating_games(before), keys

"""Which series an event's seeding by rating answers to (docs/domain.md 15.2): the first it joined. Its identity
rules say who the event's players are; the games come from every event on the server
(app/services/server_ratings.py)."""
from __future__ import annotations

from typing import Optional

import sqlalchemy as sa

from ...extensions import db
from ...models import Series, SeriesEvent, Tournament


def series_of(t: Tournament) -> Optional[Series]:
    """The series whose ratings seed the event: the first series it joined (None: no series)."""
    return db.session.scalar(sa.select(Series).join(SeriesEvent, SeriesEvent.series_id == Series.id)
                             .where(SeriesEvent.tournament_id == t.id).order_by(SeriesEvent.id).limit(1))

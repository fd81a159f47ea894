"""What every phone polls, in one statement: the latest published round, a version of its pairings, its timer.

A 1,000-phone event asks this 100 times a second, so it is one Core query built once (no ORM objects, no
statement building per request), by the public slug.
"""
from __future__ import annotations

from typing import Optional

import sqlalchemy as sa

from ..extensions import db
from ..models import Round, Seat, Tournament
from .swiss import timer

_latest = (sa.select(Round.id).where(Round.tournament_id == Tournament.id, Round.published)
           .order_by(Round.number.desc()).limit(1).correlate(Tournament).scalar_subquery())
_newest_seat = sa.select(sa.func.max(Seat.id)).where(Seat.round_id == Round.id).correlate(Round).scalar_subquery()
_POLL = (sa.select(Tournament.id, Round.number, Round.id, _newest_seat, Round.timer_state, Round.timer_ends_at,
                   Round.timer_remaining_ms)
         .select_from(Tournament).outerjoin(Round, Round.id == _latest)
         .where(Tournament.slug == sa.bindparam("slug")))


def poll(slug: str) -> Optional[dict]:
    """{"round", "version", "timer"} of the event, or None for an unknown slug. The version changes when the
    pairings do (manual edits rewrite seats, so the newest seat id moves); the timer is timer.as_status's."""
    row = db.session.connection().execute(_POLL, {"slug": slug}).first()
    if row is None:
        return None
    _, number, round_id, newest_seat, *clock = row
    if number is None:
        return {"round": None, "version": "0", "timer": None}
    return {"round": number, "version": f"{round_id}.{newest_seat or 0}",
            "timer": timer.as_status(number, timer.clock_from_row(*clock))}

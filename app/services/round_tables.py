"""Every table and seat of an event's rounds, loaded in two queries by round (an index on both tables).

`selectinload(Round.matches).selectinload(Match.seats)` asks for seats in batches of 500 matches joined back to
their matches on (id, round_id); SQLite plans that join as a scan of the seats per batch, so a backup or an NRTM
export of a 10,000-player, 10-round event took over two minutes (quadratic in the event's size). Backups and
exports read whole events: they load them here.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Sequence

import sqlalchemy as sa
from sqlalchemy.orm.attributes import set_committed_value

from ..extensions import db
from ..models import Match, Round, Seat


def with_tables(rounds: Sequence[Round]) -> Sequence[Round]:
    """`rounds` with their matches (by table) and each match's seats (by position) loaded, as the relationships
    order them."""
    ids = [r.id for r in rounds]
    if not ids:
        return rounds
    seats = defaultdict(list)
    for seat in db.session.scalars(sa.select(Seat).where(Seat.round_id.in_(ids)).order_by(Seat.position, Seat.id)):
        seats[seat.match_id].append(seat)
    matches = defaultdict(list)
    for match in db.session.scalars(sa.select(Match).where(Match.round_id.in_(ids))
                                    .order_by(Match.round_id, Match.table)):
        set_committed_value(match, "seats", seats[match.id])
        matches[match.round_id].append(match)
    for r in rounds:
        set_committed_value(r, "matches", matches[r.id])
    return rounds

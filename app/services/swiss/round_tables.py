"""Every table and seat of an event's rounds as plain rows, in two queries by round (an index on both tables).

`selectinload(Round.matches).selectinload(Match.seats)` asks for seats in batches of 500 matches joined back to
their matches on (id, round_id); SQLite plans that join as a scan of the seats per batch, so a backup of a
10,000-player, 10-round event took 142 s (quadratic in the event's size), and ORM objects for its 150,000 rows
took seconds more. Backups (every publish keeps one) and NRTM exports read whole events: they read them here.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Optional

import sqlalchemy as sa

from ...extensions import db
from ...models import Match, Seat


@dataclass(slots=True)
class Table:
    """A match as Match has it, with its seats (rows: player_id, position, side, points, games_won, penalty) by
    position."""

    id: int
    table: int
    is_bye: bool
    result: Optional[str]
    intentional_draw: bool
    drawn_games: int
    two_for_one: bool = False
    seats: list = field(default_factory=list)


def by_round(round_ids: Iterable[int]) -> dict[int, list[Table]]:
    """Each round's tables by number; a round without tables has an empty list."""
    ids = list(round_ids)
    tables: dict[int, list[Table]] = {rid: [] for rid in ids}
    if not ids:
        return tables
    by_id = {}
    for rid, *values in db.session.execute(
            sa.select(Match.round_id, Match.id, Match.table, Match.is_bye, Match.result, Match.intentional_draw,
                      Match.drawn_games, Match.two_for_one)
            .where(Match.round_id.in_(ids)).order_by(Match.round_id, Match.table)):
        table = by_id[values[0]] = Table(*values)
        tables[rid].append(table)
    seats = defaultdict(list)
    for seat in db.session.execute(
            sa.select(Seat.match_id, Seat.player_id, Seat.position, Seat.side, Seat.points, Seat.games_won,
                      Seat.penalty)
            .where(Seat.round_id.in_(ids)).order_by(Seat.position, Seat.id)):
        seats[seat.match_id].append(seat)
    for mid, table in by_id.items():
        table.seats = seats[mid]
    return tables

"""One writer at a time per tournament, for actions that read the event and then write what they read.

Pairing, adding/removing/dropping players, hand edits of pairings and undo each decide from the player list and
the rounds as they stand; two such requests at once could each decide from a list the other is changing (a round
paired with a player being removed, two swaps rewriting the same seats). Each takes this lock first, then reads.

Lock order: the tournament row first, then any other row of the event (a match locked for a result), never the
reverse, so two requests never wait for each other in a circle.
"""
from __future__ import annotations

import sqlalchemy as sa

from ..extensions import db
from ..models import Tournament


class TournamentGone(LookupError):
    """The tournament was deleted while the request was on its way (answered as 404)."""


def lock_tournament(tournament: Tournament) -> Tournament:
    """Hold the tournament's write lock until the transaction ends; `tournament` is reloaded, so what the caller
    reads from here on is what the previous writer committed.

    PostgreSQL: SELECT ... FOR NO KEY UPDATE on the tournament row: lockers of the same event queue, other events
    are not held up, and plain inserts that merely reference the event are not blocked. SQLite has one writer
    for the whole file: a write that changes nothing opens the transaction and takes that lock at once (reads in
    the same transaction then see every committed write; the wait is SQLite's busy timeout).
    """
    query = (sa.select(Tournament).where(Tournament.id == tournament.id)
             .execution_options(populate_existing=True))
    if db.session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(key_share=True)
    else:
        db.session.execute(sa.update(Tournament).where(Tournament.id == tournament.id)
                           .values(version=Tournament.version).execution_options(synchronize_session=False))
    locked = db.session.execute(query).scalar_one_or_none()
    if locked is None:
        raise TournamentGone("This event was deleted.")
    return locked

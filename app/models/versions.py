"""The event's version: which models are parts of an event, and the bump every change of one gives it (what
the page cache and the phones' polls are keyed by)."""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.orm import Session

from .cut import CutEntry, CutResult
from .players import Decklist, Player
from .rounds import Match, ResultChange, ResultClaim, Round, Seat
from .tournament import Tournament


TOURNAMENT_PARTS: list[type] = [Player, Round, Match, Seat, CutEntry, CutResult, ResultClaim, ResultChange, Decklist]


def tournament_part(cls: type) -> type:
    """Mark a model with a tournament_id as part of its event: a change to one bumps the event's version."""
    TOURNAMENT_PARTS.append(cls)
    return cls


def touch(session, tournament_ids) -> None:
    """Bump the version of these tournaments: caches keyed by it (standings, polling) then miss.

    ORM changes are caught by the flush hook below; services that write with bulk statements call this.
    """
    ids = sorted({i for i in tournament_ids if i is not None})
    if ids:
        session.execute(sa.update(Tournament).where(Tournament.id.in_(ids))
                        .values(version=Tournament.version + 1).execution_options(synchronize_session=False))


@event.listens_for(Session, "before_flush")
def _bump_versions(session, _context, _instances) -> None:
    changed = set()
    for obj in (*session.new, *session.dirty, *session.deleted):
        if isinstance(obj, tuple(TOURNAMENT_PARTS)):
            changed.add(obj.tournament_id)
        elif isinstance(obj, Tournament) and obj in session.dirty and obj.id is not None:
            obj.version = (obj.version or 0) + 1
    changed -= {obj.id for obj in session.dirty if isinstance(obj, Tournament)}
    touch(session, changed)

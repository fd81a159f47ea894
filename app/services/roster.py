"""Who plays in an event: the rules every way of adding or renaming a player shares (the TO's list, CSV import,
self-registration)."""
from __future__ import annotations

import sqlalchemy as sa

from ..extensions import db
from ..models import Player, Round, Tournament
from ..names import name_key


def rounds_started(tournament: Tournament) -> bool:
    """True once round 1 exists: the format is fixed, players can only be dropped, not removed, and a new player
    is a late entry. A late entrant needs nothing more: the next pairing takes every active player."""
    return db.session.scalar(sa.select(sa.exists().where(Round.tournament_id == tournament.id)))


def name_clash(tournament: Tournament, name: str, player: Player | None = None) -> Player | None:
    """The other player of this event whose name is `name` ignoring case, accents and spacing (app/names.py)."""
    query = sa.select(Player).filter_by(tournament_id=tournament.id, name_key=name_key(name))
    if player is not None and player.id is not None:
        query = query.where(Player.id != player.id)
    return db.session.scalars(query.limit(1)).first()


def name_taken_message(name: str) -> str:
    return f"“{name}” is already in this tournament."


def active_count(tournament: Tournament) -> int:
    return db.session.scalar(sa.select(sa.func.count()).where(Player.tournament_id == tournament.id,
                                                              Player.dropped.is_(False)))

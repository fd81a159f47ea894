"""The one rule for player names in an event: unique under app.names.name_key (case, accents and spacing
ignored). The database enforces it (Player.name_key is unique per tournament); these helpers let every path
that adds or renames players (add form, late entry, edit, CSV import) say so in the same words, whether the
clash was seen before writing or lost in a race with a simultaneous request.
"""
from __future__ import annotations

from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import Player, Tournament
from ..names import name_key

NAME_CONSTRAINT = "uq_players_tournament_id_name_key"


def holder_of(tournament: Tournament, name: str, except_id: Optional[int] = None) -> Optional[Player]:
    """The player of this event whose name counts as the same as `name`, other than player `except_id`."""
    query = sa.select(Player).where(Player.tournament_id == tournament.id, Player.name_key == name_key(name))
    if except_id is not None:
        query = query.where(Player.id != except_id)
    return db.session.scalars(query.limit(1)).first()


def taken_message(existing_name: str) -> str:
    return f"“{existing_name}” is already in this tournament."


def is_name_clash(error: IntegrityError) -> bool:
    """Whether the database refused a row because its name_key is taken in the event."""
    diag = getattr(error.orig, "diag", None)  # psycopg2 names the constraint
    if diag is not None and getattr(diag, "constraint_name", None):
        return diag.constraint_name == NAME_CONSTRAINT
    text = str(error.orig)
    return NAME_CONSTRAINT in text or "players.tournament_id, players.name_key" in text  # SQLite's wording

"""The one rule for player names in an event: unique under app.core.names.name_key (case, accents and spacing
ignored). The database enforces it (Player.name_key is unique per tournament); these helpers let every path
that adds or renames players (add form, late entry, edit, CSV import) say so in the same words, whether the
clash was seen before writing or lost in a race with a simultaneous request.
"""
from __future__ import annotations

from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import Player, Round, Tournament
from ...core.names import name_key
from ...core.pairing.byes import unrequested_first_round_byes

NAME_CONSTRAINT = "uq_players_tournament_id_name_key"


def rounds_started(tournament: Tournament) -> bool:
    """True once round 1 exists: the format is fixed, players can only be dropped, not removed, and a new player
    is a late entry. A late entrant needs nothing more: the next pairing takes every active player."""
    return db.session.scalar(sa.select(sa.exists().where(Round.tournament_id == tournament.id)))


def active_count(tournament: Tournament) -> int:
    return db.session.scalar(sa.select(sa.func.count()).where(Player.tournament_id == tournament.id,
                                                              Player.dropped.is_(False)))


def field_and_byes(tournament: Tournament) -> tuple[int, int]:
    """(active players, active players who asked for a bye in round 1), in one query."""
    active, requested = db.session.execute(
        sa.select(sa.func.count(), sa.func.coalesce(sa.func.sum(sa.case((Player.first_round_bye, 1), else_=0)), 0))
        .where(Player.tournament_id == tournament.id, Player.dropped.is_(False))).one()
    return active, int(requested)


def bye_note(active: int, requested: int) -> str | None:
    """The warning when requested round-1 byes leave an odd field, so one more player gets a bye nobody asked
    for; None when they do not."""
    if not unrequested_first_round_byes(active, requested):
        return None
    asked = "1 requested bye" if requested == 1 else f"{requested} requested byes"
    return (f"{asked} with {active} active players leave{'s' if requested == 1 else ''} {active - requested} "
            "to pair, an odd number: one more player, drawn at random, also gets a bye in round 1. "
            "Add or remove a player or a requested bye to avoid it.")


def first_round_bye_note(tournament: Tournament, player: Player | None = None) -> str | None:
    """bye_note for the field as it would be if `player` (None: a player being added) asked for a bye: what
    the TO should know before ticking the box. None once round 1 exists."""
    if rounds_started(tournament) or (player is not None and player.dropped):
        return None  # a dropped player is not paired, bye or not
    active, requested = field_and_byes(tournament)
    if player is None:
        active += 1
    if player is None or not player.first_round_bye:
        requested += 1
    return bye_note(active, requested)


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

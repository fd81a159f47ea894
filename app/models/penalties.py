"""Penalties and deck checks (app/services/penalties/): private to the event's staff, so no public page changes
with them and they are not tournament parts (a game loss changes a result through the result writer, which bumps
the event's version; a disqualification drops the player the same way)."""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import CheckConstraint, ForeignKeyConstraint

from ..core.deck_checks import Pool
from ..core.penalties import NOTES_LENGTH, Infraction, Kind
from ..extensions import db
from .base import utcnow


def sql_values(members) -> str:
    """An enum's values as the list of a SQL `IN (...)`: the constraints and partial indexes are written from the
    enums, and tests/models/test_penalties.py holds the migrations to the same text."""
    return ", ".join(f"'{m.value}'" for m in members)


KINDS = sql_values(Kind)
INFRACTIONS = sql_values(Infraction)
POOLS = sql_values(Pool)
LOSING = [k for k in Kind if k.loses]  # Kind.loses says which penalties lose; everything below asks it
LOSSES = f"kind IN ({sql_values(LOSING)})"
STANDING_LOSSES = f"{LOSSES} AND voided_at IS NULL"  # a voided loss leaves room for the right one
STANDING_DQ = f"kind = '{Kind.DISQUALIFICATION.value}' AND voided_at IS NULL"
VOID_REASON_LENGTH = 200


class Penalty(db.Model):
    """An infraction and its penalty against a player in a round: who recorded it, when, with notes, and what it
    did to the table's result (result_before -> result_after; both NULL when it changed none)."""

    __tablename__ = "penalties"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    player_id = db.Column(db.Integer, nullable=False)
    round_number = db.Column(db.Integer)  # NULL: outside the swiss rounds (before round 1, the cut)
    game = db.Column(db.Integer, nullable=False, default=0, server_default="0")  # 0: the round; 1, 2: a game
    infraction = db.Column(db.String(24), nullable=False)
    kind = db.Column(db.String(16), nullable=False)
    notes = db.Column(db.String(NOTES_LENGTH), nullable=False, default="", server_default="")
    recorded_by_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="SET NULL"))
    recorded_by = db.Column(db.String(254), nullable=False, default="", server_default="")  # the name then
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    result_before = db.Column(db.String(16))
    result_after = db.Column(db.String(16))
    # voided (a mistaken penalty): by whom (the name then), when, why; NULL while it stands
    voided_at = db.Column(db.DateTime(timezone=True))
    voided_by_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="SET NULL"))
    voided_by = db.Column(db.String(254))
    void_reason = db.Column(db.String(VOID_REASON_LENGTH))

    __table_args__ = (
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        CheckConstraint(f"kind IN ({KINDS})", name="penalty_kind"),
        CheckConstraint(f"infraction IN ({INFRACTIONS})", name="penalty_infraction"),
        CheckConstraint("game IN (0, 1, 2)", name="penalty_game"),
        CheckConstraint("round_number IS NULL OR round_number > 0", name="penalty_round_positive"),
        CheckConstraint(f"NOT ({LOSSES}) OR round_number IS NOT NULL", name="penalty_loss_round"),
        sa.Index("ix_penalties_tournament_id_id", "tournament_id", "id"),
        # one loss per player, round and game, whatever races: two judges recording the same game loss at once
        # store it once
        CheckConstraint("(voided_at IS NULL) = (void_reason IS NULL)", name="penalty_void_reason"),
        sa.Index("uq_penalties_one_loss", "player_id", "round_number", "game", unique=True,
                 sqlite_where=sa.text(STANDING_LOSSES), postgresql_where=sa.text(STANDING_LOSSES)),
        # one standing disqualification per player, whatever races (a form sent six times at once stores one)
        sa.Index("uq_penalties_one_disqualification", "player_id", unique=True,
                 sqlite_where=sa.text(STANDING_DQ), postgresql_where=sa.text(STANDING_DQ)),
    )

    player = db.relationship("Player", primaryjoin="Player.id == foreign(Penalty.player_id)", viewonly=True)


# A disqualification that stands (not voided): the one condition every reader of "is this player disqualified"
# asks (the player's state, bringing a player back, the penalty form, the player page's facts).
STANDING_DISQUALIFICATION = sa.and_(Penalty.kind == Kind.DISQUALIFICATION.value, Penalty.voided_at.is_(None))
# A game or match loss that stands: what the unique index above holds once per player, round and game.
STANDING_LOSS = sa.and_(Penalty.kind.in_([k.value for k in LOSING]), Penalty.voided_at.is_(None))


class DeckCheckDraw(db.Model):
    """A random deck check's draw: its seed and pool, and the players it picked in order (player ids), so the
    pick can be made again from the seed (app/core/deck_checks.py)."""

    __tablename__ = "deck_check_draws"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False,
                              index=True)
    round_number = db.Column(db.Integer)  # NULL: before round 1
    seed = db.Column(db.String(32), nullable=False)
    pool = db.Column(db.String(8), nullable=False)
    top_tables = db.Column(db.Integer, nullable=False, default=4, server_default="4")
    count = db.Column(db.Integer, nullable=False)
    # the draw's inputs, [[player id, table or null, times checked], ...], and the ids it picked in order
    candidates = db.Column(db.JSON, nullable=False, default=list)
    picked = db.Column(db.JSON, nullable=False, default=list)
    drawn_by_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="SET NULL"))
    drawn_by = db.Column(db.String(254), nullable=False, default="", server_default="")
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        CheckConstraint(f"pool IN ({POOLS})", name="deck_check_pool"),
        CheckConstraint("count > 0", name="deck_check_count"),
        CheckConstraint("top_tables > 0", name="deck_check_top_tables"),
    )


class DeckCheck(db.Model):
    """A player's lists checked against their deck: who checked, when, in which round (and the draw that picked
    them, if one did). One check per player and round."""

    __tablename__ = "deck_checks"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    player_id = db.Column(db.Integer, nullable=False)
    round_number = db.Column(db.Integer, nullable=False)  # 0: before round 1
    draw_id = db.Column(db.Integer, db.ForeignKey("deck_check_draws.id", ondelete="SET NULL"))
    checked_by_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="SET NULL"))
    checked_by = db.Column(db.String(254), nullable=False, default="", server_default="")
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        sa.UniqueConstraint("player_id", "round_number"),
        CheckConstraint("round_number >= 0", name="deck_check_round"),
        sa.Index("ix_deck_checks_tournament_id", "tournament_id"),
    )

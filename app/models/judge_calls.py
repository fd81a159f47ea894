"""A player's call for a judge."""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import CheckConstraint, ForeignKeyConstraint

from ..extensions import db
from .base import utcnow


class JudgeCall(db.Model):
    """A player's call for a judge at their table (app/services/judge_calls.py): sent, claimed by one staff member,
    resolved, or cancelled by the player; each step stamped. `version` counts the steps, so the staff pages' poll
    sees any change in one sum. Not a TOURNAMENT_PARTS member: a call changes no public page."""

    __tablename__ = "judge_calls"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    player_id = db.Column(db.Integer, nullable=False)
    round_number = db.Column(db.Integer)  # the player's round and table when they called; NULL: not seated
    table = db.Column(db.Integer)
    reason = db.Column(db.String(100), nullable=False, default="", server_default="")
    state = db.Column(db.String(9), nullable=False, default="open")
    version = db.Column(db.Integer, nullable=False, default=1, server_default="1")
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    claimed_by_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="SET NULL"))
    claimed_at = db.Column(db.DateTime(timezone=True))
    resolved_by_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="SET NULL"))
    closed_at = db.Column(db.DateTime(timezone=True))  # resolved or cancelled

    __table_args__ = (
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        CheckConstraint("state IN ('open', 'claimed', 'resolved', 'cancelled')", name="state"),
        sa.Index("ix_judge_calls_tournament_id_id", "tournament_id", "id"),
        sa.Index("ix_judge_calls_player_id_id", "player_id", "id"),  # a player's newest call: one probe
        # one call at a time per player, whatever races: the database refuses a second open one
        sa.Index("uq_judge_calls_one_open", "player_id", unique=True,
                 sqlite_where=sa.text("state IN ('open', 'claimed')"),
                 postgresql_where=sa.text("state IN ('open', 'claimed')")),
    )

    player = db.relationship("Player", primaryjoin="Player.id == foreign(JudgeCall.player_id)", viewonly=True)
    claimed_by = db.relationship("User", foreign_keys=[claimed_by_id])
    resolved_by = db.relationship("User", foreign_keys=[resolved_by_id])

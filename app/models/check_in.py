"""Check-in and the waitlist (app/services/check_in/): an event's roll call settings, the players' check-ins per
roll call, and the waitlist in its order.

A waitlisted player is a Player row dropped (Player.dropped) with an unpromoted WaitlistEntry: the one drop
mechanism keeps them out of every pairing; letting them in clears the drop and stamps `promoted_at`.

All three are parts of their event.
"""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import CheckConstraint, ForeignKeyConstraint, UniqueConstraint

from ..extensions import db
from .base import utcnow
from .versions import tournament_part


@tournament_part
class CheckInSettings(db.Model):
    """One row per event that set anything up; absent: check-in off, no waitlist."""

    __tablename__ = "check_in_settings"
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    enabled = db.Column(db.Boolean, nullable=False, default=False)
    round = db.Column(db.Integer, nullable=False, default=1)  # the roll call is before this round
    deadline = db.Column(db.DateTime(timezone=True))  # phones check in until then; None: until the round is paired
    no_shows = db.Column(db.String(8), nullable=False, default="drop")  # core/check_in.py NoShows
    waitlist = db.Column(db.Boolean, nullable=False, default=False)  # registrations beyond the cap wait in order

    __table_args__ = (
        CheckConstraint("round > 0", name="round_positive"),
        CheckConstraint("no_shows IN ('drop', 'decide')", name="no_shows"),
    )


@tournament_part
class CheckIn(db.Model):
    """A player seen at a roll call (before round `round`), by their phone or by the staff."""

    __tablename__ = "check_ins"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    player_id = db.Column(db.Integer, nullable=False)
    round = db.Column(db.Integer, nullable=False)
    by_staff = db.Column(db.Boolean, nullable=False, default=False)  # else by the player's own phone
    at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        UniqueConstraint("player_id", "round"),
        sa.Index("ix_check_ins_tournament_round", "tournament_id", "round"),
    )


@tournament_part
class WaitlistEntry(db.Model):
    """A registration beyond the cap, in its place in line; `promoted_at` once a place was given to it."""

    __tablename__ = "waitlist"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    player_id = db.Column(db.Integer, nullable=False, unique=True)
    position = db.Column(db.Integer, nullable=False)  # the order of arrival within the event
    promoted_at = db.Column(db.DateTime(timezone=True))

    __table_args__ = (
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        UniqueConstraint("tournament_id", "position"),
        CheckConstraint("position > 0", name="position_positive"),
    )

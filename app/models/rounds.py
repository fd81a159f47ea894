"""The swiss rounds: their tables and seats, the results players claim, every change of a result, and a
pairing running in the background."""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import CheckConstraint, ForeignKeyConstraint, UniqueConstraint

from ..extensions import db
from .base import new_slip_ref, utcnow


class Round(db.Model):
    __tablename__ = "rounds"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    number = db.Column(db.Integer, nullable=False)
    published = db.Column(db.Boolean, nullable=False, default=False)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    # The round clock (app/core/clock.py): NULL until started; the end time while running, the time left while paused.
    timer_state = db.Column(db.String(8))
    timer_ends_at = db.Column(db.DateTime(timezone=True))
    timer_remaining_ms = db.Column(db.Integer)
    # When play began (the schedule's estimate, app/services/schedule/): the publication, then the timer's first start.
    started_at = db.Column(db.DateTime(timezone=True))
    # The engine's proof (docs/engine.md, "A bound on every round"): proven optimal, or the best pairing found
    # within the work budget and its proven distance from the optimum in cost units (an exact fraction, "7/2").
    # NULL: not paired by the engine here (an imported round, or one from before this column).
    certified = db.Column(db.Boolean)
    gap = db.Column(db.String(64))
    # What the round's slip codes name it by (app/services/results/slip_codes.py), carried by backups; rounds from
    # before this column keep their id here, which their printed codes name.
    slip_ref = db.Column(db.Integer, nullable=False, default=new_slip_ref)
    # The table on stream this round (app/services/streaming.py); NULL: none.
    featured_table = db.Column(db.Integer)
    # Ratings seeded this round's pairing (docs/domain.md 15.2): the event seeds by rating and at least one of its
    # players had a rating from earlier events. What lets its public page say so.
    seeded_by_rating = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())

    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        CheckConstraint("featured_table IS NULL OR featured_table > 0", name="featured_table_positive"),
        UniqueConstraint("id", "tournament_id"),
        CheckConstraint("number > 0", name="number_positive"),
        CheckConstraint(  # NULL-safe: a CHECK that evaluates to NULL would let anything through
            "(timer_state IS NULL AND timer_ends_at IS NULL AND timer_remaining_ms IS NULL)"
            " OR (timer_state IS NOT NULL AND ("
            "(timer_state = 'running' AND timer_ends_at IS NOT NULL AND timer_remaining_ms IS NULL)"
            " OR (timer_state = 'paused' AND timer_ends_at IS NULL AND timer_remaining_ms IS NOT NULL"
            " AND timer_remaining_ms BETWEEN 0 AND 36000000)"
            " OR (timer_state = 'called' AND timer_ends_at IS NULL AND timer_remaining_ms IS NULL)))",
            name="timer"),
    )

    tournament = db.relationship("Tournament", back_populates="rounds")
    matches = db.relationship("Match", back_populates="round", cascade="all, delete-orphan",
                              passive_deletes=True, order_by="Match.table")


class PairingJob(db.Model):
    """A pairing running in the background (services/swiss/pairing_jobs.py): one row per tournament and round number,
    so a second click or a second host finds the running job instead of starting another pairing."""

    __tablename__ = "pairing_jobs"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    number = db.Column(db.Integer, nullable=False)
    state = db.Column(db.String(8), nullable=False, default="running")
    progress = db.Column(db.String(200), nullable=False, default="")
    message = db.Column(db.Text, nullable=False, default="")
    started_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    updated_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        UniqueConstraint("tournament_id", "number", name="uq_pairing_jobs_round"),
        CheckConstraint("state IN ('running', 'failed', 'done')", name="pairing_job_state"),
    )


class Match(db.Model):
    """One table of a round: two seats, or one seat for a bye. `result` is None until reported."""

    __tablename__ = "matches"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, nullable=False)
    round_id = db.Column(db.Integer, nullable=False)
    table = db.Column(db.Integer, nullable=False)
    is_bye = db.Column(db.Boolean, nullable=False, default=False)
    # "corp", "runner", "tie", "id" (single-sided); "3-0/0-3" (double-sided: both games, app/core/results.py); "2-1" ...
    result = db.Column(db.String(16))
    intentional_draw = db.Column(db.Boolean, nullable=False, default=False)
    drawn_games = db.Column(db.Integer, nullable=False, default=0)
    # NRTM's twoForOne, as an imported file gave it (written back on export; nothing in SASS reads it)
    two_for_one = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())

    __table_args__ = (
        ForeignKeyConstraint(["round_id", "tournament_id"], ["rounds.id", "rounds.tournament_id"],
                             ondelete="CASCADE"),
        UniqueConstraint("round_id", "table"),
        UniqueConstraint("id", "round_id"),
        CheckConstraint('"table" > 0', name="table_positive"),
        CheckConstraint("drawn_games >= 0", name="drawn_games"),
    )

    round = db.relationship("Round", back_populates="matches")
    seats = db.relationship("Seat", back_populates="match", cascade="all, delete-orphan",
                            passive_deletes=True, order_by="Seat.position")


class Seat(db.Model):
    """A player's place in a match. Unique per round: a player appears once per round."""

    __tablename__ = "seats"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, nullable=False)
    round_id = db.Column(db.Integer, nullable=False)
    match_id = db.Column(db.Integer, nullable=False)
    player_id = db.Column(db.Integer, nullable=False)
    position = db.Column(db.Integer, nullable=False)  # 1 or 2; single-sided: 1 is Corp
    side = db.Column(db.String(6))  # "corp" / "runner" in single-sided, else NULL
    points = db.Column(db.Integer)  # NULL until the result is in
    games_won = db.Column(db.Integer, nullable=False, default=0)  # plain swiss games in the match
    # Points the player lost at this table (an imported file's negative score: a penalty), taken from their
    # standings' points on top of `points`, which stay the result's; 0 almost always.
    penalty = db.Column(db.Integer, nullable=False, default=0, server_default="0")

    __table_args__ = (
        ForeignKeyConstraint(["match_id", "round_id"], ["matches.id", "matches.round_id"], ondelete="CASCADE"),
        ForeignKeyConstraint(["round_id", "tournament_id"], ["rounds.id", "rounds.tournament_id"],
                             ondelete="CASCADE"),
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        UniqueConstraint("round_id", "player_id"),
        UniqueConstraint("match_id", "position"),
        # the status poll's newest seat of a round (app/services/status.py): one probe, whatever other events hold
        sa.Index("ix_seats_round_id_id", "round_id", "id"),
        CheckConstraint("position IN (1, 2)", name="position"),
        CheckConstraint("side IS NULL OR side IN ('corp', 'runner')", name="side"),
        CheckConstraint("points IS NULL OR points >= 0", name="points"),
        CheckConstraint("games_won >= 0", name="games_won"),
        CheckConstraint("penalty >= 0", name="penalty"),
    )

    match = db.relationship("Match", back_populates="seats")
    player = db.relationship("Player", primaryjoin="Player.id == foreign(Seat.player_id)", viewonly=True)


class ResultClaim(db.Model):
    """What one player reported for their own table; the result stands when both claims agree."""

    __tablename__ = "result_claims"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, nullable=False)
    match_id = db.Column(db.Integer, db.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False)
    player_id = db.Column(db.Integer, nullable=False)
    result = db.Column(db.String(16), nullable=False)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        UniqueConstraint("match_id", "player_id"),
    )


class ResultChange(db.Model):
    """One change of a match's result: who (an account or a player), from what, to what, when."""

    __tablename__ = "result_changes"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    match_id = db.Column(db.Integer, db.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False, index=True)
    actor = db.Column(db.String(10), nullable=False)  # "organizer", "staff", "player" or "slip" (a table's code)
    user_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="SET NULL"))
    player_id = db.Column(db.Integer, db.ForeignKey("players.id", ondelete="CASCADE"))
    old_result = db.Column(db.String(16))
    new_result = db.Column(db.String(16), nullable=False)
    # why an account changed it, when a rule did (a penalty's game loss: app/services/penalties/); NULL otherwise
    reason = db.Column(db.String(200))
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        CheckConstraint("actor IN ('organizer', 'staff', 'player', 'slip')", name="actor"),
    )

    user = db.relationship("User")
    player = db.relationship("Player")

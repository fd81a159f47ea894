"""The event itself: its format, settings and version (bumped on every change of its parts, app/models/versions.py)."""
from __future__ import annotations

import secrets
from datetime import date
from fractions import Fraction

import sqlalchemy as sa
from sqlalchemy import CheckConstraint

from ..extensions import db
from ..core.pairing import DEFAULT_FORMAT, DEFAULT_SCORE_FACTOR, Format
from .base import new_slip_key, new_slug, utcnow


class Tournament(db.Model):
    __tablename__ = "tournaments"
    id = db.Column(db.Integer, primary_key=True)
    owner_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    name = db.Column(db.String(120), nullable=False)
    date = db.Column(db.Date, nullable=False, default=date.today)
    format = db.Column(db.String(10), nullable=False, default=DEFAULT_FORMAT.value)
    score_factor = db.Column(db.String(16), nullable=False,
                             default=lambda: str(Fraction(DEFAULT_SCORE_FACTOR)))  # exact: "2", "3/2"
    planned_rounds = db.Column(db.Integer)
    tiebreakers = db.Column(db.String(16))  # None: the format's default system
    power_pairing = db.Column(db.Boolean, nullable=False, default=False)
    slug = db.Column(db.String(16), nullable=False, unique=True, default=new_slug)
    seed = db.Column(db.String(32), nullable=False, default=lambda: secrets.token_hex(8))
    cut_kind = db.Column(db.String(10))  # "double" / "single" once a cut exists
    # Self-report: False waits for the opponent's confirmation; True lets one player's report stand (small stores).
    single_report = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    version = db.Column(db.Integer, nullable=False, default=0, server_default="0")  # bumped on every change
    round_minutes = db.Column(db.Integer, nullable=False, default=65, server_default="65")  # the timer's default
    # Self-registration from the public page (app/services/players/registration.py).
    registration_open = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    registration_cap = db.Column(db.Integer)  # active players at most; None: no cap
    late_registration = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    # The tournamentOrganiser of an imported NRTM file, written back unless the owner's account names one.
    organiser_name = db.Column(db.String(80), nullable=False, default="", server_default="")
    organiser_nrdb_username = db.Column(db.String(40), nullable=False, default="", server_default="")
    organiser_nrdb_id = db.Column(db.Integer)
    # Decklists (app/services/decklists.py): whether the event collects them, under which card format and restriction
    # list (None: the list in force on the event's date, app/core/decklists.py), and who sees them.
    decklists = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    card_format = db.Column(db.String(10), nullable=False, default="standard", server_default="standard")
    restriction = db.Column(db.String(64))
    decklist_visibility = db.Column(db.String(8), nullable=False, default="closed", server_default="closed")
    # What signs the match slips' table codes (app/services/results/slip_codes.py): the event's own, carried by its
    # backups, so a move or a restore keeps every printed slip working.
    slip_key = db.Column(db.String(64), nullable=False, default=new_slip_key)
    # The event's id on AlwaysBeRunning, if the TO gave it: the file sent there carries it and ABR concludes the
    # event itself (app/services/abr/).
    abr_id = db.Column(db.Integer)
    # The TO locked the lists before round 1 (pairing round 1 locks them anyway): app/services/decklists.py.
    lists_locked = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    # Played online on jinteki.net: players give their jinteki.net username (app/services/online/).
    online = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    # Ratings from the event's series choose among equal-cost pairings (app/services/ratings.py).
    seed_by_rating = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    # The event's local time zone (an IANA name): times are stored in UTC and shown in it (the schedule).
    time_zone = db.Column(db.String(64), nullable=False, default="UTC", server_default="UTC")
    # The event's live stream, shown on its public home (app/services/streaming.py checks it is an http(s) URL).
    stream_url = db.Column(db.String(300), nullable=False, default="", server_default="")
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        CheckConstraint("format IN ('single', 'double', 'plain')", name="format"),
        CheckConstraint("cut_kind IS NULL OR cut_kind IN ('single', 'double')", name="cut_kind"),
        CheckConstraint("round_minutes BETWEEN 1 AND 600", name="round_minutes"),
        CheckConstraint("registration_cap IS NULL OR registration_cap > 0", name="registration_cap_positive"),
    )

    owner = db.relationship("User", back_populates="tournaments")
    players = db.relationship("Player", back_populates="tournament", cascade="all, delete-orphan",
                              passive_deletes=True, order_by="Player.id")
    rounds = db.relationship("Round", back_populates="tournament", cascade="all, delete-orphan",
                             passive_deletes=True, order_by="Round.number")
    cut_entries = db.relationship("CutEntry", cascade="all, delete-orphan", passive_deletes=True,
                                  order_by="CutEntry.seed")
    cut_results = db.relationship("CutResult", cascade="all, delete-orphan", passive_deletes=True,
                                  order_by="CutResult.game")
    staff = db.relationship("Staff", back_populates="tournament", cascade="all, delete-orphan",
                            passive_deletes=True, order_by="Staff.id")

    @property
    def fmt(self) -> Format:
        return Format(self.format)

    @property
    def score_factor_value(self) -> Fraction:
        return Fraction(self.score_factor)

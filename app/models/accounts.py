"""The organizers' accounts, the staff roles they hold per event, and the NetrunnerDB accounts players sign in
with."""
from __future__ import annotations

import sqlalchemy as sa
from flask_login import UserMixin
from sqlalchemy import CheckConstraint, UniqueConstraint
from werkzeug.security import check_password_hash, generate_password_hash

from ..extensions import db
from .base import new_session_token, utcnow


class User(UserMixin, db.Model):
    __tablename__ = "users"
    id = db.Column(db.Integer, primary_key=True)
    email = db.Column(db.String(254), nullable=False, unique=True)
    password_hash = db.Column(db.String(255), nullable=False)
    is_admin = db.Column(db.Boolean, nullable=False, default=False)
    # Public: the NRTM export names the organizer by these (never by the e-mail address).
    display_name = db.Column(db.String(80), nullable=False, default="", server_default="")
    nrdb_username = db.Column(db.String(40), nullable=False, default="", server_default="")  # NetrunnerDB
    # What session and remember cookies carry instead of the id (Flask-Login's "alternative id"): a new
    # token ends every session of the account at once (log-out, password change).
    session_token = db.Column(db.String(64), nullable=False, unique=True, default=new_session_token)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    tournaments = db.relationship("Tournament", back_populates="owner", cascade="all, delete-orphan")

    def get_id(self) -> str:
        if self.session_token is None:  # a new account, before its first flush
            self.session_token = new_session_token()
        return self.session_token

    def end_sessions(self) -> None:
        """Every cookie that names this account (on any device) stops working; the caller commits."""
        self.session_token = new_session_token()

    def set_password(self, password: str) -> None:
        self.password_hash = generate_password_hash(password)
        self.end_sessions()

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)


class Staff(db.Model):
    """Another organizer's account working on one event, as "organizer" or "scorekeeper" (app/web/access.py)."""

    __tablename__ = "staff"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    user_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    role = db.Column(db.String(12), nullable=False)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        UniqueConstraint("tournament_id", "user_id"),
        CheckConstraint("role IN ('organizer', 'scorekeeper')", name="role"),
    )

    tournament = db.relationship("Tournament", back_populates="staff")
    user = db.relationship("User")


class PendingStaff(db.Model):
    """A staff member of a moved event whose account does not exist here yet (app/services/organizers/staff.py): they
    get their role when an account with this e-mail is made; until then the TO sees them as missing."""

    __tablename__ = "pending_staff"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    email = db.Column(db.String(254), nullable=False, index=True)
    role = db.Column(db.String(12), nullable=False)

    __table_args__ = (
        UniqueConstraint("tournament_id", "email"),
        CheckConstraint("role IN ('organizer', 'scorekeeper')", name="role"),
    )


class NrdbAccount(db.Model):
    """A NetrunnerDB account that signed in here (app/services/nrdb/accounts.py): NetrunnerDB's user id and the
    username it last reported. Players link their entries to it; its history is public only if it says so. No
    token is stored: a sign-in's access token lives in the signed-in browser's session alone."""

    __tablename__ = "nrdb_accounts"
    id = db.Column(db.Integer, primary_key=True)
    nrdb_id = db.Column(db.Integer, nullable=False, unique=True)
    username = db.Column(db.String(100), nullable=False)
    history_public = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (CheckConstraint("nrdb_id > 0", name="nrdb_id_positive"),)

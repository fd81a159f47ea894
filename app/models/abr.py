"""An event's results queued for AlwaysBeRunning."""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import CheckConstraint, UniqueConstraint

from ..extensions import db
from .base import utcnow


class AbrUpload(db.Model):
    """One version of an event's results for AlwaysBeRunning (app/services/abr/): the exact file, queued, sent by
    a background thread of whichever worker claims it (a conditional UPDATE), retried while ABR is unreachable.
    One row per file (its SHA-256): the same results are never sent twice."""

    __tablename__ = "abr_uploads"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    digest = db.Column(db.String(64), nullable=False)  # SHA-256 of `body`
    body = db.Column(db.Text, nullable=False)  # the NRTM file as sent
    version = db.Column(db.Integer, nullable=False)  # the tournament's version when it was queued
    abr_id = db.Column(db.Integer)  # the abrTournamentId the file carries
    # queued (waiting for its next try), sending (claimed until `claimed_until`), sent, failed (ABR refused it),
    # superseded (a newer version was queued before this one went out)
    state = db.Column(db.String(10), nullable=False, default="queued")
    attempts = db.Column(db.Integer, nullable=False, default=0)
    next_try_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    claimed_until = db.Column(db.DateTime(timezone=True))
    last_error = db.Column(db.Text, nullable=False, default="")  # in words, for the TO
    code = db.Column(db.String(16), nullable=False, default="")  # ABR's conclusion code
    abr_url = db.Column(db.String(300), nullable=False, default="")  # the event's page, when ABR concluded it
    note = db.Column(db.Text, nullable=False, default="")  # ABR's remark beside a code (e.g. event id not found)
    replaces_id = db.Column(db.Integer, db.ForeignKey("abr_uploads.id", ondelete="SET NULL"))
    queued_by_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="SET NULL"))
    queued_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    sent_at = db.Column(db.DateTime(timezone=True))

    __table_args__ = (
        UniqueConstraint("tournament_id", "digest", name="uq_abr_uploads_file"),
        CheckConstraint("state IN ('queued', 'sending', 'sent', 'failed', 'superseded')", name="abr_upload_state"),
        sa.Index("ix_abr_uploads_due", "state", "next_try_at"),
    )

    replaces = db.relationship("AbrUpload", remote_side=[id])

"""Push to players' phones (app/services/push/): the subscriptions their pages made, the events waiting to be
turned into messages, and the messages waiting to leave (an outbox: a publish commits one row and returns; a
worker's sender thread does the rest)."""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import CheckConstraint, ForeignKeyConstraint, UniqueConstraint

from ..extensions import db
from .base import utcnow

ENDPOINT_LENGTH = 1000  # push services' endpoints run to a few hundred characters (FCM's ~190, WNS's ~300)
KEY_LENGTH = 120  # keys.p256dh: 65 bytes, keys.auth: 16 bytes, base64url (88 and 22 characters)


class PushSubscription(db.Model):
    """A browser's PushSubscription for one player of one event (a player may have several: phone and tablet)."""

    __tablename__ = "push_subscriptions"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, nullable=False)
    player_id = db.Column(db.Integer, nullable=False)
    endpoint = db.Column(db.String(ENDPOINT_LENGTH), nullable=False)
    p256dh = db.Column(db.String(KEY_LENGTH), nullable=False)
    auth = db.Column(db.String(KEY_LENGTH), nullable=False)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        UniqueConstraint("player_id", "endpoint", name="uq_push_subscriptions_player_endpoint"),
        sa.Index("ix_push_subscriptions_tournament_id", "tournament_id"),
    )


class PushEvent(db.Model):
    """Something players should hear about (a round published, time called...), queued in the transaction that
    made it happen; the sender turns it into one message per subscription. `player_id` names the one player it
    is for (a report to confirm, a judge on the way, a freed place), else it is for the round's players."""

    __tablename__ = "push_events"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False,
                              index=True)
    kind = db.Column(db.String(16), nullable=False)
    round = db.Column(db.Integer)
    player_id = db.Column(db.Integer)
    ref = db.Column(db.Integer)  # what else the kind needs: a judge call's id
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class PushMessage(db.Model):
    """One message for one subscription, until its push service took it (or it expired, or the subscription is
    gone). `claim` and `claimed_until` are a worker's lease, taken by one conditional UPDATE."""

    __tablename__ = "push_messages"
    id = db.Column(db.Integer, primary_key=True)
    subscription_id = db.Column(db.Integer, db.ForeignKey("push_subscriptions.id", ondelete="CASCADE"),
                                nullable=False, index=True)
    payload = db.Column(db.Text, nullable=False)  # JSON: title, body, url, tag
    topic = db.Column(db.String(32), nullable=False)
    expires_at = db.Column(db.DateTime(timezone=True), nullable=False)
    due_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, index=True)
    attempts = db.Column(db.Integer, nullable=False, default=0)
    claim = db.Column(db.String(32))
    claimed_until = db.Column(db.DateTime(timezone=True))

    __table_args__ = (CheckConstraint("attempts >= 0", name="push_attempts"),)

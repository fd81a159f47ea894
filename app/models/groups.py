"""Event groups: one weekend's main and side events under one public page (/g/<slug>), each event keeping its own
format, players and staff. The organizer who made the group owns it; an event sits in one group at most."""
from __future__ import annotations

import secrets

from ..extensions import db
from .base import utcnow


def new_group_slug() -> str:
    return "g" + secrets.token_hex(4)


class EventGroup(db.Model):
    __tablename__ = "event_groups"
    id = db.Column(db.Integer, primary_key=True)
    owner_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    name = db.Column(db.String(120), nullable=False)
    # The public address /g/<slug>: the organizer may choose it (app/services/groups.py says which are allowed).
    slug = db.Column(db.String(40), nullable=False, unique=True, default=new_group_slug)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    members = db.relationship("EventGroupMember", back_populates="group", cascade="all, delete-orphan",
                              passive_deletes=True,
                              order_by="(EventGroupMember.position, EventGroupMember.id)")


class EventGroupMember(db.Model):
    """One event of a group, at its place in the group's list."""
    __tablename__ = "event_group_members"
    id = db.Column(db.Integer, primary_key=True)
    group_id = db.Column(db.Integer, db.ForeignKey("event_groups.id", ondelete="CASCADE"), nullable=False,
                         index=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False,
                              unique=True)  # one group per event, whatever races
    position = db.Column(db.Integer, nullable=False, default=0)

    group = db.relationship("EventGroup", back_populates="members")
    tournament = db.relationship("Tournament")

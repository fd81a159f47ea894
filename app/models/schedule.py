"""The event's schedule (app/services/schedule/, the rule in app/core/schedule.py): its days and, in order, the
rounds, cut and breaks the TO planned. Times are stored in UTC and shown in the event's time zone
(Tournament.time_zone). Both tables are parts of their event."""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import CheckConstraint, UniqueConstraint

from ..extensions import db
from .versions import tournament_part


@tournament_part
class ScheduleDay(db.Model):
    __tablename__ = "schedule_days"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    number = db.Column(db.Integer, nullable=False)
    starts_at = db.Column(db.DateTime(timezone=True), nullable=False)
    turnaround = db.Column(db.Integer, nullable=False, default=10, server_default="10")  # minutes between rounds

    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        CheckConstraint("number BETWEEN 1 AND 7", name="day_number"),
        CheckConstraint("turnaround BETWEEN 0 AND 120", name="turnaround"),
    )


@tournament_part
class ScheduleItem(db.Model):
    __tablename__ = "schedule_items"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    position = db.Column(db.Integer, nullable=False)  # the order of the plan, from 1
    day = db.Column(db.Integer, nullable=False)
    kind = db.Column(db.String(8), nullable=False)  # app/core/schedule.py Kind
    minutes = db.Column(db.Integer, nullable=False)
    label = db.Column(db.String(60), nullable=False, default="", server_default="")
    fixed_end = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())

    __table_args__ = (
        UniqueConstraint("tournament_id", "position"),
        CheckConstraint("kind IN ('round', 'cut', 'break')", name="kind"),
        CheckConstraint("minutes BETWEEN 1 AND 600", name="minutes"),
        CheckConstraint("day BETWEEN 1 AND 7", name="item_day"),
        CheckConstraint("position > 0", name="position_positive"),
        CheckConstraint("fixed_end = false OR kind = 'break'", name="fixed_end_break"),
    )

"""A series (league, season or circuit) and what it holds: its staff, its events, the TO's decisions about its
players (confirmed and rejected matches of names, invitations held elsewhere or declined).

Who a series player is, is worked out on every read (app/core/series/people.py): an entry's NetrunnerDB account,
else the matches the TO confirmed, else the entry alone. Only decisions are stored, so an entry added to an event
later needs no bookkeeping. The points rules are the series' columns, read by app/core/series/points.py.
"""
from __future__ import annotations

import enum

import sqlalchemy as sa
from sqlalchemy import CheckConstraint, UniqueConstraint

from ..extensions import db
from .base import utcnow


class SeriesKind(str, enum.Enum):
    LEAGUE = "league"
    SEASON = "season"
    CIRCUIT = "circuit"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Series(db.Model):
    __tablename__ = "series"
    id = db.Column(db.Integer, primary_key=True)
    owner_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    name = db.Column(db.String(120), nullable=False)
    slug = db.Column(db.String(16), nullable=False, unique=True)  # the public address (app.models.new_slug)
    kind = db.Column(db.String(8), nullable=False, default=SeriesKind.LEAGUE.value)
    # The points rules (app/core/series/points.py), as the TO wrote them and the core reads them.
    points_table = db.Column(db.String(500), nullable=False, default="1: 10, 2: 8, 3-4: 6, 5-8: 4")
    participation = db.Column(db.String(16), nullable=False, default="0", server_default="0")  # a Fraction
    best_n = db.Column(db.Integer)  # NULL: every result counts
    field_reference = db.Column(db.Integer)  # NULL: no scaling by field size
    tiers = db.Column(db.String(500), nullable=False, default="", server_default="")  # "Store: 1, Regional: 2"
    tie_breaks = db.Column(db.String(100), nullable=False, default="countback", server_default="countback")
    invite_top = db.Column(db.Integer, nullable=False, default=0, server_default="0")
    invite_winners = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    # Entries of identical names (app/core/names.py) are one series player without the TO's confirmation, where that
    # is unambiguous (docs/domain.md 14.4); off: the TO links them ("Link all identical names") or one by one.
    link_identical = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    # Bumped by every change to the series itself (rules, events, decisions): with its events' versions it names a
    # computed standings table (app/services/series/standings.py).
    version = db.Column(db.Integer, nullable=False, default=0, server_default="0")
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        CheckConstraint("kind IN ('league', 'season', 'circuit')", name="kind"),
        CheckConstraint("best_n IS NULL OR best_n > 0", name="best_n_positive"),
        CheckConstraint("field_reference IS NULL OR field_reference > 0", name="field_reference_positive"),
        CheckConstraint("invite_top >= 0", name="invite_top"),
    )

    owner = db.relationship("User")

    @property
    def kind_enum(self) -> SeriesKind:
        return SeriesKind(self.kind)


class SeriesStaff(db.Model):
    """Another organizer's account managing a series (everything but deleting it and managing its staff)."""

    __tablename__ = "series_staff"
    id = db.Column(db.Integer, primary_key=True)
    series_id = db.Column(db.Integer, db.ForeignKey("series.id", ondelete="CASCADE"), nullable=False)
    user_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    role = db.Column(db.String(12), nullable=False, default="organizer")

    __table_args__ = (
        UniqueConstraint("series_id", "user_id"),
        CheckConstraint("role IN ('organizer')", name="role"),
    )

    user = db.relationship("User")


class SeriesEvent(db.Model):
    """An event counted in a series, with its tier (a name from Series.tiers; "" is multiplier 1). An event may
    count in several series (a store's league and a region's circuit)."""

    __tablename__ = "series_events"
    id = db.Column(db.Integer, primary_key=True)
    series_id = db.Column(db.Integer, db.ForeignKey("series.id", ondelete="CASCADE"), nullable=False)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False,
                              index=True)
    tier = db.Column(db.String(40), nullable=False, default="", server_default="")
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (UniqueConstraint("series_id", "tournament_id"),)

    tournament = db.relationship("Tournament")


class SeriesLink(db.Model):
    """The TO confirmed that an entry (not linked to NetrunnerDB) is the same person as another entry or an
    account of the series; deleting the row undoes it."""

    __tablename__ = "series_links"
    id = db.Column(db.Integer, primary_key=True)
    series_id = db.Column(db.Integer, db.ForeignKey("series.id", ondelete="CASCADE"), nullable=False)
    player_id = db.Column(db.Integer, db.ForeignKey("players.id", ondelete="CASCADE"), nullable=False, index=True)
    target_player_id = db.Column(db.Integer, db.ForeignKey("players.id", ondelete="CASCADE"), index=True)
    target_account_id = db.Column(db.Integer, db.ForeignKey("nrdb_accounts.id", ondelete="CASCADE"), index=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        UniqueConstraint("series_id", "player_id"),
        CheckConstraint("(target_player_id IS NULL) <> (target_account_id IS NULL)", name="one_target"),
        CheckConstraint("target_player_id IS NULL OR target_player_id <> player_id", name="not_itself"),
    )


class SeriesRejection(db.Model):
    """A suggested match the TO rejected: the entry and the series player (a key, app/core/series/people.py) are
    different people; never suggested again."""

    __tablename__ = "series_rejections"
    id = db.Column(db.Integer, primary_key=True)
    series_id = db.Column(db.Integer, db.ForeignKey("series.id", ondelete="CASCADE"), nullable=False)
    player_id = db.Column(db.Integer, db.ForeignKey("players.id", ondelete="CASCADE"), nullable=False)
    target = db.Column(db.String(24), nullable=False)

    __table_args__ = (UniqueConstraint("series_id", "player_id", "target"),)


class SeriesPlayer(db.Model):
    """What the TO records about one series player (by any of its keys, app/core/series/people.py): they hold an
    invitation from elsewhere, or declined this series' invitation (with a private note); the public name the TO
    chose for them ("": the rule's, docs/domain.md 14.4)."""

    __tablename__ = "series_players"
    id = db.Column(db.Integer, primary_key=True)
    series_id = db.Column(db.Integer, db.ForeignKey("series.id", ondelete="CASCADE"), nullable=False)
    key = db.Column(db.String(24), nullable=False)
    holds_invitation = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    declined = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    note = db.Column(db.String(200), nullable=False, default="", server_default="")
    name = db.Column(db.String(80), nullable=False, default="", server_default="")

    __table_args__ = (UniqueConstraint("series_id", "key"),)

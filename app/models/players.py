"""An event's players and their decklists."""
from __future__ import annotations

import secrets

import sqlalchemy as sa
from sqlalchemy import CheckConstraint, ForeignKeyConstraint, UniqueConstraint
from sqlalchemy.orm import validates

from ..extensions import db
from ..core.identities import canonical
from ..core.names import name_key
from ..core.player_state import DropReason
from .base import utcnow

DROP_REASONS = ", ".join(f"'{r.value}'" for r in DropReason)


class Player(db.Model):
    __tablename__ = "players"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    name = db.Column(db.String(100), nullable=False)
    # name_key (app/core/names.py) is kept by the validator below; its unique constraint refuses "ana" beside "Ána"
    # even when two requests race. Bulk inserts must fill it themselves.
    name_key = db.Column(db.String(200), nullable=False)
    corp_identity = db.Column(db.String(100), nullable=False, default="")
    runner_identity = db.Column(db.String(100), nullable=False, default="")
    pronouns = db.Column(db.String(40), nullable=False, default="", server_default="")
    # The faction an imported NRTM file gave an identity SASS does not know (a NetrunnerDB faction id); NULL for
    # a known identity, whose faction comes from the card data (core/identities.py player_faction). A changed
    # identity forgets it (the validator below).
    corp_faction = db.Column(db.String(24))
    runner_faction = db.Column(db.String(24))
    # The swiss rank an imported NRTM file gave the player: the standings' last resort between players equal on
    # points and every tiebreaker, so the file's order of exact ties stands (core/standings.py compute_standings).
    file_rank = db.Column(db.Integer)
    self_registered = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    # An online event's handles (app/services/online/): where opponents find each other.
    jinteki_name = db.Column(db.String(40), nullable=False, default="", server_default="")
    discord = db.Column(db.String(40), nullable=False, default="", server_default="")
    # The player asked not to be shown on stream: never featured (app/services/streaming.py).
    no_coverage = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())
    dropped = db.Column(db.Boolean, nullable=False, default=False)
    # Who took the player out (app/core/player_state.py DropReason); NULL while in, or for a drop nobody recorded
    # the reason of. A waiting player is dropped with no reason: the waitlist's line says they wait.
    drop_reason = db.Column(db.String(16))
    first_round_bye = db.Column(db.Boolean, nullable=False, default=False)
    fixed_table = db.Column(db.Integer)
    # The secret player link is derived from this key and the app's SECRET_KEY (app/services/players/player_links.py):
    # the database alone never yields a working link, and a new key revokes the old link.
    link_key = db.Column(db.String(32), nullable=False, default=lambda: secrets.token_hex(16))
    # An event moved here from another machine (app/services/event_files/restore.py: move): SHA-256 of the link this
    # player held there, so QR codes printed there keep working; a hash, so the database alone still yields no link.
    moved_link = db.Column(db.String(64), index=True)
    # The NetrunnerDB account this entry is linked to (app/services/nrdb/accounts.py); one entry per account and event.
    nrdb_account_id = db.Column(db.Integer, db.ForeignKey("nrdb_accounts.id", ondelete="SET NULL"), index=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        UniqueConstraint("tournament_id", "name_key"),
        UniqueConstraint("tournament_id", "nrdb_account_id", name="uq_players_nrdb_account"),
        UniqueConstraint("id", "tournament_id"),  # target of composite foreign keys
        CheckConstraint("fixed_table IS NULL OR fixed_table > 0", name="fixed_table_positive"),
        CheckConstraint("file_rank IS NULL OR file_rank > 0", name="file_rank_positive"),
        CheckConstraint(f"drop_reason IS NULL OR drop_reason IN ({DROP_REASONS})", name="drop_reason"),
    )

    tournament = db.relationship("Tournament", back_populates="players")
    nrdb_account = db.relationship("NrdbAccount")

    @validates("name")
    def _keep_name_key(self, _attr, name):
        self.name_key = name_key(name or "")
        return name

    @validates("corp_identity", "runner_identity")
    def _forget_file_faction(self, attr, identity):
        """A file's faction belongs to the identity it came with: another identity (a TO's or player's edit)
        drops it, and the card data, or nothing, says the faction."""
        if canonical(identity) != canonical(getattr(self, attr)):
            setattr(self, attr.replace("identity", "faction"), None)
        return identity


class Decklist(db.Model):
    """A player's list for one side, kept as submitted with what SASS read from it (app/core/decklists.py): the
    identity and cards it names, whether it is legal and every problem. An invalid list is kept and flagged."""

    __tablename__ = "decklists"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, nullable=False)
    player_id = db.Column(db.Integer, nullable=False)
    side = db.Column(db.String(6), nullable=False)
    text = db.Column(db.Text, nullable=False)
    identity = db.Column(db.String(100))  # a card id; NULL: none read
    cards = db.Column(db.JSON, nullable=False, default=list)  # [[card id, count], ...] in deck-check order
    valid = db.Column(db.Boolean, nullable=False, default=False)
    problems = db.Column(db.JSON, nullable=False, default=list)  # [{"kind": ..., "message": ...}, ...]
    # The player's registered identity for this side before this list changed it (the TO sees the change).
    identity_was = db.Column(db.String(100))
    updated_by = db.Column(db.String(10), nullable=False)  # "player", "organizer", "staff"
    updated_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    # Lists lock when round 1 is paired; the TO's unlock lets the player change this one once more.
    unlocked = db.Column(db.Boolean, nullable=False, default=False, server_default=sa.false())

    __table_args__ = (
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        UniqueConstraint("tournament_id", "player_id", "side"),
        CheckConstraint("side IN ('corp', 'runner')", name="side"),
        CheckConstraint("updated_by IN ('player', 'organizer', 'staff')", name="updated_by"),
    )

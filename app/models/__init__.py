"""Database models. The schema changes only through migrations in migrations/.

The event's own tables live here; a capability with tables of its own keeps them in a module of this package
(app/models/<capability>.py), imported at the bottom so the metadata knows every table.

Composite foreign keys let the database itself refuse a seat, match or cut entry that points at
another tournament's player or round.
"""
from __future__ import annotations

import secrets
from datetime import date, datetime, timezone
from fractions import Fraction
from typing import Optional

from flask_login import UserMixin
import sqlalchemy as sa
from sqlalchemy import CheckConstraint, ForeignKeyConstraint, UniqueConstraint, event
from sqlalchemy.orm import Session, validates
from werkzeug.security import check_password_hash, generate_password_hash

from ..extensions import db
from ..core.identities import canonical
from ..core.names import name_key
from ..core.pairing import DEFAULT_FORMAT, DEFAULT_SCORE_FACTOR, Format
from ..core.player_state import DropReason


MAX_INT = 2**31 - 1  # ids, round numbers and tables are 32-bit INTEGER columns: a larger one cannot exist


DROP_REASONS = ", ".join(f"'{r.value}'" for r in DropReason)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def as_utc(value: Optional[datetime]) -> Optional[datetime]:
    """A stored time as aware UTC, whatever the driver returned (SQLite gives naive datetimes back; only UTC is
    ever stored)."""
    if value is None:
        return None
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def new_slug() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")[:8].lower()


def new_slip_key() -> str:
    """An event's own key for its match slips' table codes (app/services/results/slip_codes.py)."""
    return secrets.token_hex(32)


def new_slip_ref() -> int:
    """What a round's slip codes name it by (Round.slip_ref): random, so it travels with the event and an undone,
    re-paired round never takes an earlier one's."""
    return secrets.randbelow(MAX_INT) + 1


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


PLAYED_CUT_GAME = ("(player1_id IS NULL AND player2_id IS NULL AND round IS NULL)"
                   " OR (player1_id IS NOT NULL AND player2_id IS NOT NULL AND round IS NOT NULL AND round > 0"
                   " AND player1_id <> player2_id)")


class CutEntry(db.Model):
    """A player's seed in the top cut."""

    __tablename__ = "cut_entries"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    player_id = db.Column(db.Integer, nullable=False)
    seed = db.Column(db.Integer, nullable=False)
    # The player's final place as an imported NRTM file ranked the cut where SASS's rule ranks it otherwise (the
    # file's ranking stands: core/brackets.py Elimination.file_ranking); NULL for every other cut. A cut result
    # reported or corrected here forgets it (services/cut.py).
    rank = db.Column(db.Integer)

    __table_args__ = (
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        UniqueConstraint("tournament_id", "seed"),
        UniqueConstraint("tournament_id", "player_id"),
        CheckConstraint("seed > 0", name="seed_positive"),
        CheckConstraint("rank IS NULL OR rank > 0", name="rank_positive"),
    )

    player = db.relationship("Player", primaryjoin="Player.id == foreign(CutEntry.player_id)", viewonly=True)


class CutResult(db.Model):
    """A cut game's recorded side choice and/or winner; the bracket is rebuilt from the seeds and these.

    A cut kept exactly as played (an imported one no layout describes, app.core.played_bracket.PlayedBracket) names each
    game's players and cut round here; then every game has a row, its winner NULL until played."""

    __tablename__ = "cut_results"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    game = db.Column(db.Integer, nullable=False)
    winner_id = db.Column(db.Integer)  # NULL while only the side choice is recorded
    corp_id = db.Column(db.Integer)
    table = db.Column(db.Integer)  # the table an imported file gave the game; NULL: the game number
    round = db.Column(db.Integer)  # played cuts only
    player1_id = db.Column(db.Integer)  # played cuts only
    player2_id = db.Column(db.Integer)

    __table_args__ = (
        ForeignKeyConstraint(["winner_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        ForeignKeyConstraint(["corp_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        ForeignKeyConstraint(["player1_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        ForeignKeyConstraint(["player2_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        UniqueConstraint("tournament_id", "game"),
        CheckConstraint(PLAYED_CUT_GAME, name="played"),
        CheckConstraint('"table" IS NULL OR "table" > 0', name="table_positive"),
    )


class JudgeCall(db.Model):
    """A player's call for a judge at their table (app/services/judge_calls.py): sent, claimed by one staff member,
    resolved, or cancelled by the player; each step stamped. `version` counts the steps, so the staff pages' poll
    sees any change in one sum. Not a TOURNAMENT_PARTS member: a call changes no public page."""

    __tablename__ = "judge_calls"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    player_id = db.Column(db.Integer, nullable=False)
    round_number = db.Column(db.Integer)  # the player's round and table when they called; NULL: not seated
    table = db.Column(db.Integer)
    reason = db.Column(db.String(100), nullable=False, default="", server_default="")
    state = db.Column(db.String(9), nullable=False, default="open")
    version = db.Column(db.Integer, nullable=False, default=1, server_default="1")
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    claimed_by_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="SET NULL"))
    claimed_at = db.Column(db.DateTime(timezone=True))
    resolved_by_id = db.Column(db.Integer, db.ForeignKey("users.id", ondelete="SET NULL"))
    closed_at = db.Column(db.DateTime(timezone=True))  # resolved or cancelled

    __table_args__ = (
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        CheckConstraint("state IN ('open', 'claimed', 'resolved', 'cancelled')", name="state"),
        sa.Index("ix_judge_calls_tournament_id_id", "tournament_id", "id"),
        sa.Index("ix_judge_calls_player_id_id", "player_id", "id"),  # a player's newest call: one probe
        # one call at a time per player, whatever races: the database refuses a second open one
        sa.Index("uq_judge_calls_one_open", "player_id", unique=True,
                 sqlite_where=sa.text("state IN ('open', 'claimed')"),
                 postgresql_where=sa.text("state IN ('open', 'claimed')")),
    )

    player = db.relationship("Player", primaryjoin="Player.id == foreign(JudgeCall.player_id)", viewonly=True)
    claimed_by = db.relationship("User", foreign_keys=[claimed_by_id])
    resolved_by = db.relationship("User", foreign_keys=[resolved_by_id])


TOURNAMENT_PARTS: list[type] = [Player, Round, Match, Seat, CutEntry, CutResult, ResultClaim, ResultChange, Decklist]


def tournament_part(cls: type) -> type:
    """Mark a model with a tournament_id as part of its event: a change to one bumps the event's version."""
    TOURNAMENT_PARTS.append(cls)
    return cls


def touch(session, tournament_ids) -> None:
    """Bump the version of these tournaments: caches keyed by it (standings, polling) then miss.

    ORM changes are caught by the flush hook below; services that write with bulk statements call this.
    """
    ids = sorted({i for i in tournament_ids if i is not None})
    if ids:
        session.execute(sa.update(Tournament).where(Tournament.id.in_(ids))
                        .values(version=Tournament.version + 1).execution_options(synchronize_session=False))


@event.listens_for(Session, "before_flush")
def _bump_versions(session, _context, _instances) -> None:
    changed = set()
    for obj in (*session.new, *session.dirty, *session.deleted):
        if isinstance(obj, tuple(TOURNAMENT_PARTS)):
            changed.add(obj.tournament_id)
        elif isinstance(obj, Tournament) and obj in session.dirty and obj.id is not None:
            obj.version = (obj.version or 0) + 1
    changed -= {obj.id for obj in session.dirty if isinstance(obj, Tournament)}
    touch(session, changed)


from . import series  # noqa: E402,F401
from .series import Series, SeriesEvent, SeriesKind, SeriesLink, SeriesPlayer, SeriesRejection, SeriesStaff  # noqa: E402,F401
from . import schedule  # noqa: E402,F401
from .schedule import ScheduleDay, ScheduleItem  # noqa: E402,F401
tournament_part(ScheduleDay), tournament_part(ScheduleItem)
from . import penalties  # noqa: E402,F401
from .penalties import DeckCheck, DeckCheckDraw, Penalty  # noqa: E402,F401
from . import groups  # noqa: E402,F401
from .groups import EventGroup, EventGroupMember  # noqa: E402,F401
from . import check_in  # noqa: E402,F401
from .check_in import CheckIn, CheckInSettings, WaitlistEntry  # noqa: E402,F401
for _part in (CheckInSettings, CheckIn, WaitlistEntry):
    tournament_part(_part)
from . import push  # noqa: E402,F401
from .push import PushEvent, PushMessage, PushSubscription  # noqa: E402,F401

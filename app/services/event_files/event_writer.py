"""A checked event file (a backup to restore, an NRTM file to import) written as a new tournament.

Readers (backup.py, nrtm_import.py) parse and validate a file into an EventPlan that names players by their id in the
file; `write` then stores the plan with one executemany INSERT per table (and a query reading the new ids back)
in one transaction: a 2,000-player, 6-round event is a few dozen statements, not 20,000.
All or nothing: a database failure leaves nothing.
"""
from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Hashable, Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError

from ...extensions import db
from ..check_in import carried as check_in_carried
from ...models import (CutEntry, CutResult, Decklist, Match, PendingStaff, Player, ResultChange, ResultClaim, Round,
                      Seat, Staff, Tournament, User, new_slip_ref, utcnow)
from ...core.names import name_key
from .jsonfile import FileError
from ..nrdb import accounts as nrdb_accounts
from ..schedule import carry as schedule_carry
from ..penalties import carried as penalties_carried
from .upload_slots import Busy

log = logging.getLogger(__name__)

# A player as a file carries them, each under its Player column's name: the backup writes these, restore reads
# them back (a text within its column's length, a flag, a positive number or null, a kept faction), the writer
# inserts them. One list, so a column carried by one is carried by all three.
PLAYER_TEXT = ("corp_identity", "runner_identity", "pronouns", "jinteki_name", "discord")
PLAYER_FLAGS = ("dropped", "first_round_bye")
PLAYER_NUMBERS = ("fixed_table", "file_rank")
PLAYER_FACTIONS = ("corp_faction", "runner_faction")
PLAYER_KEYS = ("name", *PLAYER_TEXT, *PLAYER_FLAGS, *PLAYER_NUMBERS, *PLAYER_FACTIONS)
PLAYER_NUMBER_MAX = 100_000  # a fixed table or a file's rank: beyond any field


def player_values(player) -> dict:
    """The carried values of a Player or a PlayerRow, by key."""
    return {k: getattr(player, k) for k in PLAYER_KEYS}


@dataclass
class PlayerRow:
    key: Hashable  # the player's id in the file
    name: str
    corp_identity: str = ""
    runner_identity: str = ""
    dropped: bool = False
    first_round_bye: bool = False
    fixed_table: Optional[int] = None
    pronouns: str = ""
    corp_faction: Optional[str] = None  # a file's faction of an identity SASS does not know (Player.corp_faction)
    runner_faction: Optional[str] = None
    moved_link: Optional[str] = None  # a moved event: the hash of the player's link there (Player.moved_link)
    file_rank: Optional[int] = None  # the swiss rank an imported NRTM file gave (Player.file_rank)
    nrdb: Optional[tuple] = None  # (NetrunnerDB id, username) of the account the entry is linked to
    jinteki_name: str = ""  # an online event's handles (app/services/online/)
    discord: str = ""
    no_coverage: bool = False  # opted out of stream coverage (app/services/streaming.py)


@dataclass
class SeatRow:
    player: Hashable  # a PlayerRow.key
    position: int
    side: Optional[str]
    points: Optional[int]
    games_won: int = 0
    penalty: int = 0  # points lost at the table (Seat.penalty)


@dataclass
class ClaimRow:
    """A player's report for their own table (ResultClaim)."""

    player: Hashable
    result: str
    at: datetime


@dataclass
class ChangeRow:
    """One entry of a match's result log (ResultChange). An account's change keeps its kind but not the account:
    accounts belong to a site, and a file never names one."""

    actor: str  # "organizer", "staff", "player" or "slip"
    player: Optional[Hashable]
    old: Optional[str]
    new: str
    at: datetime
    reason: Optional[str] = None  # why a rule changed it (a penalty's game loss)


@dataclass
class MatchRow:
    table: int
    is_bye: bool
    result: Optional[str]
    intentional_draw: bool
    seats: list  # of SeatRow
    drawn_games: int = 0
    two_for_one: bool = False
    claims: list = field(default_factory=list)  # of ClaimRow, in the order they were made
    changes: list = field(default_factory=list)  # of ChangeRow, oldest first


@dataclass
class RoundRow:
    number: int
    published: bool
    matches: list  # of MatchRow
    slip_ref: Optional[int] = None  # what its slips' codes name it by (a backup's; None: a new one)
    certified: Optional[bool] = None  # the engine's proof where it was paired (Round.certified, Round.gap)
    gap: Optional[str] = None
    timer: tuple = (None, None, None)  # its clock: (state, ends_at, remaining_ms) as Round keeps them
    featured_table: Optional[int] = None  # the table on stream (app/services/streaming.py)
    seeded_by_rating: bool = False  # ratings seeded its pairing (Round.seeded_by_rating)


@dataclass
class CutRow:
    """One CutResult row: a bracket game's result or side choice; an imported game's table; the players and
    cut round of a game of a cut kept as played."""

    game: int
    winner: Optional[Hashable] = None  # player keys
    corp: Optional[Hashable] = None
    table: Optional[int] = None
    round: Optional[int] = None
    player1: Optional[Hashable] = None
    player2: Optional[Hashable] = None


@dataclass
class DecklistRow:
    """A player's list for one side as the file keeps it, with what SASS reads from it here (Decklist)."""

    player: Hashable
    side: str
    text: str
    identity: Optional[str]
    cards: list
    valid: bool
    problems: list
    identity_was: Optional[str]
    updated_by: str
    updated_at: datetime
    unlocked: bool


@dataclass
class EventPlan:
    """A fully checked file, ready to be written."""

    tournament: dict  # Tournament column values (name, date, format, ...); never id, owner or slug
    players: list  # of PlayerRow, in the order to create them
    rounds: list = field(default_factory=list)  # of RoundRow
    cut_kind: Optional[str] = None
    seeds: list = field(default_factory=list)  # player keys, seed 1 first
    cut_results: list = field(default_factory=list)  # CutRow, or (game, winner key or None, corp key or None)
    cut_ranking: list = field(default_factory=list)  # player keys in a file's own final order of the cut, if it stands
    warnings: list = field(default_factory=list)  # what a reader kept although the file contradicts itself
    slug: Optional[str] = None  # the event's address where it came from (a backup's); kept only by a move
    staff: list = field(default_factory=list)  # (e-mail, role) where it came from (a backup's)
    keep_address: bool = False  # a move: the slug is kept, and `staff_ids` are the staff's accounts here
    staff_ids: list = field(default_factory=list)  # (user id, role)
    pending_staff: list = field(default_factory=list)  # a move: (e-mail, role) with no account here yet
    decklists: list = field(default_factory=list)  # of DecklistRow
    schedule: object = None  # a backup's schedule (app/services/schedule/carry.py Carried), if it had one
    penalties: Optional[object] = None  # penalties.carried.Carried: the penalty log and deck checks
    check_in: Optional[object] = None  # a backup's check-in: app/services/check_in/carried.py (Plan)


class NameClash:
    """Refuses a second player whose name differs from an earlier one only by case, accents or spacing: the
    database would refuse it too (Player.name_key is unique per event)."""

    def __init__(self):
        self.seen: dict[str, str] = {}

    def check(self, name: str) -> None:
        key = name_key(name)
        if key in self.seen:
            first = self.seen[key]
            raise FileError(f"two players are called {name!r}" if first == name
                            else f"two players are called {first!r} and {name!r}, the same name to SASS")
        self.seen[key] = name


def write(plan: EventPlan, owner: User, what: str) -> Tournament:
    """The plan as a new tournament of `owner`. Busy when the database stays locked (SQLite's busy timeout ran
    out); FileError when it refuses the data. Either way nothing is stored and the cause is logged."""
    owner_id = owner.id  # read now: after a rollback it would need the database again
    try:
        t = _insert(plan, owner)
        db.session.commit()
    except SQLAlchemyError as e:
        db.session.rollback()
        if isinstance(e, OperationalError):
            log.warning("%s by user %s not stored, database busy or unavailable: %s", what, owner_id, e.orig)
            raise Busy() from None
        log.exception("%s by user %s not stored: the database refused it", what, owner_id)
        if isinstance(e, IntegrityError):
            raise FileError(f"the {what} contradicts itself in a way the checks missed, so it could not be "
                            "stored") from None
        raise FileError(f"the {what} could not be stored") from None
    return t


def _insert(plan: EventPlan, owner: User) -> Tournament:
    t = Tournament(owner=owner, **plan.tournament)
    if plan.keep_address:
        t.slug = plan.slug
    if plan.cut_kind:
        t.cut_kind = plan.cut_kind
    db.session.add(t)
    db.session.flush()
    tid, now = t.id, utcnow()
    nrdb_account = nrdb_accounts.ensure(p.nrdb for p in plan.players if p.nrdb)

    keys = [name_key(p.name) for p in plan.players]  # once each: 10,000 players' names folded twice was 0.3 s
    _insert_all(Player, [
        {"tournament_id": tid, **player_values(p), "name_key": key, "link_key": secrets.token_hex(16),
         "moved_link": p.moved_link if plan.keep_address else None, "created_at": now, "no_coverage": p.no_coverage,
         "nrdb_account_id": nrdb_account[p.nrdb[0]] if p.nrdb else None}
        for p, key in zip(plan.players, keys, strict=True)])
    by_key = _ids(Player.name_key, tid)
    player_id = {p.key: by_key[key] for p, key in zip(plan.players, keys, strict=True)}

    _insert_all(Round, [{"tournament_id": tid, "number": r.number, "published": r.published, "created_at": now,
                         "slip_ref": r.slip_ref or new_slip_ref(), "certified": r.certified, "gap": r.gap,
                         "timer_state": r.timer[0], "timer_ends_at": r.timer[1], "timer_remaining_ms": r.timer[2],
                         "featured_table": r.featured_table, "seeded_by_rating": r.seeded_by_rating}
                        for r in plan.rounds])
    round_id = _ids(Round.number, tid)
    _insert_all(Match, [
        {"tournament_id": tid, "round_id": round_id[r.number], "table": m.table, "is_bye": m.is_bye,
         "result": m.result, "intentional_draw": m.intentional_draw, "drawn_games": m.drawn_games,
         "two_for_one": m.two_for_one}
        for r in plan.rounds for m in r.matches])
    match_id = {(rid, table): mid for mid, rid, table in db.session.execute(
        sa.select(Match.id, Match.round_id, Match.table).where(Match.tournament_id == tid))}
    _insert_all(Seat, [
        {"tournament_id": tid, "round_id": round_id[r.number], "match_id": match_id[round_id[r.number], m.table],
         "player_id": player_id[s.player], "position": s.position, "side": s.side, "points": s.points,
         "games_won": s.games_won, "penalty": s.penalty}
        for r in plan.rounds for m in r.matches for s in m.seats])
    _insert_all(ResultClaim, [
        {"tournament_id": tid, "match_id": match_id[round_id[r.number], m.table], "player_id": player_id[c.player],
         "result": c.result, "created_at": c.at}
        for r in plan.rounds for m in r.matches for c in m.claims])
    _insert_all(ResultChange, [
        {"tournament_id": tid, "match_id": match_id[round_id[r.number], m.table], "actor": c.actor, "user_id": None,
         "player_id": player_id.get(c.player), "old_result": c.old, "new_result": c.new, "reason": c.reason,
         "created_at": c.at}
        for r in plan.rounds for m in r.matches for c in m.changes])

    _insert_all(Staff, [{"tournament_id": tid, "user_id": uid, "role": role, "created_at": now}
                        for uid, role in plan.staff_ids])
    _insert_all(PendingStaff, [{"tournament_id": tid, "email": email, "role": role}
                               for email, role in plan.pending_staff])
    rank = {p: i for i, p in enumerate(plan.cut_ranking, 1)}
    _insert_all(CutEntry, [{"tournament_id": tid, "player_id": player_id[p], "seed": i, "rank": rank.get(p)}
                           for i, p in enumerate(plan.seeds, 1)])
    _insert_all(Decklist, [
        {"tournament_id": tid, "player_id": player_id[d.player], "side": d.side, "text": d.text,
         "identity": d.identity, "cards": d.cards, "valid": d.valid, "problems": d.problems,
         "identity_was": d.identity_was, "updated_by": d.updated_by, "updated_at": d.updated_at,
         "unlocked": d.unlocked}
        for d in plan.decklists])
    penalties_carried.insert(plan.penalties, tid, player_id)
    if plan.check_in is not None:
        check_in_carried.write(tid, plan.check_in, player_id)
    cut_rows = [r if isinstance(r, CutRow) else CutRow(*r) for r in plan.cut_results]
    _insert_all(CutResult, [{"tournament_id": tid, "game": r.game, "winner_id": player_id.get(r.winner),
                             "corp_id": player_id.get(r.corp), "table": r.table, "round": r.round,
                             "player1_id": player_id.get(r.player1), "player2_id": player_id.get(r.player2)}
                            for r in cut_rows])
    schedule_carry.write(tid, plan.schedule)
    return t


def _ids(column, tid: int) -> dict:
    """The new rows' ids by a column that is unique within the tournament (players' name keys, round numbers):
    plain executemany INSERTs are the fast path on both databases, and this reads the ids back in one query."""
    table = column.class_
    return dict(db.session.execute(sa.select(column, table.id).where(table.tournament_id == tid)).all())


def _insert_all(model, rows: list[dict]) -> None:
    if rows:
        db.session.execute(sa.insert(model.__table__), rows)

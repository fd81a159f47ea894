"""The roll call: players check in from their phone (their link) or the staff tick them off; at the TO's word, or
when the round is paired past the deadline (core/check_in.py RollCall.drops_at_pairing), those not checked in are
dropped, and the places they free go to the waitlist.

Under the event's lock, a check-in and the no-show drop are one after the other: a player is either checked in or
dropped as a no-show, never both, and the check-in's INSERT is refused for a player dropped meanwhile.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...core import check_in as rules
from ...core.names import name_key
from ...extensions import db
from ...models import CheckIn, Player, Round, Tournament, as_utc, touch, utcnow
from ..event_files import backup
from ..locks import lock_tournament
from . import settings, waitlist
from ..players import drops
from ...core.player_state import DropReason

Refusal = rules.Refusal


def latest_round(t: Tournament) -> int:
    return db.session.scalar(sa.select(sa.func.max(Round.number)).where(Round.tournament_id == t.id)) or 0


def checked_in(t: Tournament, player: Player, number: int) -> Optional[CheckIn]:
    return db.session.scalar(sa.select(CheckIn).where(CheckIn.player_id == player.id, CheckIn.round == number))


def check_in(t: Tournament, player: Player, *, by_staff: bool, now: Optional[datetime] = None) -> bool:
    """Check `player` in at the running roll call; False if they were already. Refusal (nothing written) when the
    roll call is not running, the player waits or has dropped, or a phone comes after the deadline."""
    t = lock_tournament(t)
    db.session.refresh(player)
    call = settings.roll_call(t)
    entry = waitlist.entry_of(player)
    try:
        rules.check_check_in(call, latest_round(t), now or utcnow(), by_staff=by_staff,
                             waitlisted=entry is not None and entry.promoted_at is None, dropped=player.dropped,
                             promoted_at=as_utc(entry.promoted_at) if entry is not None else None)
    except Refusal:
        db.session.rollback()
        raise
    if checked_in(t, player, call.round) is not None:
        db.session.rollback()
        return False
    db.session.add(CheckIn(tournament_id=t.id, player_id=player.id, round=call.round, by_staff=by_staff,
                           at=now or utcnow()))
    try:
        db.session.commit()
    except IntegrityError:  # the unique (player, round) row: checked in meanwhile (the lock makes this rare)
        db.session.rollback()
        return False
    return True


def undo(t: Tournament, player: Player) -> bool:
    """Take back a check-in of the running roll call (a wrong tap); False if there was none to take back."""
    t = lock_tournament(t)
    call = settings.roll_call(t)
    if not call.running(latest_round(t)):
        db.session.rollback()
        raise Refusal("Check-in is over: nothing to undo.")
    done = db.session.execute(sa.delete(CheckIn).where(CheckIn.player_id == player.id, CheckIn.tournament_id == t.id,
                                                       CheckIn.round == call.round),
                              execution_options={"synchronize_session": False})
    if done.rowcount:
        touch(db.session, [t.id])
    db.session.commit()
    return bool(done.rowcount)


@dataclass
class Dropped:
    no_shows: list = field(default_factory=list)  # names dropped
    let_in: list = field(default_factory=list)  # names promoted from the waitlist into the places freed


def _drop_no_shows(t: Tournament, number: int) -> Dropped:
    """Drop the active players not checked in for the roll call before round `number`, then fill the places from
    the waitlist; the caller holds the lock and commits."""
    active = db.session.execute(sa.select(Player.id, Player.name).where(Player.tournament_id == t.id,
                                                                        Player.dropped.is_(False))
                                .order_by(Player.name_key)).all()
    seen = db.session.scalars(sa.select(CheckIn.player_id).where(CheckIn.tournament_id == t.id,
                                                                 CheckIn.round == number)).all()
    missing = rules.no_shows([pid for pid, _ in active], seen)
    names = dict(active)
    out = Dropped()
    if missing:
        # conditional: a player checked in meanwhile (impossible under the lock) would be kept in
        drops.mark_dropped(t, missing, DropReason.NO_SHOW,
                           ~sa.exists().where(CheckIn.player_id == Player.id, CheckIn.round == number))
        out.no_shows = [names[pid] for pid in missing]
    out.let_in = waitlist.fill(t)
    return out


def drop_no_shows(t: Tournament) -> Dropped:
    """The TO's button: drop those not checked in now, deadline or not."""
    t = lock_tournament(t)
    call = settings.roll_call(t)
    if not call.running(latest_round(t)):
        db.session.rollback()
        raise Refusal("No roll call is running.")
    out = _drop_no_shows(t, call.round)
    db.session.commit()
    db.session.expire_all()
    if out.no_shows or out.let_in:
        backup.follow(t)
    return out


def at_pairing(t: Tournament, number: int, now: Optional[datetime] = None) -> Dropped:
    """Called by the pairing under its lock, before it reads the players: past the deadline of this round's roll
    call, with no-shows to drop, they are dropped now (and the waitlist fills their places). Not committed."""
    call = settings.roll_call(t)
    if not call.drops_at_pairing(number, now or utcnow()):
        return Dropped()
    return _drop_no_shows(t, number)


def start_next(t: Tournament) -> int:
    """A roll call before the next round (a second day); its number."""
    t = lock_tournament(t)
    number = latest_round(t) + 1
    settings.next_roll_call(t, number)
    db.session.commit()
    return number


# ---------------------------------------------------------------- the roll call page

@dataclass(frozen=True)
class Row:
    id: int
    name: str
    key: str  # app/core/names.py name_key, for the search box
    checked_in: bool
    by_staff: bool


@dataclass
class Sheet:
    """What the roll call page shows: the call, the active players, the waitlist, the counts."""

    call: rules.RollCall
    running: bool
    closed: bool  # past the deadline
    latest: int
    rows: list  # of Row, active players by name
    waiting: list  # of (id, name), next first
    dropped: int
    keeps_waitlist: bool
    cap: Optional[int]

    @property
    def checked(self) -> int:
        return sum(r.checked_in for r in self.rows)

    @property
    def not_yet(self) -> int:
        return len(self.rows) - self.checked


def sheet(t: Tournament, now: Optional[datetime] = None) -> Sheet:
    call = settings.roll_call(t)
    latest = latest_round(t)
    seen = dict(db.session.execute(sa.select(CheckIn.player_id, CheckIn.by_staff).where(
        CheckIn.tournament_id == t.id, CheckIn.round == call.round)).all())
    players = db.session.execute(sa.select(Player.id, Player.name, Player.dropped)
                                 .where(Player.tournament_id == t.id).order_by(Player.name_key, Player.id)).all()
    line = waitlist.waiting(t)
    waiting_ids = {pid for pid, _ in line}
    rows = [Row(pid, name, name_key(name), pid in seen, bool(seen.get(pid))) for pid, name, dropped in players
            if not dropped]
    dropped = sum(1 for pid, _, d in players if d and pid not in waiting_ids)
    return Sheet(call, call.running(latest), call.closed(now or utcnow()), latest, rows, line, dropped,
                 settings.keeps_waitlist(t), t.registration_cap)


@dataclass(frozen=True)
class Counts:
    running: bool
    round: int
    checked: int
    not_yet: int
    waiting: int


def counts(t: Tournament) -> Counts:
    """The dashboard's line: the roll call's counts in two aggregate queries (no rows)."""
    call = settings.roll_call(t)
    active, checked = db.session.execute(
        sa.select(sa.func.count(Player.id), sa.func.count(CheckIn.id))
        .outerjoin(CheckIn, sa.and_(CheckIn.player_id == Player.id, CheckIn.round == call.round))
        .where(Player.tournament_id == t.id, Player.dropped.is_(False))).one()
    return Counts(call.running(latest_round(t)), call.round, checked, active - checked, waitlist.waiting_count(t))

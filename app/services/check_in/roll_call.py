"""The roll call: players check in from their phone (their link) or the staff tick them off, waiting players too
(before round 1); at the TO's word, or when the round is paired (core/check_in.py pairing_plan: the one decision the
TO's preview shows and the pairing applies), those not checked in are dropped, and the places they free go to the
waiting players who checked in, in line order.

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
from ..players import drops, states
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
        db.session.flush()
        if entry is not None and entry.promoted_at is None:
            waitlist.fill(t)  # a waiting player here now: a place free meanwhile is theirs, in line order
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


@dataclass(frozen=True)
class Preview:
    """A pairing plan (core/check_in.py PairingPlan) with the names the TO reads."""

    plan: rules.PairingPlan
    names: dict  # player id -> name
    deadline_passed: bool = False
    active: int = 0  # the active players before the plan (checked in or not)

    def _named(self, ids) -> list:
        return [self.names[pid] for pid in ids]

    @property
    def drops(self) -> list:
        return self._named(self.plan.drops)

    @property
    def left_in(self) -> list:
        return self._named(self.plan.left_in)

    @property
    def let_in(self) -> list:
        return self._named(self.plan.let_in)

    @property
    def changes(self) -> bool:
        return self.plan.changes

    @property
    def digest(self) -> str:
        return self.plan.digest

    def summary(self) -> str:
        """One line: "Drops 2 not checked in: A, B; lets in 1 from the waitlist: C." ("" when nothing changes)."""
        parts = []
        if self.drops:
            parts.append(f"drops {len(self.drops)} not checked in: {', '.join(self.drops)}")
        if self.left_in:
            parts.append(f"leaves {len(self.left_in)} not checked in in the round: {', '.join(self.left_in)}")
        if self.let_in:
            parts.append(f"lets in {len(self.let_in)} from the waitlist: {', '.join(self.let_in)}")
        text = "; ".join(parts)
        return f"{text[:1].upper()}{text[1:]}." if text else ""


class PlanChanged(Exception):
    """The plan the TO confirmed is not the plan now (someone checked in, dropped, registered meanwhile): nothing
    was done; `preview` is the new one to show."""

    def __init__(self, preview: Preview):
        super().__init__("The roll call changed since you looked: check what pairing does now, then confirm.")
        self.preview = preview


def plan(t: Tournament, number: int, *, drop: Optional[bool] = None, now: Optional[datetime] = None) -> Preview:
    """What pairing round `number` would do first now (core/check_in.py pairing_plan), from the players' states
    (services/players/states.py): the active players by name, the checked-in ones, the waiting line in order.
    `drop=True`: the TO's "drop the no-shows now" button."""
    now = now or utcnow()
    call = settings.roll_call(t)
    if not call.enabled or number != call.round:
        return Preview(rules.PairingPlan(number), {})
    everyone = states.of_event(t, now)
    names = dict(db.session.execute(sa.select(Player.id, Player.name).where(Player.tournament_id == t.id)
                                    .order_by(Player.name_key, Player.id)).all())
    active = [pid for pid in names if everyone[pid].pairable]
    present = [pid for pid, s in everyone.items() if s.present]
    line = sorted((s.position, pid) for pid, s in everyone.items() if s.waiting)
    decided = rules.pairing_plan(call, number, active, present, [pid for _, pid in line], t.registration_cap,
                                 drop=drop)
    return Preview(decided, names, call.closed(now), len(active))


def _apply(t: Tournament, preview: Preview) -> Dropped:
    """Do the plan (the caller holds the lock and commits): drop its no-shows (each only if still not checked in:
    the conditional UPDATE is the last word), then let its waiting players in."""
    decided, out = preview.plan, Dropped()
    if decided.drops:
        drops.mark_dropped(t, decided.drops, DropReason.NO_SHOW,
                           ~sa.exists().where(CheckIn.player_id == Player.id, CheckIn.round == decided.round))
        out.no_shows = preview.drops
    out.let_in = [preview.names[pid] for pid in decided.let_in if waitlist.let_in(t, pid)]
    if out.let_in:
        touch(db.session, [t.id])
    db.session.expire_all()
    return out


def drop_no_shows(t: Tournament) -> Dropped:
    """The TO's button: drop those not checked in now, deadline or not, and let the waiting players who checked in
    into the places freed."""
    t = lock_tournament(t)
    call = settings.roll_call(t)
    if not call.running(latest_round(t)):
        db.session.rollback()
        raise Refusal("No roll call is running.")
    out = _apply(t, plan(t, call.round, drop=True))
    db.session.commit()
    db.session.expire_all()
    if out.no_shows or out.let_in:
        backup.follow(t)
    return out


def at_pairing(t: Tournament, number: int, expected: Optional[str] = None,
               now: Optional[datetime] = None) -> Dropped:
    """Called by the pairing under its lock, before it reads the players: the plan for round `number` (its roll
    call's no-shows dropped when the TO chose so, the present waiting players let in) done now. `expected`: the
    digest of the plan the TO confirmed; another plan now raises PlanChanged and does nothing. Not committed."""
    preview = plan(t, number, now=now)
    if expected is not None and preview.digest != expected:
        raise PlanChanged(preview)
    if not preview.changes:
        return Dropped()
    return _apply(t, preview)


def check_plan(t: Tournament, number: int, expected: Optional[str]) -> None:
    """PlanChanged unless the plan now is the one confirmed (`expected`; None: not asked)."""
    if expected is None:
        return
    preview = plan(t, number)
    if preview.digest != expected:
        raise PlanChanged(preview)


def save_settings(t: Tournament, *, enabled: bool, no_shows: rules.NoShows, keeps_waitlist: bool,
                  closes_in: Optional[int]) -> list[str]:
    """The TO's check-in settings (settings.save), committed under the event's lock; the names a waitlist switched
    on or a deadline's new rule let in at once."""
    t = lock_tournament(t)
    settings.save(t, enabled=enabled, no_shows=no_shows, waitlist=keeps_waitlist, closes_in=closes_in)
    db.session.flush()
    let_in = waitlist.fill(t)
    db.session.commit()
    return let_in


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
    """What the roll call page shows: the call, the active players, the waitlist (before round 1 only), the counts,
    and what pairing the round would do now."""

    call: rules.RollCall
    running: bool
    closed: bool  # past the deadline
    latest: int
    rows: list  # of Row, active players by name
    waiting: list  # of Row, waiting players, next first (empty on a later day's roll call: the field is settled)
    dropped: int
    keeps_waitlist: bool
    cap: Optional[int]
    preview: Optional[Preview] = None  # while the roll call runs

    @property
    def checked(self) -> int:
        return sum(r.checked_in for r in self.rows)

    @property
    def not_yet(self) -> int:
        return len(self.rows) - self.checked

    @property
    def waiting_here(self) -> int:
        return sum(r.checked_in for r in self.waiting)


def sheet(t: Tournament, now: Optional[datetime] = None) -> Sheet:
    now = now or utcnow()
    call = settings.roll_call(t)
    latest = latest_round(t)
    seen = dict(db.session.execute(sa.select(CheckIn.player_id, CheckIn.by_staff).where(
        CheckIn.tournament_id == t.id, CheckIn.round == call.round)).all())
    players = db.session.execute(sa.select(Player.id, Player.name).where(Player.tournament_id == t.id)
                                 .order_by(Player.name_key, Player.id)).all()
    everyone = states.of_event(t, now)
    rows = [Row(pid, name, name_key(name), pid in seen, bool(seen.get(pid))) for pid, name in players
            if everyone[pid].pairable]
    line = sorted((everyone[pid].position, pid, name) for pid, name in players if everyone[pid].waiting)
    waiting = [] if call.enabled and call.round > rules.FIRST_ROUND else [
        Row(pid, name, name_key(name), pid in seen and everyone[pid].checked_in, bool(seen.get(pid)))
        for _, pid, name in line]
    dropped = sum(1 for s in everyone.values() if s.out)
    running = call.running(latest)
    return Sheet(call, running, call.closed(now), latest, rows, waiting, dropped, settings.keeps_waitlist(t),
                 t.registration_cap, plan(t, call.round, now=now) if running else None)


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

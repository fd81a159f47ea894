"""Judge calls: a player asks for a judge at their table; one staff member claims the call, then resolves it.

Every step is one conditional UPDATE (it changes the row only if the call is still in the state the step starts
from), so two staff members claiming at once get one winner and one refusal, on any database. A player has at most
one call open (a partial unique index refuses a second, whatever races) and waits a cool-down between calls.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import JudgeCall, Player, Tournament, User, as_utc, max_length, utcnow
from . import cut as cut_service
from .results import participation
from .players import states
from .prepared import Prepared
from .push import outbox as push_outbox

REASON_LENGTH = max_length(JudgeCall.reason)


class CallState(str, enum.Enum):
    OPEN = "open"            # sent: no one has taken it yet
    CLAIMED = "claimed"      # a judge is on the way
    RESOLVED = "resolved"
    CANCELLED = "cancelled"  # by the player


LIVE = (CallState.OPEN.value, CallState.CLAIMED.value)


class CallRefused(Exception):
    """The step cannot be taken (the message says why, to the one who tried)."""


@dataclass(frozen=True)
class CallView:
    id: int
    player: str
    round_number: Optional[int]
    table: Optional[int]
    reason: str
    state: CallState
    created_at: datetime
    claimed_by: Optional[str]
    claimed_by_id: Optional[int]
    claimed_at: Optional[datetime]
    resolved_by: Optional[str]
    closed_at: Optional[datetime]
    judge_name: Optional[str] = None  # the claimer as a player sees them: their display name only, never an e-mail

    @property
    def live(self) -> bool:
        return self.state.value in LIVE

    @property
    def where(self) -> str:
        if self.table is None:
            return "no table"
        return f"table {self.table}, " + (f"round {self.round_number}" if self.round_number else "top cut")


def _name(user: Optional[User]) -> Optional[str]:
    if user is None:
        return None
    return user.display_name or user.email


def _view(call: JudgeCall) -> CallView:
    return CallView(call.id, call.player.name, call.round_number, call.table, call.reason, CallState(call.state),
                    as_utc(call.created_at), _name(call.claimed_by), call.claimed_by_id, as_utc(call.claimed_at),
                    _name(call.resolved_by), as_utc(call.closed_at),
                    call.claimed_by.display_name or None if call.claimed_by else None)


# ---------------------------------------------------------------- reading

def call_log(t: Tournament) -> list[CallView]:
    """Every call of the event, newest first: who called, when, who claimed it, when it closed."""
    calls = db.session.scalars(sa.select(JudgeCall).where(JudgeCall.tournament_id == t.id)
                               .order_by(JudgeCall.id.desc()))
    return [_view(c) for c in calls]


def stamp(t: Tournament) -> str:
    """Changes whenever any call of the event is made or moves on (each step adds one to its version): what the
    staff pages' poll is keyed by, in one small query."""
    count, steps = db.session.execute(
        sa.select(sa.func.count(JudgeCall.id), sa.func.coalesce(sa.func.sum(JudgeCall.version), 0))
        .where(JudgeCall.tournament_id == t.id)).one()
    return _stamp(count, steps)


def _stamp(count: int, steps: int) -> str:
    return f"{count}-{steps}"


def panel(t: Tournament) -> tuple[str, list[CallView]]:
    """The stamp and the open calls (oldest first) in one query, callers and staff names included: the staff
    panel is drawn on every round page."""
    calls = db.session.scalars(
        sa.select(JudgeCall).where(JudgeCall.tournament_id == t.id).order_by(JudgeCall.id)
        .options(sa.orm.joinedload(JudgeCall.player), sa.orm.joinedload(JudgeCall.claimed_by),
                 sa.orm.joinedload(JudgeCall.resolved_by))).unique().all()
    return _stamp(len(calls), sum(c.version for c in calls)), [_view(c) for c in calls if c.state in LIVE]


ASK = object()  # a value the caller has not read: the function asks it

# A player's newest call's id (every player page asks; most players never call), one probe planned once: by itself
# (the call box's poll), and as a column of a statement that reads Player (the player page's facts,
# services/players/player_page.py).
_NEWEST = Prepared("judge_call_newest", sa.select(sa.func.max(JudgeCall.id))
                   .where(JudgeCall.tournament_id == sa.bindparam("tid"), JudgeCall.player_id == sa.bindparam("pid")))
NEWEST_OF_PLAYER = (sa.select(sa.func.max(JudgeCall.id)).where(JudgeCall.player_id == Player.id).correlate(Player)
                    .scalar_subquery())


def latest_call(t: Tournament, player: Player, newest=ASK) -> Optional[CallView]:
    """The player's newest call, whatever its state (the player page shows it). `newest`: its id (None: no call)
    when the caller has read it already."""
    if newest is ASK:
        newest = _NEWEST.execute({"tid": t.id, "pid": player.id}).scalar()
    return _view(db.session.get(JudgeCall, newest)) if newest is not None else None


# ---------------------------------------------------------------- the steps

OVER = "The event is over: no judge is watching for calls now. Find the organizer in person."
NO_TABLE = ("A judge call brings a judge to your table, and you sit at none now (before your first game, after "
            "you dropped, or between games). Find a judge or the organizer in person.")
# a waiting player reads their place in line, never "dropped" (docs/domain.md 19a)
WAITING = ("A judge call brings a judge to your table, and you sit at none while you wait on the waitlist. Find a "
           "judge or the organizer in person.")


DISQUALIFIED = "You are disqualified from this event: see the head judge in person."


def closed(t: Tournament, player: Optional[Player] = None, mine=ASK, state=None) -> Optional[str]:
    """Why players (or `player`) can call no judge now, or None: once the top cut is decided the staff stop
    watching calls; a disqualified player's part is over; a player who sits at no table (before round 1, out of
    the event, waiting on the waitlist, a bye, out of the cut, a fresh self-registration) has no table to bring a
    judge to, and a call from them is a stranger's on the staff's panel: they find a judge in person. `mine`: the
    player's participation.my_table when the caller has read it already (the player's page has), else it is
    asked; `state`: the player's (services/players/states.py), likewise."""
    if cut_service.decided(t):
        return OVER
    if player is None:
        return None
    state = state if state is not None else states.of_player(t, player)
    if not state.may_call_judge:
        return DISQUALIFIED if state.disqualified else WAITING if state.waiting else NO_TABLE
    if state.out or _seat(t, player, mine)[1] is None:
        return NO_TABLE
    return None


def call(t: Tournament, player: Player, reason: str, cooldown: timedelta) -> CallView:
    """The player calls a judge to the table they sit at now (round and table filled in). A disqualified player's
    link calls no one (states.PartOver, which the page answers with a refusal)."""
    state = states.refuse_if_disqualified(t, player, "judge")
    why = closed(t, player, state=state)
    if why:
        raise CallRefused(why)
    reason = " ".join(reason.split())[:REASON_LENGTH]
    last = latest_call(t, player)
    if last is not None and last.live:
        raise CallRefused("You have a call open already: a judge is coming.")
    now = utcnow()
    if last is not None and now - last.created_at < cooldown:
        wait = int((last.created_at + cooldown - now).total_seconds()) + 1
        raise CallRefused(f"You called a judge a moment ago. You can call again in {wait} seconds.")
    round_number, table = _seat(t, player)
    new = JudgeCall(tournament_id=t.id, player_id=player.id, reason=reason, state=CallState.OPEN.value,
                    round_number=round_number, table=table, created_at=now)
    db.session.add(new)
    try:
        db.session.commit()
    except IntegrityError:  # the same player's other request won the race
        db.session.rollback()
        raise CallRefused("You have a call open already: a judge is coming.") from None
    return _view(new)


def _seat(t: Tournament, player: Player, mine=ASK) -> tuple[Optional[int], Optional[int]]:
    """(swiss round, table) where the player plays now; (None, table) for a top cut game not yet played;
    (None, None) when they sit nowhere (a bye, out of the cut, between rounds)."""
    if t.cut_kind is not None:
        return None, cut_service.game_table(t, player.id)
    if mine is ASK:
        mine = participation.my_table(t, player)
    if mine is None or mine.is_bye:
        return None, None
    return mine.round_number, mine.table


def _step(t: Tournament, call_id: int, start: tuple[str, ...], extra=(), **values) -> bool:
    """Move one call of `t` from a state in `start`; False if it was not in one (someone else moved it first)."""
    done = db.session.execute(
        sa.update(JudgeCall).where(JudgeCall.id == call_id, JudgeCall.tournament_id == t.id,
                                   JudgeCall.state.in_(start), *extra)
        .values(version=JudgeCall.version + 1, **values).execution_options(synchronize_session=False))
    db.session.commit()
    return done.rowcount == 1


def _get(t: Tournament, call_id: int) -> JudgeCall:
    db.session.expire_all()
    found = db.session.get(JudgeCall, call_id)
    if found is None or found.tournament_id != t.id:
        raise LookupError(call_id)
    return found


def claim(t: Tournament, call_id: int, user: User) -> CallView:
    """`user` takes the call; refused when another staff member took it first or it is over."""
    _get(t, call_id)
    if not _step(t, call_id, (CallState.OPEN.value,), state=CallState.CLAIMED.value, claimed_by_id=user.id,
                 claimed_at=utcnow()):
        now = _view(_get(t, call_id))
        if now.state is CallState.CLAIMED:
            raise CallRefused(f"{now.claimed_by or 'Someone'} has taken this call already.")
        raise CallRefused(f"This call is {now.state.value} already.")
    call = _get(t, call_id)
    push_outbox.queue(t.id, push_outbox.JUDGE, player_id=call.player_id, ref=call.id)
    db.session.commit()
    return _view(call)


def resolve(t: Tournament, call_id: int, user: User) -> CallView:
    """The call is dealt with (whoever claimed it; an unclaimed one is claimed by the resolver too)."""
    _get(t, call_id)
    now = utcnow()
    if not _step(t, call_id, LIVE, state=CallState.RESOLVED.value, resolved_by_id=user.id, closed_at=now,
                 claimed_by_id=sa.func.coalesce(JudgeCall.claimed_by_id, user.id),
                 claimed_at=sa.func.coalesce(JudgeCall.claimed_at, now)):
        raise CallRefused(f"This call is {_view(_get(t, call_id)).state.value} already.")
    return _view(_get(t, call_id))


def cancel(t: Tournament, player: Player) -> bool:
    """The player takes back their open call; False if they had none."""
    live = db.session.scalar(sa.select(JudgeCall.id).where(JudgeCall.tournament_id == t.id,
                                                           JudgeCall.player_id == player.id,
                                                           JudgeCall.state.in_(LIVE)))
    if live is None:
        return False
    return _step(t, live, LIVE, extra=(JudgeCall.player_id == player.id,), state=CallState.CANCELLED.value,
                 closed_at=utcnow())

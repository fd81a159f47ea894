"""Round timers in the database: the clock of app/core/clock.py, kept on the round's row.

Only the current round (the latest, once published) has a working timer. Each action is one conditional
UPDATE that names the state it was computed from, so when two devices press at once one wins and the other is
told, and the row never holds a mix of both.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Optional

import sqlalchemy as sa

from ...core import clock
from ...extensions import db
from ...models import Round, Tournament, as_utc, utcnow
from ..event_files import backup
from ..push import outbox as push_outbox


class TimerError(Exception):
    """A refused timer action; str() is the message for the TO. Nothing was written."""


class NotFound(TimerError):
    """No such round in this tournament."""


def clock_from_row(state, ends_at, remaining_ms) -> clock.Clock:
    """A clock from the three timer columns of a round row."""
    return clock.Clock(state, as_utc(ends_at), remaining_ms)


_COLUMNS = (Round.timer_state, Round.timer_ends_at, Round.timer_remaining_ms)


def round_clock(t: Tournament, number: int) -> Optional[clock.Clock]:
    """The clock of round `number`; None if the round does not exist."""
    row = db.session.execute(sa.select(*_COLUMNS).where(Round.tournament_id == t.id, Round.number == number)).first()
    return None if row is None else clock_from_row(*row)


def current(t: Tournament) -> tuple[Optional[int], Optional[clock.Clock]]:
    """(number, clock) of the latest published round, what players see; (None, None) before round 1."""
    row = db.session.execute(sa.select(Round.number, *_COLUMNS)
                             .where(Round.tournament_id == t.id, Round.published)
                             .order_by(Round.number.desc()).limit(1)).first()
    return (None, None) if row is None else (row[0], clock_from_row(*row[1:]))


def act(t: Tournament, number: int, action: str, minutes: Optional[int] = None,
        now: Optional[datetime] = None) -> clock.Clock:
    """Apply `action` ("start", "pause", "resume", "adjust", "call") to round `number`'s timer."""
    now = now or utcnow()
    rounds = db.session.execute(sa.select(Round.id, Round.number, Round.published, *_COLUMNS)
                                .where(Round.tournament_id == t.id)
                                .order_by(Round.number.desc()).limit(1)).first()
    row = rounds if rounds is not None and rounds.number == number else \
        db.session.execute(sa.select(Round.id, Round.number, Round.published, *_COLUMNS)
                           .where(Round.tournament_id == t.id, Round.number == number)).first()
    if row is None:
        raise NotFound(f"There is no round {number}: pair it first." if number > 0 else "There is no such round.")
    if row.number != rounds.number:
        raise TimerError(f"Round {number} is over: only the current round ({rounds.number}) has a timer.")
    if not row.published:
        raise TimerError(f"Publish round {number} first: players cannot see its timer yet.")
    old = clock_from_row(row.timer_state, row.timer_ends_at, row.timer_remaining_ms)
    try:
        if action == "start":
            new = clock.start(old, now, minutes if minutes is not None else t.round_minutes)
        elif action == "adjust":
            new = clock.adjust(old, now, minutes)
        elif action in clock.ACTIONS:
            new = clock.ACTIONS[action](old, now)
        else:
            raise clock.ClockError("Unknown timer action.")
    except clock.ClockError as e:
        raise TimerError(str(e)) from None
    done = db.session.execute(
        sa.update(Round)
        .where(Round.id == row.id,
               Round.timer_state.is_not_distinct_from(row.timer_state),
               Round.timer_ends_at.is_not_distinct_from(row.timer_ends_at),
               Round.timer_remaining_ms.is_not_distinct_from(row.timer_remaining_ms))
        .values(timer_state=new.state, timer_ends_at=new.ends_at, timer_remaining_ms=new.remaining_ms,
                **({"started_at": now} if old.state is None and new.state == clock.RUNNING else {}))
        .execution_options(synchronize_session=False))
    if done.rowcount != 1:
        db.session.rollback()
        raise TimerError("The timer was changed from another device at the same moment; check it and try again.")
    if action == "call":
        push_outbox.queue(t.id, push_outbox.TIME, round=number)
    db.session.commit()
    backup.follow(t)  # a move carries the clock on
    return new


def iso(value: datetime) -> str:
    """ISO 8601 in UTC with a Z, to the millisecond: what browsers and the API read."""
    return value.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def as_status(number: Optional[int], c: Optional[clock.Clock]) -> Optional[dict]:
    """The timer as phones poll it: no field changes while the clock merely ticks, so the answer's ETag holds
    until the TO acts. The browser counts down from `ends_at` itself."""
    if c is None or c.state is None:
        return None
    data = {"round": number, "state": c.state}
    if c.state == clock.RUNNING:
        data["ends_at"] = iso(c.ends_at)
    elif c.state == clock.PAUSED:
        data["remaining_ms"] = c.remaining_ms
    return data


def as_api(c: Optional[clock.Clock], now: Optional[datetime] = None) -> Optional[dict]:
    """The read-only API's view: state, the end time while running, and the whole seconds left now."""
    if c is None or c.state is None:
        return None
    now = now or utcnow()
    data = {"state": c.state, "remaining_seconds": clock.remaining_seconds(c, now)}
    if c.state == clock.RUNNING:
        data["ends_at"] = iso(c.ends_at)
    return data

"""The round clock as pure functions of the server's time: no Flask, no SQL.

A clock is stored as timestamps, never as a ticking counter: while it runs only its end time is kept, while it
is paused only the time that was left. Every worker, a restart and every phone therefore agree on it, and
nothing drifts between two looks at it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Optional

RUNNING, PAUSED, CALLED = "running", "paused", "called"
MAX_MINUTES = 600  # ten hours: longer than any round, and far below any overflow
MAX_MS = MAX_MINUTES * 60_000


class ClockError(Exception):
    """A refused clock action; str() is the message for the TO."""


@dataclass(frozen=True, slots=True)
class Clock:
    """state None: never started. `ends_at` (aware, UTC) only while running, `remaining_ms` only while paused."""

    state: Optional[str] = None
    ends_at: Optional[datetime] = None
    remaining_ms: Optional[int] = None

    def __post_init__(self):
        ok = {None: self.ends_at is None and self.remaining_ms is None,
              RUNNING: self.ends_at is not None and self.remaining_ms is None,
              PAUSED: self.ends_at is None and self.remaining_ms is not None and 0 <= self.remaining_ms <= MAX_MS,
              CALLED: self.ends_at is None and self.remaining_ms is None}.get(self.state, False)
        if not ok:
            raise ValueError(f"inconsistent clock {self!r}")


def _ms(delta: timedelta) -> int:
    return delta // timedelta(milliseconds=1)


def remaining_ms(clock: Clock, now: datetime) -> int:
    """Time left: counts down while running (never below 0), frozen while paused, 0 once called."""
    if clock.state == RUNNING:
        assert clock.ends_at is not None  # Clock.__post_init__ holds it
        return max(0, _ms(clock.ends_at - now))
    if clock.state == PAUSED:
        assert clock.remaining_ms is not None
        return clock.remaining_ms
    return 0


def remaining_seconds(clock: Clock, now: datetime) -> int:
    """Whole seconds left, rounded up: a clock shows 0:00 exactly when time is up, not a second early."""
    return math.ceil(remaining_ms(clock, now) / 1000)


def _minutes(minutes: int) -> int:
    if not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES:
        raise ClockError(f"A round lasts from 1 to {MAX_MINUTES} minutes.")
    return minutes


def start(clock: Clock, now: datetime, minutes: int) -> Clock:
    """A fresh clock of `minutes`. A running or paused clock is not restarted by a stray second click."""
    _minutes(minutes)
    if clock.state == RUNNING:
        raise ClockError("The timer is already running.")
    if clock.state == PAUSED:
        raise ClockError("The timer is paused: resume it, or call time first to start over.")
    return Clock(RUNNING, ends_at=now + timedelta(minutes=minutes))


def pause(clock: Clock, now: datetime) -> Clock:
    if clock.state != RUNNING:
        raise ClockError("Only a running timer can be paused.")
    return Clock(PAUSED, remaining_ms=min(MAX_MS, remaining_ms(clock, now)))


def resume(clock: Clock, now: datetime) -> Clock:
    if clock.state != PAUSED:
        raise ClockError("Only a paused timer can be resumed.")
    assert clock.remaining_ms is not None  # Clock.__post_init__ holds it
    return Clock(RUNNING, ends_at=now + timedelta(milliseconds=clock.remaining_ms))


def adjust(clock: Clock, now: datetime, minutes: int) -> Clock:
    """Add (positive) or remove (negative) minutes. Removing more than is left leaves 0:00, never less;
    adding to a clock that ran out counts from now."""
    if not isinstance(minutes, int) or minutes == 0 or abs(minutes) > MAX_MINUTES:
        raise ClockError(f"Add or remove between 1 and {MAX_MINUTES} minutes.")
    left = min(MAX_MS, max(0, remaining_ms(clock, now) + minutes * 60_000))
    if clock.state == RUNNING:
        return Clock(RUNNING, ends_at=now + timedelta(milliseconds=left))
    if clock.state == PAUSED:
        return Clock(PAUSED, remaining_ms=left)
    raise ClockError("Start the timer before adding or removing minutes.")


def call(clock: Clock, now: datetime) -> Clock:
    """Time is called: the clock stops at 0:00 whatever was left."""
    if clock.state not in (RUNNING, PAUSED):
        raise ClockError("The timer is not running." if clock.state is None else "Time has been called already.")
    return Clock(CALLED)


ACTIONS = {"pause": pause, "resume": resume, "call": call}


def clock_text(seconds: int) -> str:
    """64:59, 9:05, and 1:45:00 from 100 minutes up: what a countdown shows for whole seconds left (rounds are
    spoken of in minutes; static/countdown.js does the same)."""
    seconds = max(0, seconds)
    if seconds < 100 * 60:
        return f"{seconds // 60}:{seconds % 60:02d}"
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"

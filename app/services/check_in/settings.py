"""An event's check-in settings: its CheckInSettings row read as the core's RollCall (absent: all off)."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Optional

from ...core.check_in import FIRST_ROUND, NoShows, RollCall
from ...extensions import db
from ...models import CheckInSettings, Tournament, as_utc, utcnow


def row(t: Tournament) -> Optional[CheckInSettings]:
    return db.session.get(CheckInSettings, t.id)


def roll_call(t: Tournament) -> RollCall:
    found = row(t)
    if found is None:
        return RollCall()
    return read(found.enabled, found.round, found.deadline, found.no_shows)


def read(enabled: Optional[bool], number: Optional[int], deadline: Optional[datetime],
         no_shows: Optional[str]) -> RollCall:
    """The settings row's columns as the core's RollCall (no row: every column None, all off)."""
    if enabled is None:
        return RollCall()
    return RollCall(enabled, number, as_utc(deadline) if deadline else None, NoShows(no_shows))


def keeps_waitlist(t: Tournament) -> bool:
    found = row(t)
    return bool(found and found.waitlist)


def save(t: Tournament, *, enabled: bool, no_shows: NoShows, waitlist: bool,
         closes_in: Optional[int], now: Optional[datetime] = None) -> CheckInSettings:
    """The TO's settings, not committed (the caller holds the lock and commits). `closes_in`: minutes from now to
    the deadline, None for none."""
    found = row(t)
    if found is None:
        found = CheckInSettings(tournament_id=t.id, round=FIRST_ROUND)
        db.session.add(found)
    found.enabled, found.no_shows, found.waitlist = enabled, no_shows.value, waitlist
    found.deadline = None if closes_in is None else (now or utcnow()) + timedelta(minutes=closes_in)
    return found


def keep_waitlist(t: Tournament, waitlist: bool) -> None:
    """The waitlist switch alone, from either form that shows it (the check-in settings, the event's registration
    settings beside the cap); the roll call's settings stay as they were. Not committed. Off with no row: nothing to
    write (no row means no waitlist)."""
    found = row(t)
    if found is None:
        if not waitlist:
            return
        found = CheckInSettings(tournament_id=t.id, enabled=False, round=FIRST_ROUND, no_shows=NoShows.DROP.value)
        db.session.add(found)
    found.waitlist = waitlist


def next_roll_call(t: Tournament, number: int) -> CheckInSettings:
    """A new roll call before round `number` (a second day): check-in on, no deadline yet; not committed."""
    found = row(t)
    if found is None:
        found = CheckInSettings(tournament_id=t.id, no_shows=NoShows.DROP.value, waitlist=False)
        db.session.add(found)
    found.enabled, found.round, found.deadline = True, number, None
    return found

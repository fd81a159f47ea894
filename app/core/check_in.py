"""Check-in and the waitlist (docs/domain.md 19): who is in under a cap, who waits and in which order, who a
freed place lets in, when a roll call takes players' own check-ins, and whom it drops as no-shows.

Plain values in, plain values out: the service (app/services/check_in/) loads the counts and rows, asks here, and
writes the answer under the event's lock.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from datetime import datetime
from enum import Enum
from typing import Hashable, Iterable, Optional, Sequence, TypeVar

T = TypeVar("T", bound=Hashable)

FIRST_ROUND = 1
MAX_CLOSE_MINUTES = 600  # a deadline is set within the next ten hours


class NoShows(Enum):
    """What a roll call does, once its deadline passes, with the players who did not check in."""

    DROP = "drop"  # dropped when the round is paired, deadline or not (or at the TO's button, any time)
    DECIDE = "decide"  # left in: the TO drops them by hand or with the button


class Entry(Enum):
    """Where a registration stands against the cap."""

    IN = "in"
    WAITLIST = "waitlist"
    REFUSED = "refused"  # full, and the event keeps no waitlist


def free_places(cap: Optional[int], active: int) -> Optional[int]:
    """Places left under the cap (never negative: a TO may let in more than the cap by hand); None: no cap."""
    if cap is None:
        return None
    return max(0, cap - active)


def arrival(cap: Optional[int], active: int, waiting: int, keeps_waitlist: bool) -> Entry:
    """A new registration: in while a place is free and nobody waits for one (the waitlist goes first), else on
    the waitlist if the event keeps one, else refused."""
    free = free_places(cap, active)
    if free is None or (free > waiting if keeps_waitlist else free > 0):
        return Entry.IN
    return Entry.WAITLIST if keeps_waitlist else Entry.REFUSED


def promotions(cap: Optional[int], active: int, waiting: Sequence[T], started: bool,
               present: Optional[Iterable[T]] = None) -> list[T]:
    """Whom the free places let in, first come first in: the head of the waitlist, as many as the cap allows (all
    of it with no cap). Only before round 1: once it is paired the field is settled, and a waitlisted player comes
    in only by the TO's hand (a late entry). `present`: while a roll call runs, only the waiting players checked in
    may take a place (in line order); the absent ones are skipped and keep their place in line."""
    if started:
        return []
    if present is not None:
        here = set(present)
        waiting = [w for w in waiting if w in here]
    free = free_places(cap, active)
    return list(waiting if free is None else waiting[:free])


def waitlist_position(waiting: Sequence[T], who: T) -> Optional[int]:
    """1 for the next player to be let in; None for a player not waiting."""
    try:
        return waiting.index(who) + 1
    except ValueError:
        return None


def no_shows(active: Iterable[T], checked_in: Iterable[T]) -> list[T]:
    """The active players a roll call has not seen, in the order given."""
    seen = set(checked_in)
    return [p for p in active if p not in seen]


@dataclass(frozen=True)
class RollCall:
    """An event's roll call: on or off, before which round, until when players check in on their phones, and what
    then becomes of those who did not."""

    enabled: bool = False
    round: int = FIRST_ROUND
    deadline: Optional[datetime] = None  # aware, UTC
    no_shows: NoShows = NoShows.DROP

    def running(self, latest_round: int) -> bool:
        """The roll call is under way: on, and its round not paired yet (staff tick players off until then)."""
        return self.enabled and latest_round < self.round

    def closed(self, now: datetime, promoted_at: Optional[datetime] = None) -> bool:
        """Its deadline has passed: phones no longer check in (staff still may). A player let in from the waitlist
        after the deadline was never given the chance: for them it has not passed."""
        if promoted_at is not None and self.deadline is not None and promoted_at >= self.deadline:
            return False
        return self.deadline is not None and now >= self.deadline

    def open_to_phones(self, latest_round: int, now: datetime) -> bool:
        return self.running(latest_round) and not self.closed(now)

    def drops_at_pairing(self, number: int) -> bool:
        """Pairing round `number` drops this roll call's no-shows first: its own round, when the TO chose to drop
        them. Deadline or not: without one, phones check in "until the round is paired", so the pairing is the
        deadline (pairing before a deadline ends the roll call early, as the TO's preview says)."""
        return self.enabled and number == self.round and self.no_shows is NoShows.DROP

    def takes_waitlist_check_ins(self, latest_round: int) -> bool:
        """Waiting players check in too: this roll call is before round 1 (the waitlist only matters then)."""
        return self.running(latest_round) and self.round == FIRST_ROUND


@dataclass(frozen=True)
class PairingPlan:
    """What pairing round `round` does to the field first (pairing_plan): the TO's preview shows it, the pairing
    applies it, and a confirmation carries its digest so a plan that changed meanwhile is shown again, not done."""

    round: int
    drops: tuple = ()  # active players not checked in, dropped as no-shows (NoShows.DROP), in the order given
    left_in: tuple = ()  # active players not checked in, left in and paired (NoShows.DECIDE)
    let_in: tuple = ()  # waiting players checked in, let into the places free then, in line order

    @property
    def changes(self) -> bool:
        """Pairing does more than pair: the TO sees it first."""
        return bool(self.drops or self.left_in or self.let_in)

    @property
    def digest(self) -> str:
        """A short fingerprint of the plan (its round and the three lists, as sets): what a confirmation carries."""
        text = repr((self.round, sorted(self.drops), sorted(self.left_in), sorted(self.let_in)))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def pairing_plan(roll_call: RollCall, number: int, active: Sequence[T], checked_in: Iterable[T],
                 waiting: Sequence[T], cap: Optional[int], *, drop: Optional[bool] = None) -> PairingPlan:
    """The one decision of what pairing round `number` does first, for the preview and the pairing alike: with this
    round's roll call, the active players not checked in are dropped (NoShows.DROP) or left in (DECIDE), and the
    places then free under the cap go to the waiting players who checked in, in line order (before round 1 only;
    absent waiting players are skipped). No roll call for this round: nothing changes. `drop`: the TO's "drop the
    no-shows now" button (True), whatever the setting."""
    if not roll_call.enabled or number != roll_call.round:
        return PairingPlan(number)
    if drop is not None:
        roll_call = replace(roll_call, no_shows=NoShows.DROP if drop else NoShows.DECIDE)
    seen = set(checked_in)
    missing = tuple(no_shows(active, seen))
    drops, left_in = (missing, ()) if roll_call.drops_at_pairing(number) else ((), missing)
    let_in = tuple(promotions(cap, len(active) - len(drops), waiting, number > FIRST_ROUND, present=seen))
    return PairingPlan(number, drops, left_in, let_in)


class Phone(Enum):
    """What a player's page says of check-in."""

    NONE = "none"  # no roll call for them (none running, or they dropped)
    WAITLIST = "waitlist"  # waiting for a place: never paired
    OPEN = "open"  # may check in now
    DONE = "done"  # checked in
    MISSED = "missed"  # the deadline passed without their check-in: they see the organizer


def phone(roll_call: RollCall, latest_round: int, now: datetime, *, waitlisted: bool, dropped: bool,
          checked_in: bool, promoted_at: Optional[datetime] = None) -> Phone:
    if waitlisted:
        return Phone.WAITLIST
    if dropped or not roll_call.running(latest_round):
        return Phone.NONE
    if checked_in:
        return Phone.DONE
    return Phone.MISSED if roll_call.closed(now, promoted_at) else Phone.OPEN


def waiting_phone(roll_call: RollCall, latest_round: int, now: datetime, *, checked_in: bool) -> Phone:
    """A waiting player's check-in, beside their place in line: they check in while they wait (before round 1), so
    a place freed at pairing goes to one who is here. NONE: no roll call takes them."""
    if not roll_call.takes_waitlist_check_ins(latest_round):
        return Phone.NONE
    if checked_in:
        return Phone.DONE
    return Phone.MISSED if roll_call.closed(now) else Phone.OPEN


class Refusal(ValueError):
    """Why a check-in is refused, in words for the player or the staff."""


def check_check_in(roll_call: RollCall, latest_round: int, now: datetime, *, by_staff: bool, waitlisted: bool,
                   dropped: bool, promoted_at: Optional[datetime] = None) -> None:
    """A check-in allowed now, or Refusal: a roll call running; the player in (not dropped), or waiting for a
    place before round 1 (a place freed at pairing goes to a waiting player who is here); a phone only before the
    deadline, or after it for a player let in from the waitlist after it (staff tick late arrivals after it, the TO
    deciding)."""
    if not roll_call.running(latest_round):
        raise Refusal("Check-in is not open." if not roll_call.enabled or latest_round < roll_call.round
                      else f"Round {roll_call.round} is paired: check-in is over.")
    if waitlisted:
        if not roll_call.takes_waitlist_check_ins(latest_round):
            raise Refusal("You are on the waitlist: the field is settled, see the organizer." if not by_staff
                          else "This player is on the waitlist: let them in first.")
    elif dropped:
        raise Refusal("You have dropped. See the organizer." if not by_staff
                      else "This player has dropped: bring them back in first.")
    if not by_staff and roll_call.closed(now, promoted_at):
        raise Refusal("Check-in closed. See the organizer at the desk.")

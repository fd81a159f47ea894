"""A player's state in an event, and the words each reader sees for it (docs/domain.md 19a): the one answer to
"where does this player stand?" that every page, phone, form, API answer, export, standings and statistic asks.

Pure code: the service (app/services/players/states.py) loads the facts (the player's drop and its reason, their
place in the waitlist's line, their check-in, a standing disqualification, whether they ever sat at a table) and
asks here. Nothing else works a state out from columns.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional


class DropReason(str, enum.Enum):
    """Who took a player out (Player.drop_reason); NULL in the database reads as PLAYER (an older or imported
    event's drop, whose reason nobody recorded)."""

    PLAYER = "player"  # the player, from their link
    ORGANIZER = "organizer"  # the TO or staff, from the players page
    NO_SHOW = "no_show"  # a roll call, for not checking in
    DISQUALIFIED = "disqualified"  # a disqualification (the penalty is the truth: a voided one leaves ORGANIZER)


class State(str, enum.Enum):
    """Every state a player can be in. `let_in` (from the waitlist) and `played` are facts beside it."""

    REGISTERED = "registered"  # in the event; no roll call asks anything of them now
    WAITING = "waiting"  # on the waitlist, with a position; never paired, never ranked
    CHECKED_IN = "checked_in"  # a roll call is running and they checked in
    NOT_CHECKED_IN = "not_checked_in"  # a roll call is running, they have not checked in, its deadline is open
    MISSED = "missed"  # a roll call's deadline passed without their check-in: dropped at pairing if the TO chose
    NO_SHOW = "no_show"  # dropped by a roll call
    DROPPED = "dropped"  # dropped themselves
    DROPPED_BY_TO = "dropped_by_to"
    DISQUALIFIED = "disqualified"


class Reader(str, enum.Enum):
    PLAYER = "player"  # the player themselves (their link)
    PUBLIC = "public"  # other players, the public pages, the API
    STAFF = "staff"  # the TO and their staff


OUT = frozenset({State.NO_SHOW, State.DROPPED, State.DROPPED_BY_TO, State.DISQUALIFIED})
IN = frozenset({State.REGISTERED, State.CHECKED_IN, State.NOT_CHECKED_IN, State.MISSED})


@dataclass(frozen=True)
class Facts:
    """What the database says of one player, as plain values."""

    dropped: bool = False
    drop_reason: Optional[DropReason] = None
    waiting_position: Optional[int] = None  # their place in the waitlist's line (1: next); None: not waiting
    let_in: bool = False  # they came in from the waitlist
    disqualified: bool = False  # a standing (not voided) disqualification
    played: bool = False  # they sat at a table (or had a bye) in some swiss round
    roll_call_running: bool = False  # a roll call is under way (its round not paired yet)
    checked_in: bool = False  # at that roll call
    roll_call_closed: bool = False  # its deadline has passed for this player


@dataclass(frozen=True)
class PlayerState:
    state: State
    position: Optional[int] = None  # WAITING: 1 for the next to be let in
    let_in: bool = False
    played: bool = False
    checked_in: bool = False  # the running roll call has their check-in (a waiting player's too)

    @property
    def waiting(self) -> bool:
        return self.state is State.WAITING

    @property
    def out(self) -> bool:
        """Out of the event: no more pairings (a no-show, a drop, a disqualification)."""
        return self.state in OUT

    @property
    def pairable(self) -> bool:
        """In the next pairing (the roll call's no-show drop aside, which pairing applies first)."""
        return self.state in IN

    @property
    def disqualified(self) -> bool:
        return self.state is State.DISQUALIFIED

    @property
    def did_not_play(self) -> bool:
        """Out before they ever sat at a table: not in the event's results (no rank, not in "place N of M", not
        in the NRTM file, the statistics or a series' field size)."""
        return self.out and not self.played

    @property
    def ranked(self) -> bool:
        """Holds a placing among those who played: waiting players, players who never played and disqualified
        players have none (a disqualified player is listed after everyone, without a placing)."""
        return not self.waiting and not self.did_not_play and not self.disqualified

    @property
    def may_report(self) -> bool:
        """Report or confirm their table's result from their link: a disqualified player's part is over; a
        dropped player may still settle the round they played."""
        return self.state is not State.DISQUALIFIED and not self.waiting

    @property
    def may_drop(self) -> bool:
        return self.state in IN

    @property
    def may_call_judge(self) -> bool:
        return self.state is not State.DISQUALIFIED and not self.waiting

    @property
    def may_check_in(self) -> bool:
        """Their phone's check-in button shows (the roll call's own rules decide whether it is accepted): waiting
        players check in while they wait, so a place freed at pairing goes to one who is here."""
        return self.state is State.NOT_CHECKED_IN or (self.state is State.WAITING and not self.checked_in)

    @property
    def present(self) -> bool:
        """Checked in at the running roll call: in the field, or waiting and first in line for a place freed at
        pairing (app/core/check_in.py pairing_plan)."""
        return self.checked_in and self.state in (State.CHECKED_IN, State.WAITING)

    def words(self, reader: Reader) -> str:
        return words(self, reader)


def state_of(facts: Facts) -> PlayerState:
    """The one rule: a waiting player waits (the waitlist's drop is its mechanism, not a drop); a disqualified
    player is disqualified whatever else is true; a drop says who made it; a player in is checked in, not yet, or
    past the deadline while a roll call runs, else registered."""
    f = facts
    if f.disqualified:
        state = State.DISQUALIFIED
    elif f.waiting_position is not None:
        return PlayerState(State.WAITING, f.waiting_position, False, f.played,
                           checked_in=f.roll_call_running and f.checked_in)
    elif f.dropped:
        reason = f.drop_reason or DropReason.PLAYER
        state = {DropReason.PLAYER: State.DROPPED, DropReason.ORGANIZER: State.DROPPED_BY_TO,
                 DropReason.NO_SHOW: State.NO_SHOW,
                 DropReason.DISQUALIFIED: State.DROPPED_BY_TO}[DropReason(reason)]  # a voided DQ: the TO's drop
    elif f.roll_call_running:
        state = (State.CHECKED_IN if f.checked_in else State.MISSED if f.roll_call_closed
                 else State.NOT_CHECKED_IN)
    else:
        state = State.REGISTERED
    return PlayerState(state, None, f.let_in, f.played, checked_in=state is State.CHECKED_IN)


def _position(n: Optional[int]) -> str:
    return f"waitlist position {n}" if n else "on the waitlist"


# What each reader is told: the player in the second person, others in the third; a penalty's private part (a
# disqualification) only to the player and the staff. An empty string: nothing worth saying.
_WORDS = {
    State.REGISTERED: ("registered", "", "registered"),
    State.CHECKED_IN: ("checked in", "", "checked in"),
    State.NOT_CHECKED_IN: ("not checked in yet: check in on your page", "", "not checked in"),
    State.MISSED: ("check-in closed without you: see the organizer at the desk", "", "did not check in"),
    State.NO_SHOW: ("dropped: you did not check in. See the organizer", "dropped", "no-show (dropped)"),
    State.DROPPED: ("you dropped", "dropped", "dropped (by the player)"),
    State.DROPPED_BY_TO: ("dropped by the organizer", "dropped", "dropped (by staff)"),
    State.DISQUALIFIED: ("disqualified: see the head judge", "dropped", "disqualified"),
}


def words(ps: PlayerState, reader: Reader) -> str:
    """The words a reader sees for the state ("You: waitlist position 2"; "Ana (dropped)"; "no-show")."""
    reader = Reader(reader)
    if ps.state is State.WAITING:
        here = ", checked in" if ps.checked_in else ""
        return {Reader.PLAYER: _position(ps.position) + here, Reader.PUBLIC: "waiting",
                Reader.STAFF: _position(ps.position) + here}[reader]
    text = _WORDS[ps.state][[Reader.PLAYER, Reader.PUBLIC, Reader.STAFF].index(reader)]
    if reader is Reader.STAFF and ps.did_not_play and ps.state is not State.DISQUALIFIED:
        text += ", did not play"
    if reader is Reader.STAFF and ps.let_in and not ps.out:
        text += " (let in from the waitlist)"
    return text

"""Self-registration: players enter an event from its public page, within the TO's settings (open or closed,
a cap on active players, a waitlist beyond it, late entry after round 1), and edit their entry through their link before
round 1.

A registration takes the tournament lock first (app/services/locks.py), so registrations of one event go one at
a time: the cap and the name check see every earlier registration, on PostgreSQL and SQLite. The unique name key
in the database remains the last word.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import Player, Tournament
from . import players as roster
from .entries import Details, write_details
from ..check_in import settings as check_in_settings
from ..check_in import waitlist
from ...core.check_in import Entry, free_places
from ..locks import lock_tournament
from ..online import handles


class RegistrationError(ValueError):
    """Why nothing was registered or changed, in words for the player."""


class NameTaken(RegistrationError):
    pass


class HandleRefused(RegistrationError):
    """An online event's jinteki.net username missing or another player's (app/services/online/handles.py)."""


def _check_handle(t: Tournament, jinteki_name: str, except_id: int | None = None) -> None:
    try:
        handles.check(t, jinteki_name, required=True, except_id=except_id)
    except handles.HandleRefused as e:
        db.session.rollback()
        raise HandleRefused(str(e)) from None


@dataclass(frozen=True)
class Status:
    open: bool
    reason: str = ""              # why it is closed
    places_left: int | None = None
    late: bool = False            # open after round 1: a new player joins the next pairing
    waitlist: bool = False        # full: a new player joins the waitlist (app/services/check_in/waitlist.py)

    @property
    def label(self) -> str:
        return "open" if self.open else "closed"


def status(t: Tournament) -> Status:
    if not t.registration_open:
        return Status(False, "Registration is closed.")
    if t.cut_kind:
        return Status(False, "Registration is closed: the top cut has started.")
    started = roster.rounds_started(t)
    if started and not t.late_registration:
        return Status(False, "Registration closed when round 1 started. Ask the organizer.")
    left = None
    if t.registration_cap:
        keeps = check_in_settings.keeps_waitlist(t)
        entry = waitlist.arrival(t, keeps, started)
        if entry is Entry.REFUSED:
            return Status(False, f"The event is full ({t.registration_cap} players). Ask the organizer.")
        if entry is Entry.WAITLIST:
            return Status(True, places_left=0, late=started, waitlist=True)
        waiting = waitlist.waiting_count(t) if keeps and not started else 0  # they take the next free places
        left = max(0, free_places(t.registration_cap, roster.active_count(t)) - waiting)
    return Status(True, places_left=left, late=started)


def _commit(t: Tournament, name: str, player: Player, waiting: bool = False) -> None:
    try:
        if waiting:  # its place in line needs the new row's id
            db.session.flush()
            waitlist.enqueue(t, player)
        db.session.commit()
    except IntegrityError as e:  # another request took the name first (the lock makes this rare)
        db.session.rollback()
        clash = roster.is_name_clash(e) and roster.holder_of(t, name, except_id=player.id)
        raise NameTaken(roster.taken_message(clash.name if clash else name)) from None


def register(t: Tournament, name: str, **details) -> Player:
    """A new player of `t`, committed; RegistrationError (nothing written) when closed, full or the name is taken.
    `details`: the entry's other fields (entries.Details)."""
    details = Details(name, **details)
    t = lock_tournament(t)
    state = status(t)
    if not state.open:
        db.session.rollback()
        raise RegistrationError(state.reason)
    clash = roster.holder_of(t, name)
    if clash:
        db.session.rollback()
        raise NameTaken(roster.taken_message(clash.name))
    _check_handle(t, details.jinteki_name)
    player = Player(tournament_id=t.id, self_registered=True, dropped=state.waitlist)  # waiting: dropped, never paired
    write_details(t, player, details)
    db.session.add(player)
    _commit(t, name, player, waiting=state.waitlist)
    return player


def may_edit(t: Tournament) -> bool:
    return not roster.rounds_started(t)


def edit(t: Tournament, player: Player, name: str, **details) -> None:
    """A player's own change to their entry, before round 1 only. `details`: the entry's other fields
    (entries.Details)."""
    details = Details(name, **details)
    t = lock_tournament(t)
    if not may_edit(t):
        db.session.rollback()
        raise RegistrationError("Round 1 has started: ask the organizer to change your entry.")
    db.session.refresh(player)
    clash = roster.holder_of(t, name, except_id=player.id)
    if clash:
        db.session.rollback()
        raise NameTaken(roster.taken_message(clash.name))
    _check_handle(t, details.jinteki_name, except_id=player.id)
    write_details(t, player, details)
    _commit(t, name, player)

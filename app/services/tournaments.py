"""A tournament created, its settings changed, and the tournament deleted: one transaction per action."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..extensions import db
from ..models import Tournament, User
from . import decklists
from .check_in import settings as check_in_settings
from .check_in import waitlist
from .locks import lock_tournament
from .players.players import rounds_started


@dataclass(frozen=True)
class Settings:
    """What the TO sets on the event's form (app/web/forms/tournaments.py reads it)."""

    name: str
    date: dt.date
    format: str
    score_factor: str
    planned_rounds: int | None = None
    round_minutes: int | None = None  # None: the length stays as it was
    tiebreakers: str | None = None
    power_pairing: bool = False
    single_report: bool = False
    registration_open: bool = False
    registration_cap: int | None = None
    late_registration: bool = False
    abr_id: int | None = None
    online: bool = False
    seed_by_rating: bool = False
    waitlist: bool = False


class Refused(ValueError):
    """Nothing was changed; the reason for the form's `field`."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def _apply(t: Tournament, s: Settings) -> None:
    t.name, t.date, t.format, t.score_factor, t.planned_rounds = s.name, s.date, s.format, s.score_factor, \
        s.planned_rounds
    if s.round_minutes is not None:
        t.round_minutes = s.round_minutes
    t.tiebreakers, t.power_pairing, t.single_report = s.tiebreakers, s.power_pairing, s.single_report
    t.registration_open, t.registration_cap, t.late_registration = s.registration_open, s.registration_cap, \
        s.late_registration
    t.abr_id, t.online, t.seed_by_rating = s.abr_id, s.online, s.seed_by_rating


def create(owner: User, settings: Settings) -> Tournament:
    t = Tournament(owner_id=owner.id)
    _apply(t, settings)
    db.session.add(t)
    db.session.flush()  # the waitlist's row names the new id
    check_in_settings.keep_waitlist(t, settings.waitlist)
    db.session.commit()
    return t


@dataclass(frozen=True)
class Changed:
    judged: int  # decklists judged again under the rules of a new date
    let_in: list[str]  # from the waitlist, by a raised cap


def change(t: Tournament, settings: Settings) -> Changed:
    """The new settings, under the event's lock (the waitlist switch shares its row with the check-in page). The card
    pool and list in force follow the date: a new date judges the stored lists again. Refused: a new format once
    round 1 exists."""
    t = lock_tournament(t)
    if settings.format != t.format and rounds_started(t):
        db.session.rollback()
        raise Refused("format", "The format cannot change once round 1 exists.")
    old_date = t.date
    _apply(t, settings)
    check_in_settings.keep_waitlist(t, settings.waitlist)
    judged = decklists.judge_again(t) if t.date != old_date else 0
    db.session.commit()
    let_in = waitlist.fill(t)  # a raised cap lets the waitlist in
    db.session.commit()
    return Changed(judged, let_in)


def delete(t: Tournament) -> None:
    """The event with all its players, rounds and results."""
    db.session.delete(t)
    db.session.commit()

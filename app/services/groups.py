"""Event groups: an organizer's events of one weekend under one public page (/g/<slug>).

A group belongs to the account that made it, and holds only that account's own events (staff of an event do not
own it, so they cannot put it in a group); an event is in one group at most (the database refuses a second one,
whatever races). Each event keeps its own format, players, staff and pages: the group only lists them, by date
(then the start of their schedule's first day, when they have one, then name), each with its state.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..core.names import name_key
from ..models import EventGroup, EventGroupMember, ScheduleDay, Tournament, as_utc, max_length
from . import next_step
from .players import registration
from . import cut as cut_service
from .results import standings as results_standings
from .swiss.rounds import round_summaries

SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])")  # 3-40 characters, dashes inside
NAME_MAX = max_length(EventGroup.name)
MAX_EVENTS = 20  # a weekend's events, not a season's (that is a series)


class GroupError(Exception):
    """A refused change; str() is the message for the organizer."""


def check_slug(slug: str) -> str:
    slug = (slug or "").strip().lower()
    if not SLUG.fullmatch(slug):
        raise GroupError("The address must be 3 to 40 letters (a-z), digits or dashes, starting and ending with a "
                         "letter or digit, like worlds-2026.")
    return slug


def owned(user_id: int) -> list[EventGroup]:
    return list(db.session.scalars(sa.select(EventGroup).where(EventGroup.owner_id == user_id)
                                   .order_by(EventGroup.created_at.desc(), EventGroup.id.desc())))


def by_slug(slug: str) -> Optional[EventGroup]:
    return db.session.scalars(sa.select(EventGroup).where(EventGroup.slug == slug)).first()


def group_of(t: Tournament) -> Optional[EventGroup]:
    """The group `t` belongs to, if any."""
    return db.session.scalars(sa.select(EventGroup).join(EventGroupMember)
                              .where(EventGroupMember.tournament_id == t.id)).first()


def _commit_slug() -> None:
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise GroupError("That address is taken: choose another.") from None


def create(owner_id: int, name: str, slug: str = "") -> EventGroup:
    group = EventGroup(owner_id=owner_id, name=name.strip())
    if slug:
        group.slug = check_slug(slug)
    db.session.add(group)
    _commit_slug()
    return group


def update(group: EventGroup, name: str, slug: str) -> None:
    """Rename the group and change its public address (an old printed QR code then stops working)."""
    slug = check_slug(slug)
    group.name = name.strip()
    group.slug = slug
    _commit_slug()


def delete(group: EventGroup) -> None:
    """The group goes; its events stay as they are."""
    db.session.delete(group)
    db.session.commit()


def addable(group: EventGroup) -> list[Tournament]:
    """The owner's own events in no group yet, newest first: what the add form offers."""
    return list(db.session.scalars(
        sa.select(Tournament).where(Tournament.owner_id == group.owner_id,
                                    ~sa.exists().where(EventGroupMember.tournament_id == Tournament.id))
        .order_by(Tournament.date.desc(), Tournament.id.desc())))


def add(group: EventGroup, tournament_id: int) -> Tournament:
    """Put one of the owner's own events at the end of the group. Refused for another account's event (its staff
    included), one already in a group, or a full group."""
    t = db.session.get(Tournament, tournament_id)
    if t is None or t.owner_id != group.owner_id:
        raise GroupError("Only your own events can join your group.")
    if group_of(t) is not None:
        raise GroupError(f"{t.name} is already in a group.")
    count = len(group.members)
    if count >= MAX_EVENTS:
        raise GroupError(f"A group holds {MAX_EVENTS} events at most.")
    last = max((m.position for m in group.members), default=-1)
    db.session.add(EventGroupMember(group_id=group.id, tournament_id=t.id, position=last + 1))
    try:
        db.session.commit()
    except IntegrityError:  # another request put it in a group first
        db.session.rollback()
        raise GroupError(f"{t.name} is already in a group.") from None
    return t


def _member(group: EventGroup, tournament_id: int) -> EventGroupMember:
    member = next((m for m in group.members if m.tournament_id == tournament_id), None)
    if member is None:
        raise GroupError("That event is not in this group.")
    return member


def remove(group: EventGroup, tournament_id: int) -> None:
    db.session.delete(_member(group, tournament_id))
    db.session.commit()


class State:
    """Where an event stands, as the group page says it."""
    NOT_STARTED = "not started"
    REGISTRATION = "registration open"
    ROUND = "round"
    CUT = "cut"
    FINISHED = "finished"


@dataclass(frozen=True)
class EventLine:
    """One event on the group page."""
    tournament: Tournament
    state: str  # a State
    label: str  # "Round 3 of 6", "Top 8 cut", "Finished: champion Ana", "Registration open"


def event_line(t: Tournament) -> EventLine:
    """The event's state from the services that decide it (registration, the next step, the cut)."""
    summaries = round_summaries(t, published_only=True)
    if t.cut_kind:
        progress = cut_service.progress(t)
        if progress is not None and progress.champion:
            return EventLine(t, State.FINISHED, f"Finished: champion {progress.champion}")
        size = f"Top {progress.size} cut" if progress is not None else "Top cut"
        return EventLine(t, State.CUT, size + (f", bracket round {progress.round}" if progress and progress.round
                                               else ""))
    facts = next_step.facts_for(t, round_summaries(t))
    if next_step.decide(facts).kind == next_step.FINISHED:
        return EventLine(t, State.FINISHED, "Finished")
    if summaries:
        planned = next_step.swiss_rounds(facts)
        of = f" of {planned}" if planned and planned >= summaries[-1].number else ""
        return EventLine(t, State.ROUND, f"Round {summaries[-1].number}{of}")
    if registration.status(t).open:
        return EventLine(t, State.REGISTRATION, "Registration open")
    return EventLine(t, State.NOT_STARTED, "Not started")


@dataclass(frozen=True)
class FinalPlace:
    """A player's end of a finished event, as the group page's entry says it instead of their last table."""
    rank: Optional[int]  # None: in no final standings (never played): "finished"
    of: int
    champion: bool


def final_place(t: Tournament, player) -> Optional[FinalPlace]:
    """None while the event still runs; once it is finished as the group page says it (`event_line`: the swiss
    over with no cut pending, or the cut decided), the player's final place: the cut's final standings, else the
    swiss standings of the published rounds."""
    if event_line(t).state != State.FINISHED:
        return None
    if t.cut_kind:
        cut = cut_service.load(t)
        rows = [(r["player"], r["rank"], r["champion"]) for r in cut.final_standings()] if cut is not None else []
    else:
        rows = [(s.player, s.rank, False) for s in results_standings.standings(t, published_only=True).rows]
    mine = next((r for r in rows if r[0] == player.id), None)
    if mine is None:
        return FinalPlace(None, len(rows), False)
    return FinalPlace(mine[1], len(rows), mine[2])


def events(group: EventGroup) -> list[Tournament]:
    """The group's events in the order its pages list them: by date, then the start of their schedule's first day
    (events with one first), then name, then the order they were added."""
    members = list(group.members)
    ids = [m.tournament_id for m in members]
    starts = dict(db.session.execute(
        sa.select(ScheduleDay.tournament_id, ScheduleDay.starts_at)
        .where(ScheduleDay.tournament_id.in_(ids), ScheduleDay.number == 1)).all()) if ids else {}

    def key(pair):
        position, t = pair
        start = starts.get(t.id)
        return (t.date, start is None, as_utc(start).timestamp() if start is not None else 0, name_key(t.name),
                position)

    return [t for _, t in sorted(enumerate(m.tournament for m in members), key=key)]


def lines(group: EventGroup) -> list[EventLine]:
    return [event_line(t) for t in events(group)]

"""The TO's plan in the database: read as the core's values, replaced whole (one transaction under the event's
lock), and the event's time zone (times stored in UTC, shown in it)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from typing import Optional
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import sqlalchemy as sa

from ...core import schedule as rule
from ...core.standings import recommended_rounds
from ...extensions import db
from ...models import Player, Round, ScheduleDay, ScheduleItem, Tournament, as_utc
from ..locks import lock_tournament


class ScheduleError(ValueError):
    """A refused plan; str() is the message for the TO. Nothing was written."""


@lru_cache(maxsize=1)
def zones() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows, sorted."""
    return tuple(sorted(available_timezones() | {"UTC"}))


DEFAULT_ZONE = "UTC"  # Tournament.time_zone's default


def zone_unchosen(t: Tournament, plan: "Plan") -> bool:
    """The TO never chose a time zone: the event's is still the default and no plan was ever saved with one (a
    saved plan stores its zone). Then the schedule form offers the browser's own zone (static/schedule_zone.js)."""
    return t.time_zone == DEFAULT_ZONE and not plan


def checked_zone(name: str) -> str:
    """A time zone name this machine knows (zoneinfo), else ScheduleError."""
    if name not in zones():
        raise ScheduleError("Pick a time zone from the list.")
    return name


def zone(t: Tournament) -> ZoneInfo:
    """The event's time zone; UTC if its name is unknown here (a file from a machine with newer data)."""
    return _zone(t.time_zone)


def local(t: Tournament, moment: datetime) -> datetime:
    return as_utc(moment).astimezone(zone(t))


def at(zone_name: str, day: date, clock: time) -> datetime:
    """A wall-clock time on a date in a time zone (the event's), as aware UTC (a time skipped by a clock change
    moves on)."""
    return datetime.combine(day, clock, tzinfo=ZoneInfo(zone_name)).astimezone(ZoneInfo("UTC"))


@dataclass(frozen=True)
class Plan:
    days: tuple[rule.Day, ...]
    items: tuple[rule.Item, ...]

    def __bool__(self) -> bool:
        return bool(self.days)


def load(t: Tournament) -> Plan:
    days = db.session.scalars(sa.select(ScheduleDay).filter_by(tournament_id=t.id).order_by(ScheduleDay.number))
    items = db.session.scalars(sa.select(ScheduleItem).filter_by(tournament_id=t.id).order_by(ScheduleItem.position))
    return Plan(tuple(rule.Day(d.number, as_utc(d.starts_at), d.turnaround) for d in days),
                tuple(rule.Item(i.day, rule.Kind(i.kind), i.minutes, i.label, i.fixed_end) for i in items))


def last_date(t: Tournament) -> date:
    """The event's last day (local): the schedule's last day, or the event's date without a schedule."""
    last = db.session.scalar(sa.select(sa.func.max(ScheduleDay.starts_at)).where(ScheduleDay.tournament_id == t.id))
    return max(t.date, local(t, last).date()) if last is not None else t.date


def save(t: Tournament, time_zone: str, days: list[rule.Day], items: list[rule.Item]) -> None:
    """Replace the plan and the event's time zone, checked by the rule first; all or nothing."""
    checked_zone(time_zone)
    try:
        rule.check(days, items)
    except rule.PlanError as e:
        raise ScheduleError(str(e)) from None
    t = lock_tournament(t)
    t.time_zone = time_zone
    replace(t.id, days, items)
    db.session.commit()


def replace(tid: int, days, items) -> None:
    db.session.execute(sa.delete(ScheduleItem).where(ScheduleItem.tournament_id == tid))
    db.session.execute(sa.delete(ScheduleDay).where(ScheduleDay.tournament_id == tid))
    db.session.add_all([ScheduleDay(tournament_id=tid, number=d.number, starts_at=d.starts_at,
                                    turnaround=d.turnaround) for d in days])
    db.session.add_all([ScheduleItem(tournament_id=tid, position=i, day=it.day, kind=it.kind.value,
                                     minutes=it.minutes, label=it.label, fixed_end=it.fixed_end)
                        for i, it in enumerate(items, 1)])


def clear(t: Tournament) -> None:
    t = lock_tournament(t)
    db.session.execute(sa.delete(ScheduleItem).where(ScheduleItem.tournament_id == t.id))
    db.session.execute(sa.delete(ScheduleDay).where(ScheduleDay.tournament_id == t.id))
    t.version = (t.version or 0) + 1
    db.session.commit()


STANDARD_START = time(10, 0)


def standard_day(t: Tournament, zone_name: Optional[str] = None) -> Plan:
    """The one-click template (app/core/schedule.py standard_day) for this event: its planned rounds (or the
    recommended number for its field), its round length, starting at 10:00 local on its date (in `zone_name`,
    else the event's zone). Not saved: `fill_standard_day` saves it."""
    active = db.session.scalar(sa.select(sa.func.count()).select_from(Player)
                               .where(Player.tournament_id == t.id, Player.dropped.is_(False))) or 0
    rounds = t.planned_rounds or max(3, recommended_rounds(active))
    days, items = rule.standard_day(at(zone_name or zone(t).key, t.date, STANDARD_START), min(rounds, 20),
                                    minutes=t.round_minutes)
    return Plan(tuple(days), tuple(items))


def fill_standard_day(t: Tournament, offered_zone: str = "") -> str:
    """The standard day saved as the event's plan; returns the time zone it was saved in. Refused (ScheduleError,
    nothing written) over an existing plan. `offered_zone`: the browser's own zone, taken only while the TO never
    chose one (`zone_unchosen`), checked against zoneinfo first."""
    plan = load(t)
    if plan:
        raise ScheduleError("This event has a schedule already: clear it first to start from the standard day.")
    name = t.time_zone
    if offered_zone and zone_unchosen(t, plan):
        name = checked_zone(offered_zone)
    template = standard_day(t, name)
    save(t, name, list(template.days), list(template.items))
    return name


def planned_rounds_note(t: Tournament, plan: Plan) -> Optional[str]:
    """A word for the TO when the plan's swiss rounds differ from the event's planned number."""
    n = sum(1 for it in plan.items if it.kind == rule.Kind.ROUND)
    if plan and t.planned_rounds and n != t.planned_rounds:
        return f"The schedule has {n} swiss rounds; the event plans {t.planned_rounds}."
    return None


@dataclass(frozen=True)
class Running:
    """An event under way today (its local today): which of its days this is, of how many."""

    tournament_id: int
    day: int
    days: int


def running(now: datetime, ids: Optional[list[int]] = None) -> dict[int, Running]:
    """Events whose schedule has a day today in their own time zone, by id (one query; `ids` narrows it): a
    two-day event is "on now" on day 2 as on day 1, whatever its date says."""
    query = (sa.select(ScheduleDay.tournament_id, ScheduleDay.number, ScheduleDay.starts_at, Tournament.time_zone)
             .join(Tournament, Tournament.id == ScheduleDay.tournament_id)
             .where(ScheduleDay.starts_at.between(now - timedelta(days=2), now + timedelta(days=2))))
    if ids is not None:
        query = query.where(ScheduleDay.tournament_id.in_(ids))
    out = {}
    for tid, number, starts_at, zone_name in db.session.execute(query):
        tz = _zone(zone_name)
        if as_utc(starts_at).astimezone(tz).date() == now.astimezone(tz).date():
            out[tid] = number
    if not out:
        return {}
    totals = dict(db.session.execute(sa.select(ScheduleDay.tournament_id, sa.func.count())
                                     .where(ScheduleDay.tournament_id.in_(list(out)))
                                     .group_by(ScheduleDay.tournament_id)).all())
    return {tid: Running(tid, day, totals[tid]) for tid, day in out.items()}


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def running_events(now: datetime) -> list[tuple[Tournament, Running]]:
    """The events under way today with a published round (what the site's front page lists as on now)."""
    on = running(now)
    if not on:
        return []
    events = db.session.scalars(
        sa.select(Tournament).where(Tournament.id.in_(list(on)),
                                    sa.exists().where(Round.tournament_id == Tournament.id, Round.published))
        .order_by(Tournament.name)).all()
    return [(t, on[t.id]) for t in events]

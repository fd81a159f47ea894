"""The schedule in a backup, under its own key `schedule` (optional on restore: absent, no schedule, UTC, and the
rounds' starts unknown): the event's time zone, the plan's days and items, and when each round began."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import sqlalchemy as sa

from ...core import schedule as rule
from ...extensions import db
from ...models import Round, Tournament, as_utc
from ..event_files import jsonfile as j
from . import plan as plans


@dataclass
class Carried:
    time_zone: str = "UTC"
    days: list = field(default_factory=list)
    items: list = field(default_factory=list)
    round_starts: dict = field(default_factory=dict)  # round number -> aware UTC


def _time(moment) -> str:
    return as_utc(moment).isoformat(timespec="seconds")


def dump(t: Tournament) -> dict:
    plan = plans.load(t)
    starts = db.session.execute(sa.select(Round.number, Round.started_at)
                                .where(Round.tournament_id == t.id, Round.started_at.is_not(None))
                                .order_by(Round.number)).all()
    return {"time_zone": t.time_zone,
            "days": [{"number": d.number, "starts_at": _time(d.starts_at), "turnaround": d.turnaround}
                     for d in plan.days],
            "items": [{"day": i.day, "kind": i.kind.value, "minutes": i.minutes, "label": i.label,
                       "fixed_end": i.fixed_end} for i in plan.items],
            "round_starts": {str(n): _time(s) for n, s in starts}}


def read(raw) -> Optional[Carried]:
    """The key checked as strictly as the rest of the file; None when absent."""
    if raw is None:
        return None
    raw = j.obj(raw, "schedule")
    zone = j.text(raw.get("time_zone", "UTC"), "schedule time_zone", 64)
    if zone not in plans.zones():
        raise j.FileError(f"schedule time_zone {zone[:40]!r} is not a time zone this server knows")
    days = []
    for i, d in enumerate(j.array(raw.get("days", []), "schedule days"), 1):
        d = j.obj(d, f"schedule day {i}")
        days.append(rule.Day(j.integer(d.get("number"), f"schedule day {i} number", 1, rule.MAX_DAYS),
                             j.iso_time(d.get("starts_at"), f"schedule day {i} starts_at"),
                             j.integer(d.get("turnaround"), f"schedule day {i} turnaround", 0, rule.MAX_TURNAROUND)))
    items = []
    for i, it in enumerate(j.array(raw.get("items", []), "schedule items"), 1):
        it = j.obj(it, f"schedule item {i}")
        where = f"schedule item {i}"
        items.append(rule.Item(j.integer(it.get("day"), f"{where} day", 1, rule.MAX_DAYS),
                               rule.Kind(j.choice(it.get("kind"), f"{where} kind", tuple(k.value for k in rule.Kind))),
                               j.integer(it.get("minutes"), f"{where} minutes", 1, rule.MAX_MINUTES),
                               j.text(it.get("label", ""), f"{where} label", 60),
                               j.boolean(it.get("fixed_end", False), f"{where} fixed_end")))
    if days or items:
        try:
            rule.check(days, items)
        except rule.PlanError as e:
            raise j.FileError(f"schedule: {e}") from None
    starts = {}
    for key, value in j.obj(raw.get("round_starts", {}), "schedule round_starts").items():
        if not (key.isascii() and key.isdigit() and 1 <= int(key) <= 10000):
            raise j.FileError(f"schedule round_starts should name rounds by number, not {key[:20]!r}")
        starts[int(key)] = j.iso_time(value, f"schedule round_starts {key}")
    return Carried(zone, days, items, starts)


def write(tid: int, carried: Optional[Carried]) -> None:
    """Inside the restore's transaction, after its rounds are written."""
    if carried is None:
        return
    db.session.execute(sa.update(Tournament).where(Tournament.id == tid).values(time_zone=carried.time_zone)
                       .execution_options(synchronize_session=False))
    if carried.days:
        plans.replace(tid, carried.days, carried.items)
    for number, start in carried.round_starts.items():
        db.session.execute(sa.update(Round).where(Round.tournament_id == tid, Round.number == number)
                           .values(started_at=start).execution_options(synchronize_session=False))

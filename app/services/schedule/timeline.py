"""The schedule's estimate for an event now: the real rounds read from the database (each published round's
start, the current round's clock, which rounds are over, the cut, the event's end) handed to the pure rule
(app/core/schedule.py estimate)."""
from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Callable, Optional

import sqlalchemy as sa

from ...core import clock as clock_rule
from ...core import schedule as rule
from ...core.kept import Kept
from ...extensions import db
from ...models import Round, Tournament, as_utc, utcnow
from .. import next_step
from ..swiss.rounds import round_summaries
from ..swiss.timer import clock_from_row, iso
from . import plan as plans


def progress(t: Tournament, now: datetime) -> rule.Progress:
    """What really happened: a published round began when its timer first started, else when it was published
    (rounds from before that was kept: when they were paired); a round is over once a later one is published or
    its results are all in."""
    rows = db.session.execute(
        sa.select(Round.number, Round.started_at, Round.created_at, Round.timer_state, Round.timer_ends_at,
                  Round.timer_remaining_ms)
        .where(Round.tournament_id == t.id, Round.published).order_by(Round.number)).all()
    started = {r.number: as_utc(r.started_at or r.created_at) for r in rows}
    finished = {r.number for r in rows[:-1]}
    summaries = round_summaries(t, published_only=True)
    if summaries and summaries[-1].matches and not summaries[-1].unreported:
        finished.add(summaries[-1].number)
    ends = {}
    if rows:
        last = rows[-1]
        c = clock_from_row(last.timer_state, last.timer_ends_at, last.timer_remaining_ms)
        if c.state is not None:
            ends[last.number] = now + timedelta(milliseconds=clock_rule.remaining_ms(c, now))
    return rule.Progress(started=started, clock_ends=ends, finished=frozenset(finished),
                         cut_started=t.cut_kind is not None, over=next_step.event_over(t, plans.local(t, now).date()))


def for_event(t: Tournament, now: Optional[datetime] = None) -> Optional[rule.Timeline]:
    """The event's timeline now; None without a schedule."""
    plan = plans.load(t)
    if not plan:
        return None
    now = now or utcnow()
    return rule.estimate(plan.days, plan.items, progress(t, now), now)


_KEPT: Kept = Kept(256)  # (event, slug, version, minute) -> timeline: phones in a hall ask the same minute
_TAGS: Kept = Kept(256)  # (slug, version, minute) -> the "Next:" line's tag (next_tag)


def kept(t: Tournament) -> Optional[rule.Timeline]:
    """for_event for this minute, computed once per event, version and minute (a timer's start bumps no version:
    the next minute sees it)."""
    now = minute_now()
    # the slug too: a deleted event's id may come back (SQLite)
    return _KEPT.get((t.id, t.slug, t.version, now), lambda: for_event(t, now))


def next_tag(slug: str, version: int, load: Callable[[], Optional[Tournament]]) -> str:
    """A short tag of what the one-line "Next: round 4 at about 14:20" says this minute (what comes next, when,
    on which local day it is read), for a player's page's ETag: from the event's slug and version alone, so the
    poll's 304 costs no query; `load` gives the event on the first ask of a minute."""
    now = minute_now()

    def make() -> str:
        t = load()
        found = kept(t) if t is not None else None
        up = found.next if found is not None else None
        said = "none" if up is None else "|".join(
            (up.kind, up.at.isoformat(), str(up.slot.round), up.slot.name, plans.local(t, now).date().isoformat()))
        return hashlib.blake2b(said.encode(), digest_size=4).hexdigest()

    return _TAGS.get((slug, version, now), make)


def planned(t: Tournament) -> Optional[rule.Timeline]:
    """The plan alone (nothing started): the times the TO announced."""
    plan = plans.load(t)
    if not plan:
        return None
    return rule.estimate(plan.days, plan.items, rule.Progress(), plan.days[0].starts_at)


def minute_now() -> datetime:
    """Now, up to the next whole minute: estimates stay the same for a minute (so do pages' and answers' ETags),
    and are never before the real now."""
    now = utcnow()
    return now.replace(second=0, microsecond=0) + timedelta(minutes=1) if now.second or now.microsecond else now


def as_api(t: Tournament, tl: Optional[rule.Timeline]) -> dict:
    """The read-only API's view (docs/api.md): the event's time zone, its days, each item's planned and expected
    times (ISO 8601 UTC) and state, and what comes next."""
    if tl is None:
        return {"time_zone": t.time_zone, "days": [], "items": [], "next": None}

    def item(s: rule.Slot) -> dict:
        return {"day": s.item.day, "kind": s.item.kind.value, "name": s.name, "round": s.round,
                "minutes": s.item.minutes, "fixed_end": s.item.fixed_end, "state": s.state.value,
                "planned_start": iso(s.planned_start), "planned_end": iso(s.planned_end),
                "start": iso(s.start), "end": iso(s.end)}

    return {"time_zone": t.time_zone,
            "days": [{"number": d.number, "starts_at": iso(d.starts_at), "turnaround": d.turnaround} for d in tl.days],
            "items": [item(s) for s in tl.slots],
            "next": None if tl.next is None else {"kind": tl.next.kind, "at": iso(tl.next.at),
                                                   "item": tl.slots.index(tl.next.slot)}}

"""The event's schedule and its estimate (docs/domain.md section 16): pure, no Flask, no SQL.

The TO plans days (each with its start) holding items in order: swiss rounds, the top cut and breaks. Nothing
but the day's start is typed as a time: each item follows the one before it (a round after a round waits the
turnaround; a break or a cut follows at once), so one late round moves everything behind it, and the plan never
contradicts itself. The same walk gives the planned times (no round started yet, the clock far in the past) and
the estimate (the real starts and clocks known so far, and now).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from itertools import pairwise
from typing import Mapping, Optional

MAX_DAYS = 7
MAX_ITEMS = 60
MAX_MINUTES = 600  # an item's length, and the turnaround, as the round clock's limit (app/core/clock.py)
MAX_TURNAROUND = 120


class Kind(StrEnum):
    ROUND = "round"  # a swiss round: the k-th round item of the plan is round k
    CUT = "cut"      # the top cut (or a block of it)
    BREAK = "break"  # lunch, a dinner break, a player meeting


class State(StrEnum):
    DONE = "done"
    NOW = "now"
    COMING = "coming"


class PlanError(ValueError):
    """A plan the rule refuses; str() is the message for the TO."""


@dataclass(frozen=True, slots=True)
class Day:
    number: int
    starts_at: datetime  # aware (UTC)
    turnaround: int = 10  # minutes between the end of a round and the start of the next


@dataclass(frozen=True, slots=True)
class Item:
    day: int
    kind: Kind
    minutes: int
    label: str = ""
    fixed_end: bool = False  # a break that ends at its planned end even if it starts late (the TO's choice)


@dataclass(frozen=True, slots=True)
class Progress:
    """What really happened so far, as plain values.

    started: round number -> when it began (its timer's first start, else its publication).
    clock_ends: round number -> when its clock says it ends (running: the end; paused: now + what is left;
    called: now). finished: the rounds whose play is over (all results in, or a later round started).
    cut_started: the top cut exists. over: the event is over."""

    started: Mapping[int, datetime] = field(default_factory=dict)
    clock_ends: Mapping[int, datetime] = field(default_factory=dict)
    finished: frozenset[int] = frozenset()
    cut_started: bool = False
    over: bool = False


@dataclass(frozen=True, slots=True)
class Slot:
    item: Item
    round: Optional[int]  # the swiss round's number, for a round item
    planned_start: datetime
    planned_end: datetime
    start: datetime  # real once started, else estimated
    end: datetime
    state: State

    @property
    def name(self) -> str:
        if self.item.kind == Kind.ROUND:
            return f"Round {self.round}"
        return self.item.label or ("Top cut" if self.item.kind == Kind.CUT else "Break")


@dataclass(frozen=True, slots=True)
class NextUp:
    """What the phones' line says. kind: "item" (Next: round 4 at about 14:20), "break" (Lunch until 13:30, while
    it runs), "day" (Day 2 starts Sunday 10:00)."""

    kind: str
    slot: Slot
    at: datetime  # the item's start; a running break's end; the day's start


@dataclass(frozen=True, slots=True)
class Timeline:
    days: tuple[Day, ...]
    slots: tuple[Slot, ...]
    next: Optional[NextUp]

    def day_slots(self, number: int) -> tuple[Slot, ...]:
        return tuple(s for s in self.slots if s.item.day == number)

    @property
    def current_day(self) -> Optional[int]:
        """The day a phone cares about: the one holding what runs now or comes next; the last once all is done."""
        for s in self.slots:
            if s.state != State.DONE:
                return s.item.day
        return self.slots[-1].item.day if self.slots else None


def check(days: list[Day] | tuple[Day, ...], items: list[Item] | tuple[Item, ...]) -> None:
    """Refuse a plan that cannot be walked: raise PlanError with the reason."""
    if not 1 <= len(days) <= MAX_DAYS:
        raise PlanError(f"A schedule has from 1 to {MAX_DAYS} days.")
    if [d.number for d in days] != list(range(1, len(days) + 1)):
        raise PlanError("Days are numbered 1, 2, 3 in order.")
    for a, b in pairwise(days):
        if b.starts_at <= a.starts_at:
            raise PlanError(f"Day {b.number} must start after day {a.number}.")
    for d in days:
        if d.starts_at.tzinfo is None:
            raise PlanError("A day's start needs its time zone.")
        if not 0 <= d.turnaround <= MAX_TURNAROUND:
            raise PlanError(f"The turnaround is from 0 to {MAX_TURNAROUND} minutes.")
    if len(items) > MAX_ITEMS:
        raise PlanError(f"A schedule holds at most {MAX_ITEMS} items.")
    last_day = 1
    for it in items:
        if not 1 <= it.day <= len(days):
            raise PlanError(f"There is no day {it.day}.")
        if it.day < last_day:
            raise PlanError("Items are listed day by day.")
        last_day = it.day
        if not 1 <= it.minutes <= MAX_MINUTES:
            raise PlanError(f"An item lasts from 1 to {MAX_MINUTES} minutes.")
        if it.fixed_end and it.kind != Kind.BREAK:
            raise PlanError("Only a break can have a fixed end.")
    kinds = [it.kind for it in items]
    if Kind.CUT in kinds and Kind.ROUND in kinds[kinds.index(Kind.CUT):]:
        raise PlanError("Swiss rounds come before the top cut.")


def standard_day(starts_at: datetime, rounds: int, minutes: int = 65, turnaround: int = 10,
                 lunch_after: int = 3, lunch_minutes: int = 45) -> tuple[list[Day], list[Item]]:
    """The one-click template: one day of `rounds` swiss rounds, a lunch after round `lunch_after` (when more
    rounds follow it). The TO edits it like any plan."""
    items: list[Item] = []
    for n in range(1, rounds + 1):
        items.append(Item(1, Kind.ROUND, minutes))
        if n == lunch_after and n < rounds:
            items.append(Item(1, Kind.BREAK, lunch_minutes, "Lunch"))
    return [Day(1, starts_at, turnaround)], items


def estimate(days: list[Day] | tuple[Day, ...], items: list[Item] | tuple[Item, ...],
             progress: Progress, now: datetime) -> Timeline:
    """The timeline: each item's planned times, and its real or estimated times from what happened and now.

    Forward walk, item by item (docs/domain.md 16):
    - a day's first item starts at the day's start, or when the day before ends if that is later;
    - a round after a round starts `turnaround` minutes after it ends; anything else starts when the item before ends;
    - a started round keeps its real start; one not started is never estimated before now;
    - a round ends at its clock's end if it has one, else `minutes` after its start; one still being played never
      ends before now, a finished one never after now;
    - a break keeps its length (a late start ends it late), unless it has a fixed end: then it ends at its planned
      end, or at once if it starts later than that;
    - the cut's first item counts as started once the cut exists and its day has begun (a cut made on day 1 for
      day 2 is coming, at its planned start at the earliest); every swiss round is done once the cut exists.
    A backward pass then makes what came before a really started item end no later than that start (the TO moved
    on: the facts win), so the order always holds."""
    check(days, items)
    planned = _walk(days, items, Progress(), None)
    real = _walk(days, items, progress, now)
    slots: list[Slot] = []
    begun = max((i for i, r in enumerate(real) if r[2]), default=-1)  # the last item that really began
    for i, it in enumerate(items):
        number, (start, end), started = real[i]
        pstart, pend = planned[i][1]
        if progress.over or i < begun:
            state = State.DONE  # a later item began: this one is over
        elif it.kind == Kind.ROUND:
            over = number in progress.finished or progress.cut_started
            state = State.DONE if over else State.NOW if started else State.COMING
        elif it.kind == Kind.CUT:
            state = State.NOW if started else State.COMING
        elif slots and slots[-1].state != State.DONE:
            state = State.COMING  # a break begins once what comes before it is over
        else:
            state = State.DONE if end <= now else State.NOW if start <= now else State.COMING
        slots.append(Slot(it, number, pstart, pend, start, end, state))
    return Timeline(tuple(days), tuple(slots), None if progress.over else _next(days, slots, now))


def _walk(days, items, progress: Progress, now: Optional[datetime]) -> list:
    """[(round number or None, (start, end), really started?)] per item; now=None: the plan alone."""
    out: list = []
    turnaround = {d.number: timedelta(minutes=d.turnaround) for d in days}
    day_start = {d.number: d.starts_at for d in days}
    prev_end: Optional[datetime] = None
    prev: Optional[Item] = None
    rounds = 0
    cut_seen = False
    for it in items:
        number = None
        if it.kind == Kind.ROUND:
            rounds += 1
            number = rounds
        if prev is None or prev.day != it.day:
            chain = day_start[it.day] if prev_end is None else max(day_start[it.day], prev_end)
        elif it.kind == Kind.ROUND and prev.kind == Kind.ROUND:
            assert prev_end is not None  # set with prev
            chain = prev_end + turnaround[it.day]
        else:
            chain = prev_end
        length = timedelta(minutes=it.minutes)
        started = False
        if number is not None and number in progress.started:
            start, started = progress.started[number], True
        elif it.kind == Kind.CUT and progress.cut_started and not cut_seen and (now is None
                                                                               or now >= day_start[it.day]):
            start, started = chain, True  # a cut made the evening before its day waits for that day
        elif it.kind == Kind.ROUND and progress.cut_started:
            start, started = chain, True  # a swiss round before the cut: played (its time unknown)
        else:
            start = chain if now is None or it.kind == Kind.BREAK else max(chain, now)
        if it.kind == Kind.CUT:
            cut_seen = True
        if it.kind == Kind.BREAK:
            end = start + length
            if it.fixed_end and now is not None:
                planned_end = _planned_end(days, items, it, len(out))
                end = max(start, planned_end)
        else:
            end = progress.clock_ends.get(number, start + length) if number is not None else start + length
            if now is not None:
                done = (number in progress.finished) or (it.kind == Kind.ROUND and progress.cut_started)
                end = min(end, now) if done and started else max(end, now) if started else end
            end = max(end, start)
        out.append((number, (start, end), started))
        prev, prev_end = it, end
    if now is not None:  # the facts win: nothing ends after a later item really began
        for i in range(len(out) - 2, -1, -1):
            nxt_start = out[i + 1][1][0]
            number, (start, end), started = out[i]
            if end > nxt_start:
                end = nxt_start
                start = min(start, end)
                out[i] = (number, (start, end), started)
    return out


def _planned_end(days, items, it: Item, index: int) -> datetime:
    """A fixed-end break's planned end: the plan alone, walked up to it."""
    return _walk(days, items[:index + 1], Progress(), None)[index][1][1]


def _next(days, slots: list[Slot], now: datetime) -> Optional[NextUp]:
    for i, s in enumerate(slots):
        if s.state == State.NOW and s.item.kind == Kind.BREAK:
            return NextUp("break", s, s.end)
        if s.state == State.COMING:
            before = slots[i - 1] if i else None
            if before is not None and before.item.day != s.item.day and before.state == State.DONE:
                day = next(d for d in days if d.number == s.item.day)
                return NextUp("day", s, max(day.starts_at, s.start))
            return NextUp("item", s, s.start)
    return None

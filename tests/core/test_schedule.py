"""The schedule's estimate (app/core/schedule.py, docs/domain.md 16): examples a TO would check by hand, and
properties over random plans and progress."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.schedule import (Day, Item, Kind, PlanError, Progress, State, check, estimate, standard_day)

T0 = datetime(2026, 5, 2, 9, 0, tzinfo=timezone.utc)


def m(minutes: int) -> timedelta:
    return timedelta(minutes=minutes)


def test_the_standard_day_plans_rounds_turnarounds_and_lunch():
    days, items = standard_day(T0, 5)
    tl = estimate(days, items, Progress(), T0 - m(60))
    assert [s.name for s in tl.slots] == ["Round 1", "Round 2", "Round 3", "Lunch", "Round 4", "Round 5"]
    starts = [s.planned_start for s in tl.slots]
    assert starts == [T0, T0 + m(75), T0 + m(150), T0 + m(215), T0 + m(260), T0 + m(335)]
    assert tl.slots == tuple(s for s in tl.slots if s.start == s.planned_start)  # nothing happened: the plan
    assert tl.next.kind == "item" and tl.next.slot.round == 1 and tl.next.at == T0


def test_a_late_round_moves_what_follows_and_lunch_keeps_its_length():
    days, items = standard_day(T0, 5)
    late = T0 + m(150 + 20)  # round 3 started 20 minutes late
    now = late + m(30)
    progress = Progress(started={1: T0, 2: T0 + m(75), 3: late}, clock_ends={3: late + m(65)},
                        finished=frozenset({1, 2}))
    tl = estimate(days, items, progress, now)
    r3, lunch, r4 = tl.slots[2:5]
    assert r3.state == State.NOW and r3.start == late and r3.end == late + m(65)
    assert lunch.start == r3.end and lunch.end - lunch.start == m(45)
    assert r4.start == lunch.end == r4.planned_start + m(20)
    assert tl.next.kind == "item" and tl.next.slot is lunch


def test_a_running_break_says_until_when_and_a_fixed_end_shortens_it():
    days = [Day(1, T0, 10)]
    items = [Item(1, Kind.ROUND, 60), Item(1, Kind.BREAK, 30, "Lunch", fixed_end=True), Item(1, Kind.ROUND, 60)]
    # round 1 ran 10 minutes long; results all in; it is 5 minutes into lunch
    progress = Progress(started={1: T0}, clock_ends={1: T0 + m(70)}, finished=frozenset({1}))
    tl = estimate(days, items, progress, T0 + m(75))
    lunch = tl.slots[1]
    assert lunch.state == State.NOW and lunch.end == T0 + m(90)  # its planned end: 20 minutes, not 30
    assert tl.next.kind == "break" and tl.next.at == T0 + m(90)
    items[1] = Item(1, Kind.BREAK, 30, "Lunch")
    tl = estimate(days, items, progress, T0 + m(75))
    assert tl.slots[1].end == T0 + m(100)


def test_day_two_waits_for_its_start_and_is_announced():
    day2 = T0 + timedelta(days=1)
    days = [Day(1, T0), Day(2, day2)]
    items = [Item(1, Kind.ROUND, 60), Item(1, Kind.ROUND, 60), Item(2, Kind.CUT, 180, "Top 8")]
    progress = Progress(started={1: T0, 2: T0 + m(70)}, finished=frozenset({1, 2}))
    tl = estimate(days, items, progress, T0 + m(200))
    assert tl.next.kind == "day" and tl.next.at == day2 and tl.next.slot.name == "Top 8"
    assert tl.current_day == 2 and [s.name for s in tl.day_slots(2)] == ["Top 8"]
    tl = estimate(days, items, Progress(started={1: T0, 2: T0 + m(70)}, finished=frozenset({1, 2}),
                                        cut_started=True), day2 + m(30))
    assert [s.state for s in tl.slots] == [State.DONE, State.DONE, State.NOW] and tl.next is None


def test_a_cut_made_on_day_one_for_day_two_is_coming_on_day_two_not_now():
    """The TO makes the top 4 on day 1's evening; the plan has it on day 2 at 9:00: it is not "now 9:00-11:30" on
    day 1 but day 2's first item, announced as such; on day 2 at its start it runs."""
    day2 = T0 + timedelta(days=1)
    days = [Day(1, T0), Day(2, day2)]
    items = [Item(1, Kind.ROUND, 60), Item(1, Kind.ROUND, 60), Item(2, Kind.CUT, 150, "Top 4")]
    done = Progress(started={1: T0, 2: T0 + m(70)}, finished=frozenset({1, 2}), cut_started=True)
    tl = estimate(days, items, done, T0 + m(200))
    cut = tl.slots[2]
    assert [s.state for s in tl.slots] == [State.DONE, State.DONE, State.COMING]
    assert (cut.start, cut.end) == (day2, day2 + m(150))
    assert tl.next.kind == "day" and tl.next.at == day2 and tl.next.slot is cut
    # day 2, ten minutes before the start: still coming, at its planned start
    tl = estimate(days, items, done, day2 - m(10))
    assert tl.slots[2].state == State.COMING and tl.slots[2].start == day2
    # day 2 has begun: the cut runs
    tl = estimate(days, items, done, day2 + m(5))
    assert tl.slots[2].state == State.NOW and tl.slots[2].start == day2 and tl.next is None


def test_a_round_started_early_ends_the_break_before_it():
    days, items = standard_day(T0, 5)
    r4 = T0 + m(230)  # lunch was to end at 240
    progress = Progress(started={1: T0, 2: T0 + m(75), 3: T0 + m(150), 4: r4}, finished=frozenset({1, 2, 3}))
    tl = estimate(days, items, progress, r4 + m(5))
    assert tl.slots[3].state == State.DONE and tl.slots[3].end == r4


@pytest.mark.parametrize("days, items, message", [
    ([], [], "from 1 to"),
    ([Day(1, T0), Day(2, T0)], [], "must start after"),
    ([Day(1, T0)], [Item(2, Kind.ROUND, 60)], "no day 2"),
    ([Day(1, T0)], [Item(1, Kind.ROUND, 0)], "lasts from"),
    ([Day(1, T0)], [Item(1, Kind.ROUND, 60, fixed_end=True)], "Only a break"),
    ([Day(1, T0)], [Item(1, Kind.CUT, 60), Item(1, Kind.ROUND, 60)], "before the top cut"),
    ([Day(1, T0.replace(tzinfo=None))], [], "time zone"),
])
def test_plans_that_cannot_be_walked_are_refused(days, items, message):
    with pytest.raises(PlanError, match=message):
        check(days, items)


@st.composite
def plans(draw):
    n_days = draw(st.integers(1, 3))
    days = [Day(d + 1, T0 + timedelta(days=d, minutes=draw(st.integers(0, 120))), draw(st.integers(0, 30)))
            for d in range(n_days)]
    items = []
    for d in range(1, n_days + 1):
        for _ in range(draw(st.integers(0, 5))):
            kind = draw(st.sampled_from([Kind.ROUND, Kind.ROUND, Kind.BREAK]))
            items.append(Item(d, kind, draw(st.integers(1, 120)), fixed_end=kind == Kind.BREAK and draw(st.booleans())))
    if draw(st.booleans()):
        items.append(Item(n_days, Kind.CUT, draw(st.integers(1, 300))))
    rounds = sum(1 for it in items if it.kind == Kind.ROUND)
    played = draw(st.integers(0, rounds))
    starts, t = {}, T0
    for r in range(1, played + 1):
        t += m(draw(st.integers(0, 200)))
        starts[r] = t
    clock = {}
    if played and draw(st.booleans()):
        clock[played] = starts[played] + m(draw(st.integers(0, 120)))
    finished = frozenset(range(1, played)) | (frozenset({played}) if played and draw(st.booleans()) else frozenset())
    progress = Progress(started=starts, clock_ends=clock, finished=finished,
                        cut_started=played == rounds and draw(st.booleans()))
    now = t + m(draw(st.integers(0, 600)))
    return days, items, progress, now


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(plans())
def test_estimates_keep_the_order_never_start_before_now_and_keep_breaks(plan):
    days, items, progress, now = plan
    tl = estimate(days, items, progress, now)
    assert [s.item for s in tl.slots] == items
    for a, b in zip(tl.slots, tl.slots[1:]):
        assert a.start <= a.end <= b.start
        assert b.start >= a.end or b.state != State.COMING
    for s in tl.slots:
        assert s.start <= s.end
        if s.round in progress.started and s.state == State.NOW:
            assert s.start == progress.started[s.round]  # a real start stands
        if s.state == State.COMING:
            assert s.start >= now  # what has not started is never estimated in the past
        if s.item.kind == Kind.BREAK and not s.item.fixed_end and s.state != State.DONE:
            assert s.end - s.start == m(s.item.minutes)  # a break is never shortened unless the TO says so
        if s.item.kind == Kind.BREAK and s.item.fixed_end:
            assert s.end == max(s.start, s.planned_end) or s.state == State.DONE
    states = [s.state for s in tl.slots]
    assert states == sorted(states, key=[State.DONE, State.NOW, State.COMING].index)  # done, then now, then coming
    if tl.next is not None:
        assert tl.next.at >= now

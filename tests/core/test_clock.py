"""The round clock's arithmetic: time left through starts, pauses, resumes, added and removed minutes, calls."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings, strategies as st

from app.core import clock
from app.core.clock import CALLED, PAUSED, RUNNING, Clock, ClockError

T0 = datetime(2026, 11, 23, 10, 0, tzinfo=timezone.utc)


def at(minutes=0, seconds=0, ms=0):
    return T0 + timedelta(minutes=minutes, seconds=seconds, milliseconds=ms)


def test_a_started_clock_counts_down_from_its_end_time():
    c = clock.start(Clock(), T0, 65)
    assert c == Clock(RUNNING, ends_at=at(65))
    assert clock.remaining_seconds(c, T0) == 65 * 60
    assert clock.remaining_seconds(c, at(10, 30)) == 54 * 60 + 30
    assert clock.remaining_seconds(c, at(64, 59, 1)) == 1  # rounded up: 0:00 only when time is really up
    assert clock.remaining_seconds(c, at(65)) == 0
    assert clock.remaining_seconds(c, at(90)) == 0  # never negative


def test_pause_freezes_and_resume_continues_where_it_stopped():
    c = clock.start(Clock(), T0, 65)
    paused = clock.pause(c, at(20, 0, 250))
    assert paused == Clock(PAUSED, remaining_ms=(45 * 60 - 0.25) * 1000)
    assert clock.remaining_ms(paused, at(200)) == 2_699_750  # however long the pause lasts
    resumed = clock.resume(paused, at(30))
    assert resumed.state == RUNNING and resumed.ends_at == at(30) + timedelta(milliseconds=2_699_750)
    assert clock.remaining_seconds(resumed, at(30)) == 2700  # 44:59.75 shows as 45:00
    assert clock.remaining_ms(resumed, at(74, 59, 750)) == 0


def test_adding_and_removing_minutes():
    c = clock.start(Clock(), T0, 65)
    more = clock.adjust(c, at(10), 5)
    assert clock.remaining_seconds(more, at(10)) == 60 * 60
    less = clock.adjust(more, at(10), -3)
    assert clock.remaining_seconds(less, at(10)) == 57 * 60
    assert clock.remaining_ms(clock.adjust(less, at(10), -100), at(10)) == 0  # never below 0:00
    paused = clock.adjust(clock.pause(c, at(5)), at(50), 2)
    assert paused == Clock(PAUSED, remaining_ms=62 * 60_000)
    assert clock.adjust(paused, at(50), -70) == Clock(PAUSED, remaining_ms=0)
    # time ran out, the TO adds two minutes: they count from now
    late = clock.adjust(c, at(70), 2)
    assert clock.remaining_seconds(late, at(70)) == 120


def test_call_time_stops_at_zero():
    c = clock.start(Clock(), T0, 65)
    assert clock.call(c, at(3)) == Clock(CALLED)
    assert clock.remaining_ms(Clock(CALLED), at(3)) == 0
    assert clock.call(clock.pause(c, at(1)), at(2)) == Clock(CALLED)
    # after time is called the TO may start a fresh round clock (e.g. a re-played game)
    assert clock.start(Clock(CALLED), at(5), 10) == Clock(RUNNING, ends_at=at(15))


@pytest.mark.parametrize("c, action, message", [
    (Clock(), lambda c: clock.pause(c, T0), "Only a running timer can be paused."),
    (Clock(RUNNING, ends_at=at(5)), lambda c: clock.resume(c, T0), "Only a paused timer can be resumed."),
    (Clock(RUNNING, ends_at=at(5)), lambda c: clock.start(c, T0, 65), "already running"),
    (Clock(PAUSED, remaining_ms=5), lambda c: clock.start(c, T0, 65), "paused"),
    (Clock(), lambda c: clock.adjust(c, T0, 5), "Start the timer"),
    (Clock(CALLED), lambda c: clock.adjust(c, T0, 5), "Start the timer"),
    (Clock(), lambda c: clock.call(c, T0), "not running"),
    (Clock(CALLED), lambda c: clock.call(c, T0), "called already"),
    (Clock(), lambda c: clock.start(c, T0, 0), "from 1 to 600 minutes"),
    (Clock(), lambda c: clock.start(c, T0, 601), "from 1 to 600 minutes"),
    (Clock(RUNNING, ends_at=at(5)), lambda c: clock.adjust(c, T0, 0), "between 1 and 600"),
    (Clock(RUNNING, ends_at=at(5)), lambda c: clock.adjust(c, T0, 10**9), "between 1 and 600"),
])
def test_refused_actions_say_why(c, action, message):
    with pytest.raises(ClockError, match=message):
        action(c)


@pytest.mark.parametrize("fields", [
    dict(state="ticking"), dict(state=RUNNING), dict(state=PAUSED), dict(state=PAUSED, remaining_ms=-1),
    dict(state=None, ends_at=T0), dict(state=CALLED, remaining_ms=0), dict(state=RUNNING, ends_at=T0, remaining_ms=1),
])
def test_an_inconsistent_clock_cannot_be_built(fields):
    with pytest.raises(ValueError):
        Clock(**fields)


# A random day at the table: actions at increasing times, checked against a naive second-by-second model.
steps = st.lists(st.tuples(st.integers(0, 600_000),  # ms since the previous action
                           st.sampled_from(["pause", "resume", "add", "remove", "call", "start"]),
                           st.integers(1, 20)), max_size=25)


@settings(deadline=None)  # a loaded shared machine must not turn a slow example into a failure
@given(st.integers(1, 120), steps)
def test_remaining_time_matches_a_model_that_ticks(minutes, actions):
    now = T0
    c = clock.start(Clock(), now, minutes)
    left, running = minutes * 60_000, True  # the model: milliseconds left, and whether they are ticking
    for elapsed, action, n in actions:
        now += timedelta(milliseconds=elapsed)
        if running:
            left = max(0, left - elapsed)
        assert clock.remaining_ms(c, now) == left
        try:
            if action == "pause":
                c = clock.pause(c, now)
                running = False
            elif action == "resume":
                c = clock.resume(c, now)
                running = True
            elif action in ("add", "remove"):
                c = clock.adjust(c, now, n if action == "add" else -n)
                left = max(0, left + (n if action == "add" else -n) * 60_000)
            elif action == "call":
                c = clock.call(c, now)
                left, running = 0, False
            else:
                c = clock.start(c, now, n)
                left, running = n * 60_000, True
        except ClockError:
            pass  # refused: the model stays as it was
        assert clock.remaining_ms(c, now) == left
        assert clock.remaining_seconds(c, now) == -(-left // 1000)


@pytest.mark.parametrize("seconds, shown", [(0, "0:00"), (-5, "0:00"), (9, "0:09"), (65, "1:05"), (3900, "65:00"),
                                            (5999, "99:59"), (6000, "1:40:00"), (36000, "10:00:00")])
def test_clock_text(seconds, shown):
    from app.core.clock import clock_text
    assert clock_text(seconds) == shown

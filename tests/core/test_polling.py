"""app/core/polling.py: the player pages' check interval by the event's size."""
from hypothesis import given, strategies as st

from app.core.polling import Pace, check_interval_ms, pace


def test_a_club_night_checks_at_the_floor():
    assert check_interval_ms(40, 2000, 500) == 2000
    assert check_interval_ms(1000, 2000, 500) == 2000


def test_a_grand_prix_checks_less_often():
    assert check_interval_ms(1001, 2000, 500) == 2002
    assert check_interval_ms(10_000, 2000, 500) == 20_000


def test_no_ceiling_keeps_the_floor():
    assert check_interval_ms(10_000, 2000, 0) == 2000


@given(st.integers(0, 10**6), st.integers(1, 60_000), st.integers(1, 10_000))
def test_the_pages_together_never_ask_more_than_the_ceiling(players, floor_ms, per_second):
    interval = check_interval_ms(players, floor_ms, per_second)
    assert interval >= floor_ms
    assert players * 1000 <= interval * per_second  # checks a second = players / (interval / 1000)
    assert interval == floor_ms or (players * 1000) > (interval - 1) * per_second  # no longer than it must be


def test_a_club_night_asks_at_once_after_a_publish_and_a_grand_prix_spreads_it():
    assert pace(40, 2000, 500) == Pace(2000, 0)
    assert pace(10_000, 2000, 250) == Pace(40_000, 18_000)  # the first checks after it at twice the steady rate
    assert pace(600, 2000, 250) == Pace(2400, 0)  # a stretched interval, a burst the floor takes

"""The schedule's time zones (app/services/schedule/plan.py): wall-clock times in the event's zone, stored as UTC;
only zones this machine knows."""
from __future__ import annotations

from datetime import date, datetime, time, timezone

import pytest

from app.services.schedule.plan import ScheduleError, at, checked_zone, zones


def test_a_wall_clock_time_in_the_events_zone_is_stored_as_utc():
    assert at("Europe/Berlin", date(2026, 1, 10), time(10, 0)) == datetime(2026, 1, 10, 9, 0, tzinfo=timezone.utc)
    assert at("Europe/Berlin", date(2026, 7, 10), time(10, 0)) == datetime(2026, 7, 10, 8, 0, tzinfo=timezone.utc)
    # 02:30 does not exist on the spring-forward night: it moves on to 03:30 local, 01:30 UTC
    assert at("Europe/Berlin", date(2026, 3, 29), time(2, 30)) == datetime(2026, 3, 29, 1, 30,
                                                                             tzinfo=timezone.utc)


def test_only_known_zones_are_taken():
    assert "UTC" in zones() and zones() == tuple(sorted(zones()))
    assert checked_zone("Europe/Berlin") == "Europe/Berlin"
    with pytest.raises(ScheduleError, match="Pick a time zone"):
        checked_zone("Mars/Olympus")

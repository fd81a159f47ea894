"""The schedule form (app/web/forms/schedule.py) read into the rule's values: days in date order in the event's
zone, blank and removed rows left out, a round's length the event's by default, a half-filled row a field error."""
from __future__ import annotations

from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from app.core.schedule import Kind
from app.web.forms.schedule import ScheduleForm

EVENT = SimpleNamespace(round_minutes=65, time_zone="Europe/Berlin")


def test_days_in_date_order_and_items_by_day_then_order(submit):
    form = submit(ScheduleForm, time_zone="Europe/Berlin",
                  **{"days-0-date": "2026-06-14", "days-0-start": "10:00", "days-0-turnaround": "15",
                     "days-1-date": "2026-06-13", "days-1-start": "09:30",
                     "items-0-order": "20", "items-0-day": "1", "items-0-kind": "round",
                     "items-1-order": "10", "items-1-day": "1", "items-1-kind": "break", "items-1-minutes": "30",
                     "items-1-label": " Lunch ", "items-1-fixed_end": "y",
                     "items-2-kind": "", "items-2-minutes": "40"})
    assert form.ok, form.errors
    days, items = form.plan(EVENT)
    assert [(d.number, d.starts_at, d.turnaround) for d in days] == [
        (1, datetime(2026, 6, 13, 7, 30, tzinfo=timezone.utc), 10),  # summer time: UTC+2; 10 by default
        (2, datetime(2026, 6, 14, 8, 0, tzinfo=timezone.utc), 15)]
    assert [(i.kind, i.minutes, i.label, i.fixed_end) for i in items] == [
        (Kind.BREAK, 30, "Lunch", True), (Kind.ROUND, 65, "", False)]


def test_a_half_filled_day_or_a_break_without_length_is_a_field_error(submit):
    form = submit(ScheduleForm, time_zone="UTC", **{"days-0-date": "2026-06-13"})
    with pytest.raises(ValueError):
        form.plan(EVENT)
    assert form.days[0].form.start.errors == ["Give the day's date and start."]
    form = submit(ScheduleForm, time_zone="UTC", **{"items-0-kind": "break"})
    with pytest.raises(ValueError):
        form.plan(EVENT)
    assert form.items[0].form.minutes.errors == ["How long does it last?"]


def test_an_unknown_zone_is_refused(submit):
    assert not submit(ScheduleForm, time_zone="Mars/Olympus").ok

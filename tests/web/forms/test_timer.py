"""The timer's buttons (app/web/forms/timer.py): minutes within the clock's limit; adjusting needs a number."""
from __future__ import annotations

from app.core.clock import MAX_MINUTES
from app.web.forms.timer import AdjustForm, TimerForm


def test_start_length_is_optional_and_bounded(submit):
    assert submit(TimerForm).ok
    assert submit(TimerForm, minutes="65").minutes.data == 65
    assert submit(TimerForm, minutes=str(MAX_MINUTES + 1)).minutes.errors == [
        f"Between -{MAX_MINUTES} and {MAX_MINUTES} minutes."]


def test_adjust_takes_a_signed_number_and_needs_one(submit):
    assert submit(AdjustForm, minutes="-5").minutes.data == -5
    assert submit(AdjustForm).minutes.errors == ["How many minutes to add (or, negative, to remove)?"]

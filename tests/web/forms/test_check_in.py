"""The check-in settings (app/web/forms/check_in.py): the deadline is 0 to MAX_CLOSE_MINUTES from now, or none."""
from __future__ import annotations

from app.core.check_in import MAX_CLOSE_MINUTES, NoShows
from app.web.forms.check_in import SettingsForm


def test_deadline_within_bounds_or_empty(submit):
    form = submit(SettingsForm, enabled="y", closes_in="0", no_shows=NoShows.DECIDE.value)
    assert form.ok and form.closes_in.data == 0 and form.no_shows.data == NoShows.DECIDE.value
    assert submit(SettingsForm, enabled="y", closes_in="", no_shows=NoShows.DROP.value).closes_in.data is None


def test_a_deadline_past_the_limit_or_negative_is_refused(submit):
    assert not submit(SettingsForm, closes_in=str(MAX_CLOSE_MINUTES + 1), no_shows=NoShows.DROP.value).ok
    assert not submit(SettingsForm, closes_in="-1", no_shows=NoShows.DROP.value).ok
    assert not submit(SettingsForm, closes_in="5", no_shows="later").ok

"""The series settings form (app/web/forms/series.py): each tie-break once, and the settings it hands on."""
from __future__ import annotations

from app.core.series import TIE_BREAKS
from app.web.forms.series import ConfirmDeleteForm, SeriesForm

BREAKS = list(TIE_BREAKS)


def _settings(**more):
    body = {"name": " Autumn league ", "kind": "league", "points_table": "1st 10, 2nd 8", "participation": "",
            "best_n": "", "field_reference": "", "tiers": "", "invite_top": ""}
    body.update({f"tie_breaks-{i}": "" for i in range(len(BREAKS))})  # a browser sends every slot
    body.update(more)
    return body


def test_settings_read_back_with_defaults(submit):
    form = submit(SeriesForm, **_settings(**{"tie_breaks-0": BREAKS[0]}))
    assert form.ok, form.errors
    settings = form.settings()
    assert settings.name == "Autumn league" and settings.participation == "0" and settings.invite_top == 0
    assert settings.tie_breaks == (BREAKS[0],)


def test_a_tie_break_chosen_twice_is_refused(submit):
    form = submit(SeriesForm, **_settings(**{"tie_breaks-0": BREAKS[0], "tie_breaks-1": BREAKS[0]}))
    assert not form.ok and "Choose each tie-break once." in form.tie_breaks.errors


def test_deleting_needs_the_tick(submit):
    assert not submit(ConfirmDeleteForm).ok
    assert submit(ConfirmDeleteForm, confirm="y").ok

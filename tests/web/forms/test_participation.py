"""The player's result buttons (app/web/forms/participation.py): a table number and a short key."""
from __future__ import annotations

from app.web.forms.participation import PlayerReportForm, SlipReportForm


def test_a_table_and_a_key(submit):
    form = submit(PlayerReportForm, match="12", result="win")
    assert form.ok and form.match.data == 12


def test_missing_table_or_overlong_key_is_refused(submit):
    assert not submit(PlayerReportForm, result="win").ok
    assert not submit(PlayerReportForm, match="0", result="win").ok
    assert not submit(SlipReportForm, result="x" * 17).ok

"""The online event's fields (app/web/forms/online.py): handles within the column, a short code."""
from __future__ import annotations

from app.services.online.handles import HANDLE_MAX
from app.web.forms.online import ReportForm
from app.web.forms.players import EntryForm


def test_handles_are_trimmed_and_bounded(submit):
    form = submit(EntryForm, name="Ana", jinteki_name=" ana_j ", discord="ana#1")
    assert form.ok and form.jinteki_name.data == "ana_j"
    assert not submit(EntryForm, name="Ana", jinteki_name="x" * (HANDLE_MAX + 1)).ok


def test_report_address_code_is_short(submit):
    assert submit(ReportForm, who="ana_j", code=" ABC123 ").code.data == "ABC123"
    assert not submit(ReportForm, who="ana_j", code="x" * 21).ok

"""The player's judge call (app/web/forms/judge_calls.py): an optional one-line reason, bounded."""
from __future__ import annotations

from app.services.judge_calls import REASON_LENGTH
from app.web.forms.judge_calls import CallForm


def test_reason_is_optional_and_trimmed(submit):
    assert submit(CallForm).ok
    form = submit(CallForm, reason="  a missing card ")
    assert form.ok and form.reason.data == "a missing card"


def test_reason_too_long_or_with_a_line_break_is_refused(submit):
    assert not submit(CallForm, reason="x" * (REASON_LENGTH + 1)).ok
    assert not submit(CallForm, reason="two\nlines").ok

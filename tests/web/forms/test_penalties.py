"""The judge's forms (app/web/forms/penalties.py): notes keep their line breaks, a void's reason is one line, a
deck check's draw stays within its limits."""
from __future__ import annotations

from app.core.deck_checks import MAX_PICK, MAX_TOP_TABLES
from app.web.forms.penalties import DrawForm, VoidForm


def test_void_reason_is_trimmed_one_line_without_control_characters(submit):
    form = submit(VoidForm, reason="  wrong player \r\n")
    assert form.ok and form.reason.data == "wrong player"
    assert submit(VoidForm, reason="wrong\r\nplayer").reason.errors == ["One line, please."]
    assert not submit(VoidForm, reason="wrong\tplayer").ok
    assert submit(VoidForm, reason="  ").reason.errors == ["Say why the penalty is voided."]


def test_draw_counts_within_limits(submit):
    assert submit(DrawForm, count="2", pool="field", top_tables="4").ok
    assert not submit(DrawForm, count=str(MAX_PICK + 1), pool="field", top_tables="4").ok
    assert not submit(DrawForm, count="2", pool="field", top_tables=str(MAX_TOP_TABLES + 1)).ok
    assert not submit(DrawForm, count="2", pool="friends", top_tables="4").ok

"""The player forms (app/web/forms/players.py): a trimmed name within the column, an optional fixed table."""
from __future__ import annotations

from app.web.forms.players import MAX_TABLE, NAME_MAX, PlayerForm


def test_name_trimmed_and_table_optional(submit):
    form = submit(PlayerForm, name="  Ana  ", fixed_table="")
    assert form.ok and form.name.data == "Ana" and form.fixed_table.data is None
    assert submit(PlayerForm, name="Ana", fixed_table="3").fixed_table.data == 3


def test_blank_or_overlong_name_and_table_out_of_range_are_refused(submit):
    assert not submit(PlayerForm, name="   ").ok
    assert not submit(PlayerForm, name="x" * (NAME_MAX + 1)).ok
    assert not submit(PlayerForm, name="Ana", fixed_table=str(MAX_TABLE + 1)).ok
    assert not submit(PlayerForm, name="Ana", fixed_table="٣").ok  # digits 0-9 only (app/web/numbers.py)

"""The event group form (app/web/forms/groups.py): a name within the column, an optional address."""
from __future__ import annotations

from app.web.forms.groups import NAME_MAX, AddEventForm, GroupForm


def test_name_is_trimmed_and_the_address_optional(submit):
    form = submit(GroupForm, name="  Worlds weekend ", slug="")
    assert form.ok and form.name.data == "Worlds weekend"


def test_name_too_long_or_with_control_characters_is_refused(submit):
    assert not submit(GroupForm, name="x" * (NAME_MAX + 1)).ok
    assert not submit(GroupForm, name="Worlds\tweekend").ok


def test_adding_an_event_needs_one(submit):
    form = submit(AddEventForm)
    assert form.tournament.errors == ["Choose one of your events."]

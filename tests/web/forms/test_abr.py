"""The ABR event field (app/web/forms/abr.py): a number or an ABR address becomes the number; anything else is a
field error with words, not a stored zero."""
from __future__ import annotations

from flask_wtf import FlaskForm

from app.web.forms.abr import abr_event_field


class EventForm(FlaskForm):
    abr_event = abr_event_field()


def test_a_number_or_an_address_is_stored_as_the_number(submit):
    assert submit(EventForm, abr_event=" 1234 ").abr_event.data == 1234
    form = submit(EventForm, abr_event="https://alwaysberunning.net/tournaments/4321/some-event")
    assert form.ok and form.abr_event.data == 4321


def test_empty_is_none_and_garbage_is_refused(submit):
    assert submit(EventForm, abr_event="").abr_event.data is None
    for garbage in ("next week", "0", "https://alwaysberunning.net/results"):
        form = submit(EventForm, abr_event=garbage)
        assert not form.ok and "ABR event's number" in form.abr_event.errors[0]

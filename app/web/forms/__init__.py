"""WTForms forms (Flask-WTF: every POST carries a CSRF token, checked app-wide by CSRFProtect)."""
from __future__ import annotations

import re

import wtforms
from wtforms.validators import ValidationError

from ..numbers import whole_number

CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def strip(value):
    """Field filter: surrounding spaces never make a name different."""
    return value.strip() if isinstance(value, str) else value


def printable(form, field) -> None:
    """Refuse control characters (PostgreSQL rejects NUL outright, and none belongs in a name)."""
    if isinstance(field.data, str) and CONTROL.search(field.data):
        raise ValidationError("Remove the control characters (tabs, line breaks, NUL...).")


class IntegerField(wtforms.IntegerField):
    """WTForms' IntegerField read by app/web/numbers.py: ASCII digits (a leading minus allowed) within a 64-bit
    integer. WTForms' own takes "٣" as 3, fails on "³" in its own way, and passes a 20-digit number on to the
    database (SQLite's OverflowError, a 500); every form of the app imports this one instead."""

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        text = valuelist[0].strip() if isinstance(valuelist[0], str) else valuelist[0]
        self.data = whole_number(text, signed=True)
        if self.data is None:
            raise ValueError(self.gettext("Not a valid whole number (digits 0-9, at most 19 of them)."))

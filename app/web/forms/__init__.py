"""WTForms forms (Flask-WTF: every POST carries a CSRF token, checked app-wide by CSRFProtect)."""
from __future__ import annotations

import re

from wtforms.validators import ValidationError

CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def strip(value):
    """Field filter: surrounding spaces never make a name different."""
    return value.strip() if isinstance(value, str) else value


def printable(form, field) -> None:
    """Refuse control characters (PostgreSQL rejects NUL outright, and none belongs in a name)."""
    if isinstance(field.data, str) and CONTROL.search(field.data):
        raise ValidationError("Remove the control characters (tabs, line breaks, NUL...).")

"""Whole numbers a request names (an id in the address, a form's number, a query argument): one reading for all.

Only ASCII digits (an optional minus where a field allows it) are a number, and only within a 64-bit signed
integer, the widest column SQLite and PostgreSQL keep: "³" or "٣" (which str.isdigit calls digits and int() reads
or refuses), "1_000", " 7 " or a 20-digit id are no number, so a form says so and an address is a 404, before any
query (SQLite raised OverflowError on a 20-digit id: a 500)."""
from __future__ import annotations

import re

from werkzeug.routing import IntegerConverter

MAX_INT = 2**63 - 1
_WHOLE = re.compile(r"-?[0-9]{1,19}")
_NATURAL = re.compile(r"[0-9]{1,19}")


def whole_number(text: object, signed: bool = False) -> int | None:
    """`text` as an int when it is ASCII digits within MAX_INT (a leading minus only if `signed`), else None."""
    if not isinstance(text, str) or not (_WHOLE if signed else _NATURAL).fullmatch(text):
        return None
    value = int(text)
    return value if -MAX_INT <= value <= MAX_INT else None


class IdConverter(IntegerConverter):
    """Werkzeug's `<int:...>` with ASCII digits only and MAX_INT at most (its own takes any length and any script's
    digits): a larger number matches no route, a 404. Registered as `int` for the whole app (app/web/__init__.py)."""

    regex = r"[0-9]+"

    def __init__(self, map, fixed_digits: int = 0, min: int | None = None, max: int | None = MAX_INT,
                 signed: bool = False) -> None:
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=MAX_INT if max is None else max, signed=signed)

"""Reading uploaded JSON files that nobody vouches for: every value is checked, every error names its place."""
from __future__ import annotations

import json
import re
from datetime import date, datetime, timezone

CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class FileError(ValueError):
    """The uploaded file is not what it claims to be; nothing was written."""


def parse(data: bytes) -> object:
    try:
        return json.loads(data.decode("utf-8-sig"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise FileError(f"the file is not valid JSON ({e.__class__.__name__}: {str(e)[:120]})") from None


def _no_constant(name):
    raise ValueError(f"{name} is not a number")


def obj(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise FileError(f"{where} should be an object")
    return value


def array(value, where: str) -> list:
    if not isinstance(value, list):
        raise FileError(f"{where} should be a list")
    return value


def integer(value, where: str, minimum: int | None = None, maximum: int | None = None, null: bool = False):
    if value is None and null:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise FileError(f"{where} should be a whole number, not {json.dumps(value)[:40]}")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        bounds = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise FileError(f"{where} should be {bounds}, not {value}")
    return value


def text(value, where: str, max_len: int, null: bool = False, empty: bool = True):
    if value is None and null:
        return None
    if not isinstance(value, str):
        raise FileError(f"{where} should be text")
    value = value.strip()
    if CONTROL.search(value):
        raise FileError(f"{where} contains control characters (tabs, line breaks, NUL...)")
    if not value and not empty:
        raise FileError(f"{where} is empty")
    if len(value) > max_len:
        raise FileError(f"{where} is longer than {max_len} characters")
    return value


def boolean(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise FileError(f"{where} should be true or false")
    return value


def iso_date(value, where: str) -> date:
    if not isinstance(value, str):
        raise FileError(f"{where} should be a date like 2026-05-30")
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        raise FileError(f"{where} should be a date like 2026-05-30, not {value[:20]!r}") from None


def iso_time(value, where: str) -> datetime:
    """A moment with its offset (2026-05-30T14:05:00+00:00), as UTC."""
    example = "a time like 2026-05-30T14:05:00+00:00"
    if not isinstance(value, str) or len(value) > 40:
        raise FileError(f"{where} should be {example}")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise FileError(f"{where} should be {example}, not {value!r}") from None
    if moment.tzinfo is None:
        raise FileError(f"{where} should say its offset from UTC, like {example}")
    return moment.astimezone(timezone.utc)


def choice(value, where: str, options: tuple, null: bool = False):
    if value is None and null:
        return None
    if value not in options:
        raise FileError(f"{where} should be one of {', '.join(map(str, options))}")
    return value

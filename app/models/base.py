"""What every model module shares: the stored time in UTC, the 32-bit integer bound, the random keys new rows
take, and a column's length (the one home of every string limit: forms, templates, readers and docs read it here)."""
from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Optional


MAX_INT = 2**31 - 1  # ids, round numbers and tables are 32-bit INTEGER columns: a larger one cannot exist


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def as_utc(value: Optional[datetime]) -> Optional[datetime]:
    """A stored time as aware UTC, whatever the driver returned (SQLite gives naive datetimes back; only UTC is
    ever stored)."""
    if value is None:
        return None
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def new_slug() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")[:8].lower()


def new_slip_key() -> str:
    """An event's own key for its match slips' table codes (app/services/results/slip_codes.py)."""
    return secrets.token_hex(32)


def new_slip_ref() -> int:
    """What a round's slip codes name it by (Round.slip_ref): random, so it travels with the event and an undone,
    re-paired round never takes an earlier one's."""
    return secrets.randbelow(MAX_INT) + 1


def max_length(column) -> int:
    """A string column's length (`max_length(Player.name)`): the one number its form field, its template input,
    the file readers and the docs take, so a migration that changes the column changes all of them."""
    return column.type.length

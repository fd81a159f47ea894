"""Counting the SQL statements a piece of work sends, for the tests that bound them."""
from __future__ import annotations

from contextlib import contextmanager

from sqlalchemy import event as sa_event

from app.extensions import db


@contextmanager
def counted_statements():
    """Counts the SQL statements sent to the database (an executemany batch is one)."""
    counted = []

    def count(*_args):
        counted.append(1)

    sa_event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield counted
    finally:
        sa_event.remove(db.engine, "before_cursor_execute", count)

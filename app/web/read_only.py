"""Polls that only read run their statements outside a transaction.

A poll that a hall of phones asks thousands of times a minute reads a few facts and writes nothing. Inside a
transaction PostgreSQL adds two round trips to its statements (BEGIN before the first, ROLLBACK when the request
gives its connection back): a revalidated player check is then three round trips for one statement. Run in
autocommit, each statement is its own; it sees what was committed when it began, as it would inside the
transaction too (PostgreSQL's default isolation, READ COMMITTED, takes a snapshot per statement).

Only views that never write are marked (a write there would be saved at once, not at a commit); the mark is
outermost, before any login check reads the user. A request whose session already holds a transaction (a hook
read something first) keeps it. After the view the session gives its connection back, and SQLAlchemy resets
the isolation level as it returns to the pool: whatever runs next on it has its transaction again. SQLite's
statements are in-process calls and keep their transactions.
"""
from __future__ import annotations

import functools

from ..extensions import db

AUTOCOMMIT = {"isolation_level": "AUTOCOMMIT"}


def read_only(view):
    @functools.wraps(view)
    def run(*args, **kwargs):
        session = db.session()
        if session.in_transaction() or session.get_bind().dialect.name != "postgresql":
            return view(*args, **kwargs)
        session.connection(execution_options=AUTOCOMMIT)
        try:
            return view(*args, **kwargs)
        finally:
            session.close()  # the connection back to the pool, in transactions again; the next use begins one
    return run

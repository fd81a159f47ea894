"""Polls that only read run their statements outside a transaction.

A poll that a hall of phones asks thousands of times a minute reads a few facts and writes nothing. Inside a
transaction PostgreSQL adds two round trips to its statements (BEGIN before the first, ROLLBACK when the request
gives its connection back): a revalidated player check is then three round trips for one statement. Run in
autocommit, each statement is its own; it sees what was committed when it began, as it would inside the
transaction too (PostgreSQL's default isolation, READ COMMITTED, takes a snapshot per statement).

The switch is psycopg2's own (`autocommit` on the connection, set and unset in this request): SQLAlchemy's
isolation level option would have psycopg2 send a SET before each poll and another when the connection returns.
Only views that never write are marked (a write there would be saved at once, not at a commit); the mark is
outermost, before any login check reads the user. A request whose session already holds a transaction (a hook
read something first) keeps it. After the view the connection leaves autocommit and the session gives it back:
whatever runs next on it has its transaction again. SQLite's statements are in-process calls and keep their
transactions.
"""
from __future__ import annotations

import functools

from ..extensions import db


def read_only(view):
    @functools.wraps(view)
    def run(*args, **kwargs):
        session = db.session()
        if session.in_transaction() or session.get_bind().dialect.name != "postgresql":
            return view(*args, **kwargs)
        connection = session.connection()
        dbapi = connection.connection.dbapi_connection
        dbapi.autocommit = True
        try:
            return view(*args, **kwargs)
        finally:
            try:
                dbapi.autocommit = False  # before the connection goes back to the pool
            except connection.dialect.loaded_dbapi.Error:
                pass  # it died: the pool throws it away
            session.close()
    return run

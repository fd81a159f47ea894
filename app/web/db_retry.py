"""A dropped database connection (the server restarted, a proxy or the DBA cut it) is not the user's problem.

Two layers: a connection that dies during a read-only request (GET, HEAD) gets the request run once more on a
fresh one, since running a read twice changes nothing; and before a write (POST), or work outside a request, the
pool pings the connection it lends (a round trip) and replaces one that died while it sat in the pool. A read
skips that ping: a dead connection costs it the run again, while the ping would cost every poll of a hall of
phones a round trip. A write is never run again: its connection may have died during COMMIT, when nobody can know
whether it was saved, and a second run could save it twice. Its user gets a 503 page saying the connection
dropped and to check whether the change is there before trying again (docs/security.md, "A dropped database
connection").

A connection that dies after the view made its answer (between the last query and the request's teardown) is
met by the teardown's rollback: the answer stands, the dead connection is thrown away (the pool opens a fresh
one for the next request), and the drop is logged, never turned into a 500.
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import logging

from flask import Flask, has_request_context, request
from sqlalchemy import event
from sqlalchemy.exc import DBAPIError, DisconnectionError

from ..extensions import db

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
DROPPED = ("The connection to the database dropped while this was being saved. Check whether your change is "
           "there, then try again.")
log = logging.getLogger(__name__)
_READING = contextvars.ContextVar("sass_reading", default=False)  # a read outside a request (reading())


def dropped(error: BaseException) -> bool:
    return isinstance(error, DBAPIError) and bool(error.connection_invalidated)


def retrying(view):
    @functools.wraps(view)
    def run(*args, **kwargs):
        if request.method not in SAFE_METHODS:
            return view(*args, **kwargs)
        try:
            return view(*args, **kwargs)
        except DBAPIError as e:
            if not dropped(e):
                raise
            log.warning("database connection dropped during %s %s: running it again", request.method,
                        request.path)
            db.session.rollback()
            return view(*args, **kwargs)
    return run


@contextlib.contextmanager
def reading():
    """Work outside a request that only reads and is run again on a drop (app/web/player_checks.py): its
    connections are lent unpinged, as a GET's are."""
    token = _READING.set(True)
    try:
        yield
    finally:
        _READING.reset(token)


def release_session(error: BaseException | None = None) -> None:
    """The request's session given back, even over a connection that died after the view: registered after
    Flask-SQLAlchemy's own teardown, so it runs first (teardowns run in reverse), and that one finds nothing
    left to do."""
    try:
        db.session.remove()
    except DBAPIError as e:
        if not dropped(e):
            raise
        log.warning("database connection dropped after a request was answered: discarded")
        db.session.remove()  # the connection is invalidated now: giving it back touches no socket


def retry_reads(app: Flask) -> None:
    """Wrap every view (call after the blueprints are registered), and ping before lending a connection where a
    dead one would not be run again."""
    for endpoint, view in list(app.view_functions.items()):
        app.view_functions[endpoint] = retrying(view)
    app.teardown_appcontext(release_session)
    with app.app_context():
        engine = db.engine

    @event.listens_for(engine, "checkout")
    def ping_unless_read(dbapi_connection, record, proxy):
        if _READING.get() or (has_request_context() and request.method in SAFE_METHODS):
            return
        try:
            alive = engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as e:
            raise DisconnectionError("the connection died in the pool") from e
        if not alive:
            raise DisconnectionError("the connection died in the pool")  # the pool lends a fresh one

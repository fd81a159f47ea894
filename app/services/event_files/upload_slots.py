"""At most UPLOAD_SLOTS big uploads (restores, NRTM imports) at once, across every gunicorn worker.

A 2 MB file costs a worker a second or two of CPU and holds the database's attention meanwhile; anyone can sign
up, so without a bound a handful of simultaneous uploads would occupy every worker and the site would stop
answering. An upload beyond the bound is refused at once with Busy (503, "try again in a
moment") rather than queued, so it never ties up a worker while it waits.

The slots are try-locks that the operating system or the database releases if a worker dies mid-upload:
PostgreSQL session advisory locks on a connection of their own, or, for SQLite (one machine by definition),
flock() on files beside the database.
"""
from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError
from flask import current_app

from ...extensions import db

LOCK_SPACE = 0x5A55  # advisory locks (LOCK_SPACE, slot); an arbitrary number no other part of SASS uses


class Busy(Exception):
    """Too many uploads at once, or the database stayed locked: nothing was written; try again shortly."""

    message = "the server is busy with other uploads; try again in a moment"


@contextmanager
def upload_slot():
    """Holds one upload slot for the block, or raises Busy straight away when all are taken."""
    slots = current_app.config["UPLOAD_SLOTS"]
    if db.engine.dialect.name == "postgresql":
        with _advisory_slot(slots):
            yield
    else:
        with _file_slot(slots):
            yield


@contextmanager
def _advisory_slot(slots: int):
    conn = db.engine.connect()
    try:
        taken = None
        for slot in range(slots):
            if conn.execute(sa.select(sa.func.pg_try_advisory_lock(LOCK_SPACE, slot))).scalar():
                taken = slot
                break
        conn.commit()
        if taken is None:
            raise Busy()
        try:
            yield
        finally:
            try:
                conn.execute(sa.select(sa.func.pg_advisory_unlock(LOCK_SPACE, taken)))
                conn.commit()
            except SQLAlchemyError:
                conn.invalidate()  # the server ends the session, and with it the lock
    finally:
        conn.close()


@contextmanager
def _file_slot(slots: int):
    base = _lock_base()
    for slot in range(slots):
        fd = os.open(f"{base}.upload-slot-{slot}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        try:
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the lock
        return
    raise Busy()


def _lock_base() -> str:
    """Beside the SQLite file, so every process serving that database shares the slots."""
    database = db.engine.url.database
    if database and database != ":memory:":
        return str(Path(database).resolve())
    Path(current_app.instance_path).mkdir(exist_ok=True)
    return str(Path(current_app.instance_path) / "memory")

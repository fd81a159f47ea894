"""SQLite's write lock held past SQLITE_BUSY_TIMEOUT_MS (a burst of writes on a loaded machine): the writer gets a
503 that says what to do, never a 500, and nothing is half-written (app/web/errors.py)."""
from __future__ import annotations

import sqlite3

import pytest
import sqlalchemy as sa

from app import create_app
from app.extensions import db
from app.models import User


@pytest.fixture
def impatient_app(app, database_uri):
    """The test app's database, with a writer giving up on the lock after 50 ms (`app` empties the tables after)."""
    impatient = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri, "WTF_CSRF_ENABLED": False,
                            "PAGE_CACHE_DIR": app.config["PAGE_CACHE_DIR"], "BACKUP_DIR": app.config["BACKUP_DIR"],
                            "SQLITE_BUSY_TIMEOUT_MS": 50})
    with impatient.app_context():
        yield impatient
        db.session.remove()
        db.engine.dispose()


@pytest.mark.database("sqlite")  # SQLite's write lock
def test_a_write_that_cannot_get_the_lock_answers_503(impatient_app, database_uri):
    other = sqlite3.connect(database_uri.removeprefix("sqlite:///"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        response = impatient_app.test_client().post("/signup", data={
            "email": "busy@example.com", "password": "a long enough password", "confirm": "a long enough password"})
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert response.status_code == 503 and response.headers["Retry-After"]
    assert "too busy to save this" in response.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count(User.id)).filter_by(email="busy@example.com")) == 0
    # the lock released, the same form goes through
    again = impatient_app.test_client().post("/signup", data={
        "email": "busy@example.com", "password": "a long enough password", "confirm": "a long enough password"})
    assert again.status_code in (302, 303)

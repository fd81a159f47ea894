"""SQLite's write lock held past SQLITE_BUSY_TIMEOUT_MS (a burst of writes on a loaded machine): the writer gets a
503 that says what to do, never a 500, and nothing is half-written (app/web/errors.py)."""
from __future__ import annotations

import sqlite3

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import User
from conftest import _one_test, _test_app


@pytest.fixture
def impatient_app(database_uri):
    if not database_uri.startswith("sqlite"):
        pytest.skip("SQLite's write lock")
    yield from _one_test(_test_app(database_uri, WTF_CSRF_ENABLED=False, SQLITE_BUSY_TIMEOUT_MS=50))


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

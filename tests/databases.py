"""A PostgreSQL database of the test run's own, beside TEST_DATABASE_URL's: for conftest's fixtures and for tests
that serve the app from other processes."""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import sqlalchemy as sa

from config import database_url

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
# Several checkouts (worktrees) may test at once against one server: each gets databases of its own.
CHECKOUT = hashlib.sha1(str(Path(__file__).resolve().parent.parent).encode()).hexdigest()[:6]


def postgres_url(suffix: str = "") -> str:
    """A database of this worker's own beside TEST_DATABASE_URL's, made empty."""
    base = database_url(os.environ["TEST_DATABASE_URL"])
    name = re.sub(r"\W", "_", f"{sa.engine.make_url(base).database}_{CHECKOUT}_{WORKER}{suffix}")
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        # A test database need not outlive a crash: a commit here does not wait for the disk (3 ms a commit on this
        # machine, paid by every one of thousands of tests' commits); what the tests see is the same.
        conn.execute(sa.text(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
    admin.dispose()
    return sa.engine.make_url(base).set(database=name).render_as_string(hide_password=False)

"""Fixtures: every database test runs on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL.

The schema is built by the migrations (never create_all), once per backend and worker; one app per backend, worker
and config serves every test, and the tables are emptied after each test.
"""
from __future__ import annotations

import atexit
import functools
import hashlib
import os
import shutil
import tempfile
import zlib
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import g
from hypothesis import settings
from flask_migrate import upgrade

os.environ.setdefault("SECRET_KEY", "tests-shared-secret-key")  # every app in the tests, as on a real cluster
os.environ["ABR_URL"] = "http://127.0.0.1:9"  # no test reaches the real AlwaysBeRunning (tests/abr_standin.py does)
from app import create_app  # noqa: E402
from app.extensions import db
from app.models import Tournament, User
from databases import postgres_url as _postgres_url
from werkzeug.security import generate_password_hash as _strong_hash
from app.models import accounts as _model_accounts
from app.services.organizers import accounts as _accounts

# Tests hash passwords with one PBKDF2 round: werkzeug's default (scrypt) costs 160 ms a hash on CI's cores, paid by
# every make_user and every login of thousands of tests. Both places that hash get the same method, so a login's
# hashing stays one hash of the same kind, known address or not (tests/web/views/test_auth_sessions.py); the app itself
# hashes with werkzeug's default.
_model_accounts.generate_password_hash = _accounts.generate_password_hash = functools.partial(
    _strong_hash, method="pbkdf2:sha256:1")

# CI replays the same examples every run (a red CI means a real regression); local runs keep exploring.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
# Several checkouts (worktrees) may test at once against one server: each gets databases of its own.
CHECKOUT = hashlib.sha1(str(Path(__file__).resolve().parent.parent).encode()).hexdigest()[:6]
HERE = Path(__file__).resolve().parent


# Which database a test runs on (docs/development.md, "Which database a test runs on"). The services' and models'
# tests, where the SQL is, run on every backend. A request test checks the web layer above them: it runs once, on
# the backend its name picks (half of them on each, so both databases serve every kind of page), unless it is
# marked `both_backends` (a page whose SQL differs by database) or `database("postgresql")`/`("sqlite")` (what only
# one database does: PostgreSQL's autocommit polls, SQLite's write lock). Browser tests serve their own SQLite file.
_ONE_BACKEND = ("web",)


def _picked_backend(item) -> str:
    """The backend a one-backend test runs on: fixed by its name, without the backend's own part of it."""
    name = "-".join(part for part in item.nodeid.split("[")[-1].rstrip("]").split("-") if part not in BACKENDS) \
        if "[" in item.nodeid else ""
    return BACKENDS[zlib.crc32(f"{item.nodeid.split('[')[0]}[{name}]".encode()) % len(BACKENDS)]


def pytest_collection_modifyitems(config, items):
    keep, dropped = [], []
    for item in items:
        backend = getattr(item, "callspec", None) and item.callspec.params.get("database_uri")
        only = item.get_closest_marker("database")
        if only and only.args[0] not in BACKENDS:
            item.add_marker(pytest.mark.skip(reason=f"needs {only.args[0]} (set TEST_DATABASE_URL)"))
        if backend is None or only is None and len(BACKENDS) == 1:
            keep.append(item)
        elif only is not None:
            (keep if backend == only.args[0] or only.args[0] not in BACKENDS else dropped).append(item)
        elif (Path(str(item.fspath)).relative_to(HERE).parts[0] not in _ONE_BACKEND
              or item.get_closest_marker("both_backends") or backend == _picked_backend(item)):
            keep.append(item)
        else:
            dropped.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


@pytest.fixture(scope="session", params=BACKENDS)
def database_uri(request, tmp_path_factory):
    if request.param == "sqlite":
        uri = f"sqlite:///{tmp_path_factory.mktemp('db') / 'test.db'}"
    else:
        uri = _postgres_url()
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return uri


@pytest.fixture(params=BACKENDS)
def unmigrated_app(request, tmp_path):
    """An app on a database of its own with no tables yet, for tests that walk the migrations themselves."""
    uri = f"sqlite:///{tmp_path / 'm.db'}" if request.param == "sqlite" else _postgres_url("_migrations")
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri})
    with app.app_context():
        yield app
        db.session.remove()
        db.engine.dispose()


_BIG_TEST_ROWS = 5000


def _empty_postgresql(tables) -> None:
    """Empty PostgreSQL's tables and restart the sequences a test used, even if a connection the test left behind is
    still mid-transaction.

    One DELETE a table and a restart a used sequence, in one round trip: TRUNCATE makes new files for every table
    and took over a second a test on a busy 2-core machine, DELETE of tables that are nearly all empty a few ms.
    This worker's database is its own (`databases.postgres_url`), so any other busy connection is a leftover of
    the test just ended (a thread it started); it is ended first, else the DELETE waits on it or deadlocks with it
    and the next test finds rows."""
    deletes = " ".join(f'DELETE FROM "{t.name}";' for t in tables)
    names = ", ".join(f'"{t.name}"' for t in tables)
    # A test that wrote a big event (thousands of seats) is emptied by TRUNCATE: DELETE, row by row through the
    # foreign keys' cascades, took 150 s after the biggest restore.
    empty = f"""DO $$ DECLARE used text; big boolean; BEGIN
        SELECT count(*) > {_BIG_TEST_ROWS} INTO big FROM (SELECT 1 FROM seats LIMIT {_BIG_TEST_ROWS + 1}) AS s;
        IF big THEN EXECUTE 'TRUNCATE {names} RESTART IDENTITY CASCADE'; ELSE {deletes}
        FOR used IN SELECT format('%I.%I', schemaname, sequencename) FROM pg_sequences WHERE last_value IS NOT NULL
        LOOP EXECUTE 'ALTER SEQUENCE ' || used || ' RESTART'; END LOOP; END IF; END $$"""
    for attempt in range(5):
        try:
            db.session.execute(sa.text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'"))
            db.session.execute(sa.text("SET LOCAL lock_timeout = '10s'"))
            db.session.execute(sa.text(empty))
            return
        except sa.exc.OperationalError:
            db.session.rollback()
            if attempt == 4:
                raise


def _empty_tables() -> None:
    tables = list(reversed(db.metadata.sorted_tables))
    if db.engine.dialect.name == "postgresql":
        _empty_postgresql(tables)
    else:
        for table in tables:
            db.session.execute(table.delete())
    db.session.commit()


_PAGE_CACHE_DIR = tempfile.mkdtemp(prefix="sass-test-pages-")  # not the checkout's instance/ folder
# publishes keep backups (app/services/event_files/backup.py)
_BACKUP_DIR = tempfile.mkdtemp(prefix="sass-test-backups-")
for _folder in (_PAGE_CACHE_DIR, _BACKUP_DIR):  # each test process removes its own when it ends
    atexit.register(shutil.rmtree, _folder, ignore_errors=True)


def _test_app(database_uri, **config):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri, "PAGE_CACHE_DIR": _PAGE_CACHE_DIR,
                      "BACKUP_DIR": _BACKUP_DIR,
                      # no backup timers outliving a test (tests/flows/test_venue_move.py turns them on)
                      "BACKUP_FOLLOW_SECONDS": 0,
                      "NRDB_URL": "http://127.0.0.1:9",  # no test reaches the real NetrunnerDB: loopback refuses
                      **config})

    @app.before_request
    def _forget_cached_user():
        """Tests hold one app context open, so `g` outlives a request; Flask-Login caches the user there."""
        g.pop("_login_user", None)

    return app


# One app per worker, backend and config, kept for every test that asks for it: create_app costs about 0.1 s, which
# thousands of tests on two backends paid each (minutes of CPU). A test that changes the app itself (adds a route
# or a hook) is marked `own_app` and gets a new one.
_APPS: dict[tuple, object] = {}


def _shape(app) -> tuple:
    """What a test must not change in a shared app: its routes and hooks (config and counters are put back)."""
    hooks = (app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs,
             app.teardown_appcontext_funcs, app.template_context_processors, app.url_value_preprocessors)
    return (tuple(app.view_functions), *(tuple(map(len, d.values())) if isinstance(d, dict) else len(d)
                                          for d in hooks))


def _app_for(request, database_uri, **config):
    if request.node.get_closest_marker("own_app"):
        return _test_app(database_uri, **config), None
    key = (database_uri, tuple(sorted(config.items())))
    if key not in _APPS:
        _APPS[key] = _test_app(database_uri, **config)
    return _APPS[key], key


def _one_test(request, database_uri, **config):
    """An app's context for one test, leaving the tables empty and the app as it found it for the next."""
    app, key = _app_for(request, database_uri, **config)
    settings_before, shape = dict(app.config), _shape(app)
    app.extensions["throttle"].reset()  # attempts counted by earlier tests (the limits are in-memory here)
    try:
        with app.app_context():
            yield app
            db.session.rollback()
            _empty_tables()
            db.session.remove()
            db.engine.dispose()
    finally:
        app.config.clear()
        app.config.update(settings_before)
        if key and _shape(app) != shape:  # changed by a test not marked own_app: not handed to the next one
            _APPS.pop(key)


@pytest.fixture
def app(request, database_uri):
    """An app with CSRF checks off, for request tests; `csrf_app` keeps them on."""
    yield from _one_test(request, database_uri, WTF_CSRF_ENABLED=False)


@pytest.fixture
def csrf_app(request, database_uri):
    yield from _one_test(request, database_uri)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def make_user(app):
    def make(email="to@example.com", password="correct horse", is_admin=False) -> User:
        user = User(email=email, is_admin=is_admin)
        user.set_password(password)
        db.session.add(user)
        db.session.commit()
        return user

    return make


@pytest.fixture
def login(client):
    """Log `client` in through the real login form."""

    def do(email="to@example.com", password="correct horse", c=None):
        c = c or client
        response = c.post("/login", data={"email": email, "password": password})
        assert response.status_code in (302, 303), response.get_data(as_text=True)[:500]
        return c

    return do


@pytest.fixture
def make_tournament(app):
    def make(owner: User, **fields) -> Tournament:
        fields.setdefault("name", "Store Championship")
        fields.setdefault("format", "single")
        tournament = Tournament(owner=owner, **fields)
        db.session.add(tournament)
        db.session.commit()
        return tournament

    return make

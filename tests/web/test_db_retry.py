"""A dropped database connection (docs/security.md, "A dropped database connection"): a connection killed in the
pool is replaced, before a write by the ping, for a read by running it again; a read killed mid-request runs
once more; a write killed mid-request answers 503 with what to do and leaves nothing half-written. PostgreSQL only: pg_terminate_backend from another
connection, as a restart or a DBA would."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Player, ResultChange
from app.services.players import player_links, player_page
from app.services.results import match_results
from app.services.swiss import rounds as rounds_service
from tests.web.views.test_rounds import matches, pair, setup_event


@pytest.fixture
def killer(app, database_uri):
    """Kills this database's other connections: PostgreSQL's pg_terminate_backend (mark the test
    `database("postgresql")`)."""
    assert db.engine.dialect.name == "postgresql", 'a test using `killer` is marked database("postgresql")'
    engine = sa.create_engine(db.engine.url, isolation_level="AUTOCOMMIT")

    def kill_all() -> int:
        """Terminate every connection to the test database but this one: the app's pool and session alike."""
        with engine.connect() as conn:
            return len(conn.execute(sa.text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()")).all())
    yield kill_all
    engine.dispose()


@pytest.fixture
def event(make_user, make_tournament, login):
    to, t, _ = setup_event(make_user, make_tournament, login, n=6, name="Drop Open")
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    return to, t


@pytest.mark.database("postgresql")
def test_a_connection_killed_in_the_pool_is_replaced(app, killer, event):
    to, t = event
    assert to.get(f"/tournaments/{t.id}/rounds/1").status_code == 200
    db.session.remove()  # the app's connection goes back to the pool
    assert killer() >= 1
    assert to.get(f"/tournaments/{t.id}/rounds/1").status_code == 200
    assert app.test_client().get(f"/t/{t.slug}/pairings").status_code == 200


@pytest.mark.database("postgresql")
def test_a_write_on_a_connection_killed_in_the_pool_is_saved(app, killer, event):
    to, t = event
    game = next(m for m, _ in matches(t, 1) if not m.is_bye)
    assert to.get(f"/tournaments/{t.id}/rounds/1").status_code == 200
    db.session.remove()
    assert killer() >= 1
    response = to.post(f"/tournaments/{t.id}/matches/{game.id}/result", data={"result": "corp"})
    assert response.status_code in (200, 303)
    db.session.remove()
    assert db.session.get(Match, game.id).result is not None


def test_reads_lend_connections_unpinged_and_writes_pinged(app, event, monkeypatch):
    """A poll's connection is not pinged (a dead one runs the read again); a write's is (it never runs again)."""
    to, t = event
    pings, real = [], db.engine.dialect.do_ping
    monkeypatch.setattr(db.engine.dialect, "do_ping", lambda conn: pings.append(1) or real(conn))
    player = db.session.scalars(sa.select(Player).where(Player.tournament_id == t.id)).first()
    check = f"/t/{t.slug}/p/{player_links.token(player)}/live"
    phone = app.test_client()
    etag = phone.get(check).headers["ETag"]
    db.session.remove()
    pings.clear()
    assert app.test_client().get(f"/t/{t.slug}/status.json").status_code == 200
    assert to.get(f"/tournaments/{t.id}/rounds/1").status_code == 200
    assert phone.get(check, headers={"If-None-Match": etag}).status_code == 304  # app/web/player_checks.py
    db.session.remove()
    assert pings == []
    game = next(m for m, _ in matches(t, 1) if not m.is_bye)
    db.session.remove()
    assert to.post(f"/tournaments/{t.id}/matches/{game.id}/result", data={"result": "corp"}).status_code in (200, 303)
    assert pings


@pytest.mark.database("postgresql")
def test_a_read_killed_mid_request_runs_again(app, killer, event, monkeypatch):
    to, t = event
    real, calls = rounds_service.load_round, []

    def dying(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            db.session.execute(sa.text("SELECT 1"))  # this request's connection, checked out
            killer()
        return real(*args, **kwargs)
    monkeypatch.setattr(rounds_service, "load_round", dying)
    response = to.get(f"/tournaments/{t.id}/rounds/1")
    assert response.status_code == 200 and len(calls) == 2


def _facts_killed_once(killer, monkeypatch) -> list:
    """Every connection killed as a player's check first reads its facts; the calls made, for the caller to count."""
    real, calls = player_page.version, []

    def dying(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            killer()
        return real(*args, **kwargs)
    monkeypatch.setattr(player_page, "version", dying)
    return calls


@pytest.mark.database("postgresql")
def test_a_poll_killed_mid_request_runs_again(app, killer, event, monkeypatch):
    """A poll outside a transaction (app/web/read_only.py) whose connection dies answers from a fresh one."""
    to, t = event
    tid, game = t.id, next(m for m, _ in matches(t, 1) if not m.is_bye).id
    player = db.session.scalars(sa.select(Player).where(Player.tournament_id == t.id)).first()
    link = f"/t/{t.slug}/p/{player_links.token(player)}/live"
    calls = _facts_killed_once(killer, monkeypatch)
    db.session.remove()
    response = app.test_client().get(link)
    assert response.status_code == 200 and "me-card" in response.get_json()["digests"] and len(calls) >= 2
    db.session.remove()  # the pool serves a write afterwards, whole
    assert to.post(f"/tournaments/{tid}/matches/{game}/result", data={"result": "corp"}).status_code in (200, 303)
    db.session.remove()
    assert db.session.get(Match, game).result is not None


@pytest.mark.database("postgresql")
def test_a_revalidated_check_killed_before_the_view_is_answered_by_the_view(app, killer, event, monkeypatch):
    """app/web/player_checks.py reads the check's facts before Flask: a connection dying there leaves the check to
    the view, on a fresh connection."""
    to, t = event
    player = db.session.scalars(sa.select(Player).where(Player.tournament_id == t.id)).first()
    check = f"/t/{t.slug}/p/{player_links.token(player)}/live"
    phone = app.test_client()
    etag = phone.get(check).headers["ETag"]
    calls = _facts_killed_once(killer, monkeypatch)
    db.session.remove()
    opened, open_session = [], app.session_interface.open_session
    monkeypatch.setattr(app.session_interface, "open_session", lambda *args: opened.append(1) or open_session(*args))
    assert phone.get(check, headers={"If-None-Match": etag}).status_code == 304
    assert len(calls) >= 2 and opened  # the view's answer


@pytest.mark.database("postgresql")
def test_a_write_killed_mid_request_says_so_and_writes_nothing(app, killer, event, monkeypatch):
    to, t = event
    game = next(m for m, _ in matches(t, 1) if not m.is_bye)
    real = match_results.write_result

    def dying(*args, **kwargs):
        real(*args, **kwargs)  # the result written, not committed
        killer()
        db.session.execute(sa.text("SELECT 1"))
    monkeypatch.setattr(match_results, "write_result", dying)
    response = to.post(f"/tournaments/{t.id}/matches/{game.id}/result", data={"result": "corp"})
    assert response.status_code == 503 and response.headers["Retry-After"] == "5"
    assert "Check whether your change is there" in response.get_data(as_text=True)
    db.session.rollback()
    assert db.session.get(Match, game.id).result is None
    assert db.session.scalar(sa.select(sa.func.count(ResultChange.id))) == 0
    monkeypatch.undo()
    assert to.post(f"/tournaments/{t.id}/matches/{game.id}/result", data={"result": "corp"}).status_code == 303
    db.session.expire_all()
    assert db.session.get(Match, game.id).result == "corp"


@pytest.mark.database("postgresql")
def test_a_connection_killed_after_the_view_is_no_500(app, killer, event, database_uri):
    """The audit's 500s: the view ran and made its answer, then the connection died before the request's
    teardown gave it back (its rollback met the dead socket). The answer stands; the dead connection is dropped
    and the next request gets a fresh one. A separate app, as in production: the tests' own app holds one app
    context open, so its requests never tear down."""
    from app import create_app
    _, t = event
    served = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri})
    kills = []

    @served.after_request
    def kill_after_the_view(response):
        db.session.execute(sa.text("SELECT 1"))  # this request's connection, in its transaction
        kills.append(killer())
        return response
    client = served.test_client()
    response = client.get(f"/t/{t.slug}/pairings")
    assert kills and kills[0] >= 1
    assert response.status_code == 200
    served.after_request_funcs[None].remove(kill_after_the_view)
    assert client.get(f"/t/{t.slug}/pairings").status_code == 200
    with served.app_context():
        db.engine.dispose()
    try:
        db.session.rollback()  # the tests' own connection was killed too
    except sa.exc.DBAPIError:
        db.session.rollback()


def test_a_connection_closed_after_the_view_is_no_500_on_any_database(app, event, database_uri):
    """The same on every database: the request's own connection closed under it after the view (on SQLite the
    driver then says "Cannot operate on a closed database", which SQLAlchemy reads as a disconnect)."""
    from app import create_app
    _, t = event
    served = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri})
    closed = []

    @served.after_request
    def close_after_the_view(response):
        db.session.execute(sa.text("SELECT 1"))
        db.session.connection().connection.dbapi_connection.close()
        closed.append(1)
        return response
    client = served.test_client()
    response = client.get(f"/t/{t.slug}/pairings")
    assert closed and response.status_code == 200
    served.after_request_funcs[None].remove(close_after_the_view)
    assert client.get(f"/t/{t.slug}/pairings").status_code == 200
    with served.app_context():
        db.engine.dispose()

"""SASS, the Side Aware Swiss System: the Flask application factory."""
from __future__ import annotations

import os
from pathlib import Path

from flask import Flask, has_request_context, request
from werkzeug.middleware.proxy_fix import ProxyFix

from config import public_url

from .extensions import csrf, db, login_manager, migrate

ROOT = Path(__file__).resolve().parent.parent


class SassFlask(Flask):
    """Flask whose absolute links name PUBLIC_URL when it is set: every `url_for(..., _external=True)` (player
    links, QR codes, slips, the projector page, exports, the API) then points where phones can reach, whatever
    Host header the request came with."""

    def url_for(self, endpoint: str, *, _anchor=None, _method=None, _scheme=None, _external=None, **values) -> str:
        public = self.config.get("PUBLIC_URL")
        if not (public and _external):
            return super().url_for(endpoint, _anchor=_anchor, _method=_method, _scheme=_scheme,
                                   _external=_external, **values)
        path = super().url_for(endpoint, _anchor=_anchor, _method=_method, **values)
        if has_request_context() and request.script_root and path.startswith(request.script_root):
            path = path[len(request.script_root):]
        return public + path


def create_app(overrides: dict | None = None) -> Flask:
    app = SassFlask(__name__, template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"),
                instance_path=str(ROOT / "instance"))
    app.config.from_object("config.Config")
    if overrides:
        app.config.update(overrides)
    app.config["PUBLIC_URL"] = public_url(app.config.get("PUBLIC_URL") or "")
    _require_shared_key(app, overrides or {})
    if app.config.get("SECURE_COOKIES") is None:  # served over https: cookies never travel over plain http
        app.config["SECURE_COOKIES"] = app.config["PUBLIC_URL"].startswith("https://")
    app.config["SESSION_COOKIE_SECURE"] = app.config["REMEMBER_COOKIE_SECURE"] = app.config["SECURE_COOKIES"]
    if app.config["TRUSTED_PROXIES"]:  # the client's address (for throttling) and scheme, from the proxy
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    login_manager.init_app(app)
    csrf.init_app(app)

    from . import models  # noqa: F401  (models must be imported for migrations)
    from .cli import register_cli
    from .services import init_services
    from .web import init_web

    register_cli(app)
    init_services(app)
    init_web(app)
    _sqlite_settings(app)
    return app


def _require_shared_key(app: Flask, overrides: dict) -> None:
    """On PostgreSQL SASS may run on several hosts: a key each host made for itself would make a session, a form or
    a player link from one host worthless on the next. So the key must be given, the same on every host."""
    given = os.environ.get("SECRET_KEY", "").strip() or overrides.get("SECRET_KEY")
    if not given and app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        raise RuntimeError(
            "SECRET_KEY is not set. With PostgreSQL (DATABASE_URL) every host serving SASS must sign sessions, "
            "forms and player links with one key: set SECRET_KEY to the same random value on each host, e.g. "
            "python3 -c 'import secrets; print(secrets.token_hex(32))'")


def _sqlite_settings(app: Flask) -> None:
    """SQLite ignores foreign keys unless asked, and our constraints rely on them; writers queue for the write lock
    up to SQLITE_BUSY_TIMEOUT_MS (sized in config.py). The file's folder is made here: with SECRET_KEY given,
    nothing else makes instance/, and SQLite cannot create a file in a missing folder."""
    from sqlalchemy import event
    from sqlalchemy.engine import make_url

    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return
    database = make_url(app.config["SQLALCHEMY_DATABASE_URI"]).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).resolve().parent.mkdir(parents=True, exist_ok=True)
    with app.app_context():
        engine = db.engine
    busy_timeout = int(app.config["SQLITE_BUSY_TIMEOUT_MS"])

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection, _record):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        # WAL lets phones read while the TO writes; NORMAL sync is safe with WAL and halves commit time.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout}")
        cursor.close()

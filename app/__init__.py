"""SASS, the Side Aware Swiss System: the Flask application factory."""
from __future__ import annotations

from pathlib import Path

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from .extensions import csrf, db, login_manager, migrate

ROOT = Path(__file__).resolve().parent.parent


def create_app(overrides: dict | None = None) -> Flask:
    app = Flask(__name__, template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"),
                instance_path=str(ROOT / "instance"))
    app.config.from_object("config.Config")
    if overrides:
        app.config.update(overrides)
    if app.config["TRUSTED_PROXIES"]:  # the client's address (for throttling) and scheme, from the proxy
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    login_manager.init_app(app)
    csrf.init_app(app)

    from . import models  # noqa: F401  (models must be imported for migrations)
    from .cli import register_cli
    from .web import init_web

    register_cli(app)
    init_web(app)
    _sqlite_settings(app)
    return app


def _sqlite_settings(app: Flask) -> None:
    """SQLite ignores foreign keys unless asked, and our constraints rely on them; writers queue for the write lock
    up to SQLITE_BUSY_TIMEOUT_MS (sized in config.py)."""
    from sqlalchemy import event

    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return
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

"""The ABR sender is wired by the application factory (app/services/__init__.py), not by a view module: an app's
first request starts its worker's sender, whichever pages the app has."""
from __future__ import annotations

from app import create_app
from app.extensions import db
from app.services.abr import sender


def test_the_app_factory_starts_the_workers_sender_with_its_first_request(tmp_path):
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 's.db'}", "SECRET_KEY": "k",
                      "PAGE_CACHE_DIR": str(tmp_path / "pages"), "BACKUP_DIR": str(tmp_path / "backups")})
    with app.app_context():
        db.create_all()
    assert sender.running(app) is None  # not at import, not at creation: after gunicorn's fork
    try:
        app.test_client().get("/no-such-page")
        thread = sender.running(app)
        assert thread.is_alive() and thread.name == "abr-sender"
    finally:
        sender.stop(app)
    assert sender.running(app) is None


def test_an_app_under_test_sends_only_when_asked(tmp_path):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 's.db'}",
                      "SECRET_KEY": "k"})
    app.test_client().get("/no-such-page")
    assert sender.running(app) is None

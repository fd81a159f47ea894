"""Blueprints: thin routes that parse a request, call the core or a service, and render."""
from flask import Flask


def register_blueprints(app: Flask) -> None:
    from . import auth, players, public, rounds, tournaments  # noqa: I001

    for module in (auth, tournaments, players, rounds, public):
        app.register_blueprint(module.bp)

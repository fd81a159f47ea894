"""Blueprints: thin routes that parse a request, call the core or a service, and render."""
from flask import Flask


def register_blueprints(app: Flask) -> None:
    from . import api, auth, cut, players, public, rounds, tournaments

    for module in (auth, tournaments, players, rounds, public, cut, api):
        app.register_blueprint(module.bp)

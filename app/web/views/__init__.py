"""Blueprints: thin routes that parse a request, call the core or a service, and render."""
from flask import Flask, abort

from ...models import MAX_INT


def register_blueprints(app: Flask) -> None:
    from . import (abr, api, auth, cut, decklists, judge_calls, nrdb, nrdb_decks, nrdb_picker, online, pairing_jobs,
                   player, players, printouts, public, registration, rounds, series, slips, staff, stats, timer,
                   tournaments)

    for module in (auth, tournaments, players, rounds, pairing_jobs, public, cut, api, player, timer, printouts,
                   staff, registration, slips, decklists, stats, judge_calls, nrdb_decks, nrdb, nrdb_picker, abr,
                   online, series):
        app.register_blueprint(module.bp)
    from . import schedule
    app.register_blueprint(schedule.bp)
    from . import deck_checks, penalties  # penalties and deck checks
    for module in (penalties, deck_checks):
        app.register_blueprint(module.bp)
    app.url_value_preprocessor(reject_impossible_ids)


def reject_impossible_ids(endpoint, values) -> None:
    """404 for a number in a URL that no row can have, before any query (SQLite's driver raises on integers
    beyond 64 bits, which would be a 500)."""
    if any(isinstance(v, int) and v > MAX_INT for v in (values or {}).values()):
        abort(404)

"""Blueprints: thin routes that parse a request, call the core or a service, and render."""
from flask import Flask, abort

from ...models import MAX_INT


def register_blueprints(app: Flask) -> None:
    from . import (abr, api, auth, cut, deck_checks, decklists, event_files, groups, judge_calls, nrdb, nrdb_decks,
                   nrdb_picker, online, pairing_jobs, penalties, player, players, printouts, public, registration,
                   rounds, schedule, series, slips, staff, stats, streaming, timer, tournaments)

    for module in (auth, tournaments, players, rounds, pairing_jobs, public, cut, event_files, api, player, timer,
                   printouts, staff, registration, slips, decklists, stats, judge_calls, nrdb_decks, nrdb, nrdb_picker,
                   abr, online, series, schedule, penalties, deck_checks, groups, streaming):
        app.register_blueprint(module.bp)
    from . import check_in  # noqa: E402 (its own line: merges stay simple)
    from . import push  # noqa: E402 (its own line: merges stay simple)
    app.register_blueprint(push.bp)
    app.register_blueprint(check_in.bp)
    app.url_value_preprocessor(reject_impossible_ids)


def reject_impossible_ids(endpoint, values) -> None:
    """404 for a number in a URL that no row can have, before any query (SQLite's driver raises on integers
    beyond 64 bits, which would be a 500)."""
    if any(isinstance(v, int) and v > MAX_INT for v in (values or {}).values()):
        abort(404)

"""Throttling (Flask-Limiter): every rate limit of the site, in one table.

Each app gets a limiter of its own, so its switch (RATELIMIT_ENABLED) and counters (RATELIMIT_STORAGE_URI)
are its own even when tests run several apps in one process. Limit strings come from the app's config at
each request (config.py), so a test can lower one. Only attempts count (POST), never the page itself, unless
a limit names its methods (a page that asks NetrunnerDB each time it is shown)."""
from __future__ import annotations

from flask import Flask, current_app, request
from flask.logging import default_handler
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import current_user

from ..services.online import report_codes


def _setting(name: str):
    return lambda: current_app.config[name]


def _named_account() -> str:
    """The address a log-in form names, whoever sends it: guesses spread over many clients still add up."""
    return "account:" + request.form.get("email", "").strip().lower()


def _own_account() -> str:
    """The logged-in account (the limit runs before login_required turns a visitor away)."""
    return f"user:{current_user.id}" if current_user.is_authenticated else get_remote_address()


def _named_player() -> str:
    """The player a report-code guess names (by name or jinteki.net username, folded as the lookup folds it):
    guesses at one player's code add up over every client and spelling."""
    return report_codes.guess_key((request.view_args or {}).get("slug", ""), request.form.get("who", ""))


def _refused(response) -> bool:
    return response.status_code >= 400


# endpoint -> its limits (keyword arguments of Limiter.limit); the key is the client address unless named.
LIMITS = {
    "auth.login": [
        dict(limit_value=_setting("LOGIN_LIMIT_PER_IP")),
        dict(limit_value=_setting("LOGIN_LIMIT_PER_ACCOUNT"), key_func=_named_account, deduct_when=_refused),
    ],
    "auth.signup": [dict(limit_value=_setting("SIGNUP_LIMIT_PER_IP"))],
    # Generous: a venue's players may all share one address; a script filling events is stopped.
    "registration.register": [dict(limit_value=_setting("REGISTER_LIMIT_PER_IP"))],
    # Each deck fetch costs NetrunnerDB a request: a script must not make SASS hammer it.
    "nrdb_decks.mine": [dict(limit_value=_setting("NRDB_DECK_LIMIT_PER_IP"))],
    "nrdb_decks.enter": [dict(limit_value=_setting("NRDB_DECK_LIMIT_PER_IP"))],
    # The report address's code (app/services/online/report_codes.py): wrong guesses per address and per player.
    "online.prove": [
        dict(limit_value=_setting("REPORT_CODE_LIMIT_PER_IP"), deduct_when=_refused),
        dict(limit_value=_setting("REPORT_CODE_LIMIT_PER_PLAYER"), key_func=_named_player, deduct_when=_refused),
    ],
    # A player's own decks: the list (a page, but each one asks NetrunnerDB) and the pick, under the same limit.
    "nrdb_picker.decks": [dict(limit_value=_setting("NRDB_DECK_LIMIT_PER_IP"), methods=["GET"])],
    "nrdb_picker.pick": [dict(limit_value=_setting("NRDB_DECK_LIMIT_PER_IP"))],
    # Someone holding a session must not guess the current password (and take the account) at leisure.
    "auth.change_password": [
        dict(limit_value=_setting("LOGIN_LIMIT_PER_ACCOUNT"), key_func=_own_account, deduct_when=_refused),
    ],
}


def storage_options(uri: str, timeout: float) -> dict:
    """Socket timeouts for the limiter's store (Redis's client has none by default: a store that accepts and
    never answers would hold every log-in until the worker is killed, and the in-memory fallback never start)."""
    scheme = uri.split(":", 1)[0].split("+", 1)[0]
    if scheme in ("redis", "rediss"):
        return {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    if scheme == "memcached":
        return {"timeout": timeout, "connect_timeout": timeout}
    return {}


def init_throttle(app: Flask) -> Limiter:
    """Call after the blueprints are registered: wraps the listed views."""
    app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", storage_options(
        app.config["RATELIMIT_STORAGE_URI"], app.config["RATELIMIT_STORAGE_TIMEOUT_SECONDS"]))
    limiter = Limiter(get_remote_address, app=app)
    counted_reads = {endpoint for endpoint, limits in LIMITS.items()
                     if any("GET" in limit.get("methods", ()) for limit in limits)}

    @limiter.request_filter
    def _unlimited_read() -> bool:
        """A read with no limit of its own (nearly all: every phone's poll) skips the limiter's per-request
        bookkeeping; every attempt (POST) and the reads listed above are counted."""
        return request.method in ("GET", "HEAD") and request.endpoint not in counted_reads
    for endpoint, limits in LIMITS.items():
        view = app.view_functions[endpoint]
        for limit in limits:
            view = limiter.limit(**{"methods": ["POST"], **limit})(view)
        app.view_functions[endpoint] = view
    app.extensions["throttle"] = limiter  # the limits hold it only weakly
    # Flask-Limiter says once per worker that its store is unreachable and it counts in memory meanwhile, to a
    # logger it gives a NullHandler: without a handler of its own (Flask's, to stderr) that line is never seen.
    limiter.logger.addHandler(default_handler)
    return limiter

"""Throttling (Flask-Limiter): every rate limit of the site, in one table.

Each app gets a limiter of its own, so its switch (RATELIMIT_ENABLED) and counters (RATELIMIT_STORAGE_URI)
are its own even when tests run several apps in one process. Limit strings come from the app's config at
each request (config.py), so a test can lower one. Only attempts count (POST), never the page itself."""
from __future__ import annotations

from flask import Flask, current_app, request
from flask.logging import default_handler
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import current_user


def _setting(name: str):
    return lambda: current_app.config[name]


def _named_account() -> str:
    """The address a log-in form names, whoever sends it: guesses spread over many clients still add up."""
    return "account:" + request.form.get("email", "").strip().lower()


def _own_account() -> str:
    """The logged-in account (the limit runs before login_required turns a visitor away)."""
    return f"user:{current_user.id}" if current_user.is_authenticated else get_remote_address()


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
    # Someone holding a session must not guess the current password (and take the account) at leisure.
    "auth.change_password": [
        dict(limit_value=_setting("LOGIN_LIMIT_PER_ACCOUNT"), key_func=_own_account, deduct_when=_refused),
    ],
}


def init_throttle(app: Flask) -> Limiter:
    """Call after the blueprints are registered: wraps the listed views."""
    limiter = Limiter(get_remote_address, app=app)
    for endpoint, limits in LIMITS.items():
        view = app.view_functions[endpoint]
        for limit in limits:
            view = limiter.limit(methods=["POST"], **limit)(view)
        app.view_functions[endpoint] = view
    app.extensions["throttle"] = limiter  # the limits hold it only weakly
    # Flask-Limiter says once per worker that its store is unreachable and it counts in memory meanwhile, to a
    # logger it gives a NullHandler: without a handler of its own (Flask's, to stderr) that line is never seen.
    limiter.logger.addHandler(default_handler)
    return limiter

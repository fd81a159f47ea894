"""A player's check that finds nothing new, answered before Flask's request handling.

Every phone of a hall revalidates its player page every few seconds (app/core/polling.py), and nearly every check
finds its table as it was: a 304 from one statement. Around that statement Flask's handling of a request cost
more than the statement itself: the request context, the signed session cookie opened and verified (a phone holds
one for its forms' token), the CSRF and login hooks, the response's hooks and the cookie's save. Such a check is
answered here instead, in an app context alone: a GET of the player's check (views/player.py `live`) whose
If-None-Match names the page's ETag for a current link, from the same facts and ETag as the view
(`player.unchanged`), read as the view reads them (outside a transaction, without a ping: app/web/read_only.py,
app/web/db_retry.py). Every other request goes to Flask as before, and so does a check this cannot answer so
(another ETag, a moved or bad link, no such event, a connection that dropped): the view then answers it in full,
within this app context and on the connection the facts were read on, unless that connection dropped (a
phone's check after a publish is such a check: it pays for one context and one connection, not two).
"""
from __future__ import annotations

import logging

from flask import Flask
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException

from . import db_retry, live_parts
from .headers import HEADERS
from .read_only import read_only
from .views.player import unchanged

ENDPOINT = "player.live"
log = logging.getLogger(__name__)


class PlayerChecks:
    """WSGI middleware around the app's own `wsgi_app`."""

    def __init__(self, app: Flask, wsgi_app):
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        args = self._check(environ)
        if args is None:
            return self.wsgi_app(environ, start_response)
        with self.app.app_context(), db_retry.reading():
            try:
                return read_only(self._answer)(environ, start_response, args["slug"], args["token"])
            except DBAPIError as e:
                if not db_retry.dropped(e):
                    raise
                log.warning("database connection dropped during a player's check: the view answers it")
        return self.wsgi_app(environ, start_response)

    def _check(self, environ) -> dict | None:
        """The check's slug and token when the request is a revalidating GET of a player's check, else None."""
        if environ.get("REQUEST_METHOD") != "GET" or not environ.get("HTTP_IF_NONE_MATCH"):
            return None
        try:
            endpoint, args = self.app.url_map.bind_to_environ(environ).match(method="GET")
        except HTTPException:
            return None
        return args if endpoint == ENDPOINT else None

    def _answer(self, environ, start_response, slug: str, token: str):
        """The 304, or Flask's answer in this app context, on the connection the facts were read on (the view,
        read-only too, goes on with it rather than taking another from the pool)."""
        etag = unchanged(environ, slug, token)
        if etag is None:
            return self.wsgi_app(environ, start_response)
        _, status, headers = live_parts.unchanged(etag)
        start_response(f"{status} NOT MODIFIED", [*headers.items(), *HEADERS.items()])
        return []


def answer_unchanged_checks(app: Flask) -> None:
    app.wsgi_app = PlayerChecks(app, app.wsgi_app)

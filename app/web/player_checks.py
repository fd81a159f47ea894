"""A player's check that finds nothing new, answered before Flask's request handling.

Every phone of a hall revalidates its player page every few seconds (app/core/polling.py), and nearly every check
finds its table as it was: a 304 from one statement. Around that statement Flask's handling of a request cost
more than the statement itself: the request context, the signed session cookie opened and verified (a phone holds
one for its forms' token), the CSRF and login hooks, the response's hooks and the cookie's save. Such a check is
answered here instead, in an app context alone: a GET of the player's check (views/player.py `live`) whose
If-None-Match names the page's ETag for a current link, from the same facts and ETag as the view
(`player.unchanged`), read as the view reads them (outside a transaction, without a ping: app/web/read_only.py,
app/web/db_retry.py). Every other request goes to Flask as before, and so does a check this cannot answer so
(another ETag, a moved or bad link, no such event, a connection that dropped): the view then answers it in full.
"""
from __future__ import annotations

import logging

from flask import Flask
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException

from . import db_retry, live_parts
from .headers import HEADERS
from .read_only import read_only

ENDPOINT = "player.live"
log = logging.getLogger(__name__)


class PlayerChecks:
    """WSGI middleware around the app's own `wsgi_app`."""

    def __init__(self, app: Flask, wsgi_app):
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_IF_NONE_MATCH"):
            etag = self._unchanged(environ)
            if etag is not None:
                _, status, headers = live_parts.unchanged(etag)
                start_response(f"{status} NOT MODIFIED", [*headers.items(), *HEADERS.items()])
                return []
        return self.wsgi_app(environ, start_response)

    def _unchanged(self, environ) -> str | None:
        try:
            endpoint, args = self.app.url_map.bind_to_environ(environ).match(method="GET")
        except HTTPException:
            return None
        if endpoint != ENDPOINT:
            return None
        from .views.player import unchanged

        with self.app.app_context(), db_retry.reading():
            try:
                return read_only(unchanged)(environ, args["slug"], args["token"])
            except DBAPIError as e:
                if not db_retry.dropped(e):
                    raise
                log.warning("database connection dropped during a player's check: the view answers it")
                return None


def answer_unchanged_checks(app: Flask) -> None:
    app.wsgi_app = PlayerChecks(app, app.wsgi_app)

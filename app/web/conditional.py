"""A client's If-None-Match, compared as RFC 9110 (13.1.2) says for a GET: weakly, everywhere the app answers 304.

`W/"x"` matches `"x"`: nginx turns a strong ETag weak when it gzips an answer (deploy/nginx-sass.conf), and the
phone sends back what it was given; a list of tags matches when any does; `*` matches anything. Werkzeug's
ETags.contains_weak does exactly that; this is the one place the app asks it (public answers that call
Response.make_conditional get the same comparison from Werkzeug)."""
from __future__ import annotations

from flask import request
from werkzeug.http import parse_etags


def client_has(etag: str) -> bool:
    """The client already holds the answer tagged `etag` (unquoted): its If-None-Match names it, weak or strong,
    or is `*`."""
    return names(request.headers.get("If-None-Match"), etag)


def names(if_none_match: str | None, etag: str) -> bool:
    """client_has, for an If-None-Match header read before Flask's request exists (app/web/player_checks.py)."""
    return parse_etags(if_none_match).contains_weak(etag)

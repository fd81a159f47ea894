"""Answers a shared cache may keep and hand to every phone (nginx in front: deploy/nginx-sass.conf).

The public pairings, a past round, the standings, status.json and the read-only API are one anonymous answer
per address, the same bytes for every visitor, marked `public, max-age=1, stale-while-revalidate=2`: a proxy
answers a whole hall's phones from one request a second, and a publish is seen within about a second. What is a
device's own (its "You" line and row, an organizer's menu and form token, flashed messages) never goes into such
an answer; the page asks for it from public.me, a private answer (docs/security.md). A shared answer never
carries a cookie either: the session is not written on it, and one that must be (something wrote the session)
turns private.
"""
from __future__ import annotations

from flask import request
from flask.sessions import SecureCookieSessionInterface

PUBLIC_MAX_AGE = 1  # seconds: what a phone may see late after a publish, on top of its poll
# and for this long after, a proxy may still hand out its copy while it fetches a newer one (RFC 5861); never a
# copy older than that, however long nobody asked (deploy/nginx-sass.conf)
STALE_WHILE_REVALIDATE = 2
SHARED = f"public, max-age={PUBLIC_MAX_AGE}, stale-while-revalidate={STALE_WHILE_REVALIDATE}"
# nginx counts a copy's age in whole seconds of its own clock: max-age=1 keeps a copy until the second after next
# (1-2 s). So the shipped site sends its clock (PROXY_TIME, nginx's $msec) and a shared answer tells nginx alone to
# keep its copy until that second ends (X-Accel-Expires: @<second>, which nginx hides from phones): a copy is at
# most a second old, as max-age=1 means. nginx reads it after Cache-Control, whose stale-while-revalidate it then
# keeps, so it is added last. Without the header (no such proxy in front) nothing is added.
PROXY_TIME = "X-Proxy-Time"
PROXY_EXPIRES = "X-Accel-Expires"
OWN = "private, no-store"  # a device's own answer: kept nowhere but in the page that asked
DOWNGRADED = "private, no-cache"


def is_shared(response) -> bool:
    return bool(response.cache_control.public)


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, except that a shared answer never sets the cookie nor says Vary: Cookie
    (Flask would refresh a permanent session's cookie on every answer, a player's included)."""

    def save_session(self, app, session, response) -> None:
        if is_shared(response):
            if not session.modified and "Set-Cookie" not in response.headers:
                return
            response.headers["Cache-Control"] = DOWNGRADED  # this device's own after all: nobody else's to keep
            response.headers.pop(PROXY_EXPIRES, None)
        super().save_session(app, session, response)


def kept_until_the_second_ends(response):
    """A shared answer kept by the proxy until the end of the second its request reached the proxy in."""
    if is_shared(response):
        try:
            second = int(float(request.headers.get(PROXY_TIME, "")))
        except (ValueError, OverflowError):  # none, or not a time (only nginx sets it: see deploy/nginx-sass.conf)
            return response
        response.headers.pop(PROXY_EXPIRES, None)
        response.headers[PROXY_EXPIRES] = f"@{second}"
    return response


def init_shared_answers(app) -> None:
    app.session_interface = SessionInterface()
    app.after_request(kept_until_the_second_ends)

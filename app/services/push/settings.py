"""Whether this server can push at all: the one rule the player's page, the subscribe route and the queue ask."""
from __future__ import annotations

from typing import Optional

from flask import Flask

from ...core import nrdb_sign_in
from .keys import public_key

OFF = ("Notifications are off on this server: keep this page open, it updates itself.")
VENUE = ("Notifications need this event's site on the internet (an https address); at this venue, keep this page "
         "open: it updates itself.")


def why_off(app: Flask) -> Optional[str]:
    """None when players may subscribe; else why not, in words for the player. PUSH=auto (the default) pushes
    only from a public https PUBLIC_URL: a browser subscribes only from a secure page, and a venue laptop on the
    hall's network has no internet to reach the push services (the same public-name rule as the NetrunnerDB
    sign-in, app/core/nrdb_sign_in.py); PUSH=on forces it (a test, a proxy that gives https), PUSH=off stops it."""
    mode = app.config.get("PUSH", "auto")
    if mode == "off":
        return OFF
    if mode == "on":
        return None
    public = (app.config.get("PUBLIC_URL") or "").strip()
    if public.startswith("https://") and nrdb_sign_in.why_not(public) is None:
        return None
    return VENUE


def page(app: Flask) -> dict:
    """What the player's page shows of push: the server's key to subscribe with, or why push is off."""
    off = why_off(app)
    return {"push_off": off, "push_key": None if off else public_key(app)}

"""Staff pages whose body costs much to build (a 2,000-player round's match slips draw a thousand QR codes):
the body is built once per event version and kept in the shared page cache (app/web/page_cache.py), so every
worker and every device printing at once reads the same bytes, and concurrent first requests wait for one
build. The page around it (header, account links, flashed messages) is rendered per request. The ETag is the
page's version, the body's digest and the account's session: a device that has the page gets an empty 304
without a render."""
from __future__ import annotations

import hashlib
from typing import Callable, Optional

from flask import abort, make_response, session
from flask_login import current_user
from markupsafe import Markup

from . import page_cache
from .conditional import client_has


def respond(t, name: str, build: Callable[[], Optional[tuple[str, dict]]], shell: Callable[[Markup, dict], str],
            missing: str = ""):
    """The page: `shell(body, meta)` around the cached body `name` of `t`; 404 (saying `missing`) when `build`
    returns None."""
    page = page_cache.get(t, name, lambda: _plain(build()))
    if page is None:
        abort(404, missing or None)
    tag = None
    if not session.get("_flashes"):  # a flashed message is shown once: that page is nobody's to keep
        # the page's key holds the event's version (the shell shows its name too), the digest the body's bytes
        tag = hashlib.blake2b(f"{page.key}\x00{page.digest}\x00{current_user.get_id()}".encode(),
                              digest_size=12).hexdigest()
        if client_has(tag):
            response = make_response("", 304)
            response.set_etag(tag, weak=True)
            response.headers["Cache-Control"] = "private, no-cache"
            return response
    response = make_response(shell(Markup(page_cache.render(page, {}).decode()), page.meta))
    response.headers["Cache-Control"] = "private, no-cache"
    if tag:
        response.set_etag(tag, weak=True)
    return response


def _plain(built: Optional[tuple[str, dict]]) -> Optional[tuple[str, dict]]:
    """Bodies have no slots: what a name holds is never read as one."""
    return None if built is None else (built[0], {**built[1], "plain": True})

"""A page's live parts: the pieces of a page that change while it is open (the round page's tables and counts, a
player's card and clock), drawn by the macros of one template, and the answer to the page's poll.

A part is digested before this request's form token goes in, so it digests the same on every request for as long
as it stays the same; the page's script asks again only for the parts whose digest changed."""
from __future__ import annotations

import hashlib
from typing import Callable, Iterable, Optional

from flask import current_app, jsonify, request
from markupsafe import Markup

TOKEN = "csrf-token-of-this-answer"  # stands in for the form token while a part is drawn and digested
PRIVATE = "private, no-cache"  # a device's own view: never shared, always asked again (304 while unchanged)

Parts = dict[str, tuple[str, Markup]]  # element id -> (digest, HTML)


def draw(template: str, context: dict, drawers: Callable[[object], dict[str, Callable[[], object]]],
         ids: Optional[Iterable[str]] = None, seen: Optional[Callable[[str, str], str]] = None,
         keys: Optional[Callable[[str], Optional[str]]] = None, digests_only: bool = False) -> Parts:
    """The parts named in `ids` (else all) that `drawers(macros)` lists, drawn from `template`'s macros with
    `context`. `seen(part, html)`: what a part's digest is taken of, when not its whole HTML. `keys(part)`: for
    a part whose HTML follows from a few values alone, those values (a string; None: digest its HTML), so that
    with `digests_only` such a part is digested without being drawn (its HTML is then empty): a poll that only
    asks which of a big page's rows changed draws none of them."""
    context = dict(context)
    current_app.update_template_context(context)
    token = context["csrf_token"]()
    context["csrf_token"] = lambda: TOKEN
    macros = current_app.jinja_env.get_template(template).make_module(context)
    ids = None if ids is None else set(ids)
    out = {}
    for part, drawer in drawers(macros).items():
        if ids is None or part in ids:
            key = keys(part) if keys else None
            if key is not None and digests_only:
                out[part] = (hashlib.blake2b(key.encode(), digest_size=8).hexdigest(), Markup(""))
                continue
            html = str(drawer())
            digest = hashlib.blake2b((key if key is not None else seen(part, html) if seen else html).encode(),
                                     digest_size=8).hexdigest()
            out[part] = (digest, Markup(html.replace(TOKEN, token)))
    return out


def stand_in() -> str:
    """The form token a part drawn by a template of its own (a box a macro calls in) writes, as `draw`'s context
    does: `draw` puts the real one in after digesting, so the digest does not change with the token's timestamp."""
    return TOKEN


def htmls(parts: Parts) -> dict[str, Markup]:
    return {part: html for part, (_, html) in parts.items()}


def digests(parts: Parts) -> dict[str, str]:
    return {part: digest for part, (digest, _) in parts.items()}


def asked() -> Optional[set[str]]:
    """The parts a poll asks to be drawn (?parts=a,b); None: only the digests."""
    return set(request.args["parts"].split(",")) if "parts" in request.args else None


def unchanged(etag: str):
    """The poll's answer when nothing it follows has changed."""
    return "", 304, {"ETag": f'"{etag}"', "Cache-Control": PRIVATE}


def answer(parts: Parts, wanted: Optional[set[str]], etag: str):
    """The poll's answer: every part's digest, the asked parts' HTML, the ETag to ask with next time."""
    body = {"digests": digests(parts)}
    if wanted is not None:
        body["fragments"] = htmls(parts)
    response = jsonify(body)
    response.set_etag(etag)
    response.headers["Cache-Control"] = PRIVATE
    return response

"""This device's player in an event: the player link it was opened with, kept in a cookie of its own per event.

Not in the signed session: a spare laptop that takes a moved event over has another SECRET_KEY, which would drop
the session and with it every phone's "You:" line. The link itself is the secret (its token, its check, a moved
link's hash, its reissue: app/services/players/player_links.py), so its cookie needs no signature: it is as secret as
the session (HttpOnly, SameSite=Lax, Secure under https) and goes only to the event's own pages."""
from __future__ import annotations

from flask import after_this_request, current_app, request, session, url_for

from ..models import Player
from ..services.players import player_links

COOKIE = "sass_player_"  # + the event's slug
_SET = "sass.player_links"  # in the request's environ: the links this request set (slug -> token or None)


def remember(tournament, player: Player) -> None:
    """This device is `player` in `tournament` from now on."""
    _set(tournament, player_links.token(player))


def forget(tournament) -> None:
    if _raw(tournament):
        _set(tournament, None)


def holds_link(tournament) -> bool:
    """Whether this device was opened as a player of `tournament` (without asking the database)."""
    return bool(_raw(tournament))


def current_player(tournament) -> Player | None:
    """The player this device was opened as in `tournament`, if that link is still valid."""
    return player_links.player_for(tournament, _raw(tournament))


def _raw(tournament) -> str | None:
    """The link this device holds for the event: set in this request, else its cookie, else where devices kept it
    before the cookie (the session)."""
    changed = request.environ.get(_SET, {})
    if tournament.slug in changed:
        return changed[tournament.slug]
    return request.cookies.get(COOKIE + tournament.slug) or session.get("player_links", {}).get(tournament.slug)


def _set(tournament, token: str | None) -> None:
    slug = tournament.slug
    changed = request.environ.setdefault(_SET, {})  # this request's, never another's (tests share one `g`)
    first = slug not in changed
    changed[slug] = token
    if "player_links" in session and slug in session["player_links"]:  # moved out of the session
        session["player_links"] = {k: v for k, v in session["player_links"].items() if k != slug}
    if not first:
        return
    path = url_for("public.home", slug=slug)

    @after_this_request
    def _cookie(response):
        value = changed.get(slug)
        if value is None:
            response.delete_cookie(COOKIE + slug, path=path)
        else:
            response.set_cookie(COOKIE + slug, value, path=path, httponly=True, samesite="Lax",
                                secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
                                max_age=int(current_app.permanent_session_lifetime.total_seconds()))
        return response

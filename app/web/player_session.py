"""This device's player in an event: the player link it was opened with, kept in the signed session cookie.

The link itself (its token, its check, its reissue) is app/services/player_links.py; this module only keeps it."""
from __future__ import annotations

from flask import session

from ..models import Player
from ..services import player_links


def remember(tournament, player: Player) -> None:
    """This device is `player` in `tournament` from now on."""
    links = dict(session.get("player_links", {}))
    links[tournament.slug] = player_links.token(player)
    session["player_links"] = links
    session.permanent = True


def forget(tournament) -> None:
    links = dict(session.get("player_links", {}))
    if links.pop(tournament.slug, None) is not None:
        session["player_links"] = links


def holds_link(tournament) -> bool:
    """Whether this device was opened as a player of `tournament` (without asking the database)."""
    return bool(session.get("player_links", {}).get(tournament.slug))


def current_player(tournament) -> Player | None:
    """The player this device was opened as in `tournament`, if that link is still valid."""
    return player_links.player_for(tournament, session.get("player_links", {}).get(tournament.slug))

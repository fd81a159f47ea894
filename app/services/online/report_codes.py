"""The short code a player of an online event proves who they are with at the event's report address.

Six characters of Crockford's base 32 (no I, L, O or U; read back, O is 0 and I and L are 1), so 2^30 codes.
Like the player link (app/services/players/player_links.py) it is a MAC of the player's id and link key under the app's
SECRET_KEY: the database alone yields no code, and the TO's "new link" ends the old code with the old link. A
right code gives the device the player's link; guesses are throttled per address and per player
(app/web/throttle.py), so 2^30 codes are out of reach.
"""
from __future__ import annotations

import hashlib
import hmac

import sqlalchemy as sa
from flask import current_app

from ...core.names import name_key
from ...extensions import db
from ...models import Player, Tournament
from . import handles

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32
LENGTH = 6
_READ_AS = {"O": "0", "I": "1", "L": "1"}


class NoSuchPlayer(LookupError):
    """No player of the event has that name or jinteki.net username."""


class WrongCode(ValueError):
    """The code is not that player's."""


def code(player: Player) -> str:
    """The player's code, as shown on their page and the TO's list (grouped "ABC-123" for reading)."""
    key = current_app.config["SECRET_KEY"].encode()
    mac = hmac.new(key, f"report-code:{player.id}:{player.link_key}".encode(), hashlib.sha256).digest()
    number = int.from_bytes(mac[:8], "big")
    return "".join(ALPHABET[(number >> (5 * i)) & 31] for i in range(LENGTH))


def shown(player: Player) -> str:
    value = code(player)
    return f"{value[:3]}-{value[3:]}"


def normalized(typed: str) -> str:
    """What a player typed, as the code compares: case, spaces and hyphens ignored, O read as 0, I and L as 1."""
    text = "".join(ch for ch in (typed or "").upper() if ch not in " -\t")
    return "".join(_READ_AS.get(ch, ch) for ch in text)


def find(t: Tournament, who: str) -> Player | None:
    """The player of `t` named `who`, or whose jinteki.net username it is (a player may give either)."""
    who = (who or "").strip()
    if not who:
        return None
    player = db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id, name_key=name_key(who))).first()
    return player or handles.taken_by(t, who)


def prove(t: Tournament, who: str, typed: str) -> Player:
    """The player `who` names, when `typed` is their code; NoSuchPlayer or WrongCode otherwise (nothing else is
    said: a wrong code names no other player)."""
    player = find(t, who)
    if player is None:
        raise NoSuchPlayer(who)
    if not hmac.compare_digest(normalized(typed).encode(), code(player).encode()):
        raise WrongCode(who)
    return player


def guess_key(slug: str, who: str) -> str:
    """What the throttle counts a guess against: the player it names in that event, whichever way it names them."""
    t = db.session.scalars(sa.select(Tournament).filter_by(slug=slug)).first()
    player = find(t, who) if t is not None else None
    return f"report-code:{slug}:{player.id if player is not None else 'nobody'}"


def names(t: Tournament) -> list[str]:
    """The names the report page suggests as a player types (they are public on the pairings anyway)."""
    return list(db.session.scalars(sa.select(Player.name).filter_by(tournament_id=t.id, dropped=False)
                                   .order_by(Player.name_key)))

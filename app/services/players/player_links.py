"""Secret player links: a player's identity in one event, without an account.

A link's token is `<player id>.<HMAC-SHA256(SECRET_KEY, player id, link key)>` (128 bits of the MAC kept).
The database stores only the per-player random link key, so a copy of the database cannot forge a link,
the TO can show or print a player's link at any time, and a new key revokes the old link at once.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets

import sqlalchemy as sa

from flask import current_app, url_for

from ...extensions import db
from ...models import Player, Tournament

MAC_HEX = 32  # 128 bits
# The one spelling token() writes: ASCII digits without leading zeros (str.isdigit() also takes '²' and other
# scripts' digits, which int() refuses or reads as another spelling of the same id), lower-case hex.
TOKEN = re.compile(rf"([1-9][0-9]{{0,9}})\.([0-9a-f]{{{MAC_HEX}}})", re.ASCII)


def token(player: Player) -> str:
    return f"{player.id}.{_mac(player.id, player.link_key)}"


def url(player: Player, tournament=None) -> str:
    """The absolute player link, as the TO shows, copies and prints it."""
    tournament = tournament or player.tournament
    return url_for("player.link", slug=tournament.slug, token=token(player), _external=True)


def player_for(tournament, raw: str | None) -> Player | None:
    """The player of `tournament` that `raw` is a valid, unrevoked token for; None otherwise."""
    match = TOKEN.fullmatch(raw or "")
    if match is None:
        return None
    pid, mac = match.groups()
    player = db.session.get(Player, int(pid))
    if player is not None and player.tournament_id == tournament.id \
            and hmac.compare_digest(mac, _mac(player.id, player.link_key)):
        return player
    # A link made on the machine this event was moved from (a preimage of the stored hash: unforgeable too)
    return db.session.scalar(sa.select(Player).filter_by(tournament_id=tournament.id, moved_link=digest(raw)))


# The event by its slug and the player a link names, in one statement built once (every poll of a player's page
# asks it): the player only if they are that event's.
_LINKED = (sa.select(Tournament, Player)
           .outerjoin(Player, sa.and_(Player.tournament_id == Tournament.id, Player.id == sa.bindparam("pid")))
           .where(Tournament.slug == sa.bindparam("slug")))


def linked(slug: str, raw: str | None) -> tuple[Tournament | None, Player | None]:
    """(the event `slug` names, or None; the player of it that `raw` is a valid, unrevoked token for, or None):
    player_for's answer, with the event, in one statement for a current link."""
    match = TOKEN.fullmatch(raw or "")
    if match is None:
        t = db.session.execute(sa.select(Tournament).filter_by(slug=slug)).scalar_one_or_none()
        return t, None
    t, player = db.session.execute(_LINKED, {"slug": slug, "pid": int(match.group(1))}).first() or (None, None)
    if t is None:
        return None, None
    if player is not None and hmac.compare_digest(match.group(2), _mac(player.id, player.link_key)):
        return t, player
    return t, db.session.scalar(sa.select(Player).filter_by(tournament_id=t.id, moved_link=digest(raw)))


def named_player(raw: str | None) -> int | None:
    """The player id a token names, not yet checked (a fast path reads that player's key, then `is_valid`)."""
    match = TOKEN.fullmatch(raw or "")
    return int(match.group(1)) if match else None


def is_valid(raw: str, player_id: int, link_key: str) -> bool:
    """Whether `raw` is this player's current link, given their link key (a moved link is not checked here)."""
    match = TOKEN.fullmatch(raw or "")
    return bool(match) and int(match.group(1)) == player_id \
        and hmac.compare_digest(match.group(2), _mac(player_id, link_key))


def digest(raw_token: str) -> str:
    """What a moved event keeps of a player's old link (Player.moved_link)."""
    return hashlib.sha256(f"player-link:{raw_token}".encode()).hexdigest()


def carried(player: Player) -> str:
    """The hash a backup carries to keep this player's link on another machine: of the link they were first
    given (on the machine this event was moved from, if it was), else of their link here."""
    return player.moved_link or digest(token(player))


def reissue(player: Player) -> None:
    """A new link key, committed: the old link stops working at once (a link from before a move too)."""
    player.link_key = secrets.token_hex(16)
    player.moved_link = None
    db.session.commit()


def _mac(player_id: int, link_key: str) -> str:
    key = current_app.config["SECRET_KEY"].encode()
    msg = f"player-link:{player_id}:{link_key}".encode()
    return hmac.new(key, msg, hashlib.sha256).hexdigest()[:MAC_HEX]

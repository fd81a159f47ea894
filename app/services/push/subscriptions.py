"""A player's subscriptions: what their page posts when they tap "Notify me", and takes back with "Stop"."""
from __future__ import annotations

import base64
import binascii
from typing import Any, Sequence

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...core.push_messages import allowed_endpoint
from ...extensions import db
from ...models import Player, PushSubscription, Tournament
from ...models.push import ENDPOINT_LENGTH, KEY_LENGTH

MAX_PER_PLAYER = 5  # phone, tablet, a second browser...: a sixth replaces the oldest


class PushError(ValueError):
    """Why a subscription was refused, in words for the player's page."""


def _key(value: Any, size: int, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > KEY_LENGTH:
        raise PushError(f"The subscription's {what} is missing.")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise PushError(f"The subscription's {what} is not base64url.") from None
    if len(raw) != size or (what == "p256dh" and raw[0] != 4):
        raise PushError(f"The subscription's {what} is not a key of the right kind.")
    return value


def parse(data: Any, services: Sequence[str]) -> tuple[str, str, str]:
    """(endpoint, p256dh, auth) from a PushSubscription's JSON (what `subscription.toJSON()` gives), or PushError."""
    if not isinstance(data, dict):
        raise PushError("Send the browser's subscription as JSON.")
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > ENDPOINT_LENGTH:
        raise PushError("The subscription has no endpoint.")
    if not allowed_endpoint(endpoint, services):
        raise PushError("This browser's push service is not one this server sends to.")
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise PushError("The subscription has no keys.")
    return endpoint, _key(keys.get("p256dh"), 65, "p256dh"), _key(keys.get("auth"), 16, "auth")


def subscribe(t: Tournament, player: Player, data: Any, services: Sequence[str]) -> PushSubscription:
    """Keep the subscription for this player (the same endpoint again: its keys are renewed)."""
    endpoint, p256dh, auth = parse(data, services)
    for attempt in range(2):
        row = db.session.scalar(sa.select(PushSubscription).where(PushSubscription.player_id == player.id,
                                                                  PushSubscription.endpoint == endpoint))
        if row is None:
            row = PushSubscription(tournament_id=t.id, player_id=player.id, endpoint=endpoint, p256dh=p256dh,
                                   auth=auth)
            db.session.add(row)
        else:
            row.p256dh, row.auth = p256dh, auth
        try:
            db.session.flush()
        except IntegrityError:  # the same subscription posted twice at once: the other one is there now
            db.session.rollback()
            if attempt:
                raise
            continue
        break
    extra = db.session.scalars(sa.select(PushSubscription.id).where(PushSubscription.player_id == player.id)
                               .order_by(PushSubscription.id.desc()).offset(MAX_PER_PLAYER)).all()
    if extra:
        db.session.execute(sa.delete(PushSubscription).where(PushSubscription.id.in_(extra)))
    db.session.commit()
    return row


def unsubscribe(player: Player, endpoint: Any) -> bool:
    """Forget one of the player's subscriptions (their "Stop notifications"); False if it was not theirs."""
    if not isinstance(endpoint, str) or not endpoint:
        return False
    gone = db.session.execute(sa.delete(PushSubscription).where(PushSubscription.player_id == player.id,
                                                                PushSubscription.endpoint == endpoint))
    db.session.commit()
    return bool(gone.rowcount)


def count(player: Player) -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(PushSubscription)
                             .where(PushSubscription.player_id == player.id)) or 0

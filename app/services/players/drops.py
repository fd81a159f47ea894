"""Taking a player out of the event and bringing them back, with who did it (Player.drop_reason, read by
app/core/player_state.py). Under the event's lock: a pairing running meanwhile waits, then leaves them out; before
round 1 a freed place goes to the waitlist's next player (app/services/check_in/waitlist.py)."""
from __future__ import annotations

import sqlalchemy as sa

from ...core.player_state import DropReason
from ...extensions import db
from ...models import Penalty, Player, Tournament, touch
from ...models.penalties import STANDING_DISQUALIFICATION
from ..check_in import waitlist
from ..locks import lock_tournament


class Refused(ValueError):
    """Nothing changed; the message says why."""


def mark_dropped(t: Tournament, player_ids, reason: DropReason, *extra) -> int:
    """Drop those of `player_ids` still in (and matching `extra` conditions), saying why; how many dropped. The
    caller holds the lock and commits (and fills the waitlist)."""
    done = db.session.execute(
        sa.update(Player).where(Player.id.in_(list(player_ids)), Player.tournament_id == t.id,
                                Player.dropped.is_(False), *extra)
        .values(dropped=True, drop_reason=reason.value), execution_options={"synchronize_session": False})
    if done.rowcount:
        touch(db.session, [t.id])
    return done.rowcount


def drop(t: Tournament, player: Player, reason: DropReason) -> list[str]:
    """Drop the player (the caller commits); the names the freed place let in from the waitlist. Refused for a
    player already out."""
    lock_tournament(t)
    if not mark_dropped(t, [player.id], reason):
        raise Refused(f"{player.name} is not in the event any more.")
    return waitlist.fill(t)


def bring_back(t: Tournament, player: Player) -> None:
    """Bring a dropped player back in (or let a waiting one in, cap or not); the caller commits. A standing
    disqualification keeps the player out: it is voided first, in the penalty log."""
    lock_tournament(t)
    if db.session.scalar(sa.select(Penalty.id).where(Penalty.player_id == player.id, STANDING_DISQUALIFICATION)
                         .limit(1)) is not None:
        raise Refused(f"{player.name} is disqualified: void the disqualification in the penalty log first.")
    if waitlist.admit(t, player):
        return
    done = db.session.execute(sa.update(Player).where(Player.id == player.id, Player.dropped.is_(True))
                              .values(dropped=False, drop_reason=None),
                              execution_options={"synchronize_session": False})
    if done.rowcount:
        touch(db.session, [t.id])
    db.session.expire_all()

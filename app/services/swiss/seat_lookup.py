"""The published round's seats of one bucket of players (app/core/seat_lookup.py): a few bytes a player, since a
whole hall's phones fetch them at once; the player's page draws them into the card it was given for it."""
from __future__ import annotations

from typing import Optional

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ...core.pairing import Side
from ...core.kept import Kept
from ...core.seat_lookup import BUCKETS
from ...core.seat_lookup import bucket as bucket_of
from ...extensions import db
from ...models import Match, Player, Round, Seat, Tournament

SIDE_WORDS = {Side.CORP.value: "Corp", Side.RUNNER.value: "Runner"}


# A round's seats by bucket, kept by the event's version: the first of a hall's 64 bucket asks reads the round once,
# the others (in this worker) take theirs from here.
_ROUNDS: Kept[Optional[dict]] = Kept(32)


def answer(t: Tournament, number: int, bucket: int) -> Optional[dict]:
    """{"round": n, "seats": {player id: {"table", "side", "opponent"}}} of the players in `bucket` seated in
    published round `number`; None when that round is not published (or the bucket does not exist)."""
    if not 0 <= bucket < BUCKETS:
        return None
    buckets = _ROUNDS.get((t.id, t.slug, t.version, number), lambda: _by_bucket(t, number))
    if buckets is None:
        return None
    return {"round": number, "seats": buckets.get(bucket, {})}


def _by_bucket(t: Tournament, number: int) -> Optional[dict[int, dict]]:
    """Every seat of published round `number`, in one read, by bucket; None when it is not published."""
    published = db.session.scalar(sa.select(Round.id).where(Round.tournament_id == t.id, Round.number == number,
                                                            Round.published.is_(True)))
    if published is None:
        return None
    mine, theirs, opponent = aliased(Seat), aliased(Seat), aliased(Player)
    rows = db.session.execute(
        sa.select(mine.player_id, Match.table, Match.is_bye, mine.side, opponent.name)
        .join(Match, Match.id == mine.match_id)
        .outerjoin(theirs, sa.and_(theirs.match_id == mine.match_id, theirs.player_id != mine.player_id))
        .outerjoin(opponent, opponent.id == theirs.player_id)
        .where(mine.round_id == published)).all()
    out: dict[int, dict] = {}
    for player_id, table, bye, side, name in rows:
        out.setdefault(bucket_of(player_id), {})[str(player_id)] = {
            "table": None if bye else table, "side": SIDE_WORDS.get(side), "opponent": None if bye else name}
    return out

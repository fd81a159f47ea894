"""The published round's seats of one bucket of players (app/core/seat_lookup.py): a few bytes a player, since a
whole hall's phones fetch them at once; the player's page draws them into the card it was given for it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ...core.pairing import Side
from ...core.kept import Kept
from ...core.seat_lookup import BUCKETS
from ...core.seat_lookup import bucket as bucket_of
from ...extensions import db
from ...models import Match, Player, Round, Seat, Tournament

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


def seat_count(t: Tournament, number: int) -> int:
    """How many seats published round `number` has (0: not published): one count on the seats' round index."""
    return db.session.scalar(sa.select(sa.func.count(Seat.id)).join(Round, Round.id == Seat.round_id).where(
        Round.tournament_id == t.id, Round.number == number, Round.published.is_(True))) or 0


@dataclass(frozen=True)
class Seated:
    player_id: int
    table: Optional[int]  # None: a bye
    side: Optional[str]  # "Corp" / "Runner" (single-sided), else None
    opponent: Optional[str]  # None: a bye
    playing: bool  # no result yet (and not a bye)


def seated(t: Tournament, number: int, players: Optional[sa.Select] = None) -> Optional[list[Seated]]:
    """Everyone seated in published round `number` (only `players`, a select of player ids, when given), with their
    table, side and opponent; None when the round is not published. Read once: the seats answers and the push
    messages of a publish both ask it."""
    published = db.session.scalar(sa.select(Round.id).where(Round.tournament_id == t.id, Round.number == number,
                                                            Round.published.is_(True)))
    if published is None:
        return None
    mine, theirs, opponent = aliased(Seat), aliased(Seat), aliased(Player)
    query = (sa.select(mine.player_id, Match.table, Match.is_bye, Match.result, mine.side, opponent.name)
             .join(Match, Match.id == mine.match_id)
             .outerjoin(theirs, sa.and_(theirs.match_id == mine.match_id, theirs.player_id != mine.player_id))
             .outerjoin(opponent, opponent.id == theirs.player_id)
             .where(mine.round_id == published))
    if players is not None:
        query = query.where(mine.player_id.in_(players))
    return [Seated(player_id, None if bye else table, Side(side).label if side else None, None if bye else name,
                   not bye and result is None)
            for player_id, table, bye, result, side, name in db.session.execute(query)]


def _by_bucket(t: Tournament, number: int) -> Optional[dict[int, dict]]:
    """Every seat of published round `number`, in one read, by bucket; None when it is not published."""
    seats = seated(t, number)
    if seats is None:
        return None
    out: dict[int, dict] = {}
    for s in seats:
        out.setdefault(bucket_of(s.player_id), {})[str(s.player_id)] = {
            "table": s.table, "side": s.side, "opponent": s.opponent}
    return out

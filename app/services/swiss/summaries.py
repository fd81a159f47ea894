"""Each round of an event with how many of its matches still wait for a result: read by the pairing, the cut's
advice, the schedule and the group pages. Apart from rounds.py so that a reader of rounds (the cut's advice) need not
depend on the pairing, which asks the series' ratings, which read the cut."""
from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from ...extensions import db
from ...models import Match, Round, Tournament


@dataclass(frozen=True)
class RoundSummary:
    number: int
    published: bool
    matches: int
    unreported: int
    seeded: bool = False  # ratings seeded its pairing (docs/domain.md 15.2)


def round_summaries(t: Tournament, *, published_only: bool = False) -> list[RoundSummary]:
    """Every round with how many of its matches still wait for a result, in one query."""
    query = (sa.select(Round.number, Round.published, sa.func.count(Match.id),
                       sa.func.count(Match.id) - sa.func.count(Match.result), Round.seeded_by_rating)
             .outerjoin(Match, Match.round_id == Round.id)
             .where(Round.tournament_id == t.id)
             .group_by(Round.id, Round.number, Round.published, Round.seeded_by_rating).order_by(Round.number))
    if published_only:
        query = query.where(Round.published)
    return [RoundSummary(*row) for row in db.session.execute(query)]

"""An event's statistics from the database: the published swiss tables, the players' identities and the cut's
reported games in, app/core/event_stats.py's numbers out; and whether the public may see them yet."""
from __future__ import annotations


import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ..core import event_stats as core
from ..core.kept import Kept
from ..extensions import db
from ..models import Match, Player, Round, Seat, Tournament
from . import cut as cut_service
from . import next_step


_PUBLIC: Kept[bool] = Kept(256)


def public(t: Tournament) -> bool:
    """The public sees the statistics once the swiss is over (next_step.swiss_over: every planned round
    published and complete, or a cut made); the TO and staff see them at any time (app/web/access.py).

    Asked on every event page (the link) and every statistics request, so the answer is kept per tournament
    version: any change to the event bumps it (app/models/: touch)."""
    return _PUBLIC.get((t.id, t.slug, t.version, t.planned_rounds),
                       lambda: next_step.swiss_over(next_step.facts_for(t)))


def tables(t: Tournament) -> list[core.Table]:
    """Every reported table of the published swiss rounds, byes included, in one query (the two seats joined,
    as state.completed_games reads them, with the result key that says which side won each game)."""
    one, two = aliased(Seat), aliased(Seat)
    query = (
        sa.select(Round.number, Match.result, Match.intentional_draw, one.player_id, one.side, two.player_id,
                  two.side)
        .join(Match, Match.round_id == Round.id)
        .join(one, sa.and_(one.match_id == Match.id, one.position == 1))
        .outerjoin(two, sa.and_(two.match_id == Match.id, two.position == 2))
        .where(Round.tournament_id == t.id, Round.published, Match.result.is_not(None))
        .order_by(Round.number, Match.table))
    return [core.Table(number, result, draw, ((a, a_side),) if b is None else ((a, a_side), (b, b_side)))
            for number, result, draw, a, a_side, b, b_side in db.session.connection().execute(query)]


def entries(t: Tournament) -> list[core.Entry]:
    return [core.Entry(*row) for row in db.session.connection().execute(
        sa.select(Player.id, Player.corp_identity, Player.runner_identity).where(Player.tournament_id == t.id))]


def build(t: Tournament) -> core.EventStats:
    """The event's statistics: the swiss from its published rounds, the cut from its reported games."""
    bracket = cut_service.bracket(t)
    cut = None if bracket is None else (bracket.seeds, core.cut_games(t.fmt, bracket.games))
    return core.event_stats(t.fmt, entries(t), tables(t), cut)

"""The standings table the pages and exports show: the engine's rows with each player's identities."""
from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from ...core.standings import TIEBREAKERS, default_tiebreakers
from ...extensions import db
from ...models import Player, Tournament
from .. import state


@dataclass
class StandingsTable:
    tiebreakers: tuple[str, ...]  # column names, from app.core.standings.TIEBREAKERS
    rows: list  # of app.core.standings.Standing
    identities: dict  # player id -> (corp identity, runner identity)
    single_sided: bool


def standings(t: Tournament, published_only: bool = False) -> StandingsTable:
    """Live standings from the engine; public pages count published rounds only."""
    system = t.tiebreakers or default_tiebreakers(t.fmt)
    rows = state.standings(t, published_only=published_only)
    identities = {pid: (corp, runner) for pid, corp, runner in db.session.execute(
        sa.select(Player.id, Player.corp_identity, Player.runner_identity).where(Player.tournament_id == t.id))}
    return StandingsTable(TIEBREAKERS[system], rows, identities, t.fmt.sided_tables)

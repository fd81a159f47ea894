"""The standings table the pages and exports show: the engine's rows with each player's identities, and each player's
state in the words of the table's reader (app/core/player_state.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import sqlalchemy as sa

from ...core.player_state import Reader
from ...core.standings import TIEBREAKERS, default_tiebreakers
from ...extensions import db
from ...models import Player, Tournament
from .. import state


@dataclass
class StandingsTable:
    tiebreakers: tuple[str, ...]  # column names, from app.core.standings.TIEBREAKERS
    rows: list  # of app.core.standings.Standing: the players who played (a disqualified one last)
    identities: dict  # player id -> (corp identity, runner identity)
    single_sided: bool
    words: dict = field(default_factory=dict)  # player id -> the reader's words for a player out ("dropped")
    did_not_play: list = field(default_factory=list)  # the staff's: (name, words) of those out before playing


def standings(t: Tournament, published_only: bool = False, reader: Optional[Reader] = None) -> StandingsTable:
    """Live standings from the engine; public pages count published rounds only. `reader` (by default the public
    for `published_only`, else the staff) says whose words the states are in; only the staff's table lists the
    players who never played, apart from the ranked ones (docs/domain.md 7)."""
    reader = Reader(reader) if reader else Reader.PUBLIC if published_only else Reader.STAFF
    system = t.tiebreakers or default_tiebreakers(t.fmt)
    rows = state.standings(t, published_only=published_only)
    identities = {pid: (corp, runner) for pid, corp, runner in db.session.execute(
        sa.select(Player.id, Player.corp_identity, Player.runner_identity).where(Player.tournament_id == t.id))}
    of = state.out_states(t)
    words = _words(of, reader)
    absent = []
    if reader is Reader.STAFF:
        gone = {pid: ps for pid, ps in of.items() if ps.did_not_play}
        if gone:
            names = db.session.execute(sa.select(Player.id, Player.name).where(Player.id.in_(list(gone)))).all()
            absent = sorted(((name, gone[pid].words(reader)) for pid, name in names), key=lambda x: x[0].casefold())
    return StandingsTable(TIEBREAKERS[system], rows, identities, t.fmt.sided_tables, words, absent)


def _words(of: dict, reader: Reader) -> dict:
    return {pid: ps.words(reader) for pid, ps in of.items() if ps.out or ps.waiting}


def state_words(t: Tournament, reader: Reader) -> dict:
    """Player id -> the reader's words for each player out or waiting ("dropped", "disqualified"): what a table of
    placings (the cut's final standings) shows beside a name. Players in the field have none."""
    return _words(state.out_states(t), Reader(reader))

"""A tournament's players and completed games as the engine sees them, loaded in two queries."""
from __future__ import annotations

import threading
from collections import OrderedDict
from itertools import groupby

import sqlalchemy as sa

from ..extensions import db
from ..models import Match, Player, Round, Seat, Tournament
from ..pairing import Entrant, Game, Side


def entrants(tournament: Tournament) -> list[Entrant]:
    players = db.session.scalars(sa.select(Player).filter_by(tournament_id=tournament.id).order_by(Player.id))
    return [
        Entrant(id=p.id, name=p.name, dropped=p.dropped, first_round_bye=p.first_round_bye,
                fixed_table=p.fixed_table)
        for p in players
    ]


def completed_games(tournament: Tournament, before_round: int | None = None) -> list[Game]:
    """Every reported match (and bye) of the swiss rounds, optionally only rounds before `before_round`."""
    query = (
        sa.select(Round.number, Match.id, Match.is_bye, Match.intentional_draw, Match.drawn_games,
                  Seat.player_id, Seat.position, Seat.side, Seat.points, Seat.games_won)
        .join(Match, Match.round_id == Round.id)
        .join(Seat, Seat.match_id == Match.id)
        .where(Round.tournament_id == tournament.id, Match.result.is_not(None))
        .order_by(Round.number, Match.id, Seat.position)
    )
    if before_round is not None:
        query = query.where(Round.number < before_round)
    games = []
    for _, seats in groupby(db.session.execute(query), key=lambda row: row.id):
        seats = list(seats)
        first = seats[0]
        if first.is_bye or len(seats) == 1:
            games.append(Game(round=first.number, player=first.player_id, opponent=None,
                              player_points=first.points or 0))
            continue
        second = seats[1]
        games.append(Game(
            round=first.number, player=first.player_id, opponent=second.player_id,
            player_points=first.points or 0, opponent_points=second.points or 0,
            player_side=Side(first.side) if first.side else None,
            player_games=first.games_won, opponent_games=second.games_won, drawn_games=first.drawn_games,
            intentional_draw=first.intentional_draw,
        ))
    return games


_STANDINGS_CACHE: "OrderedDict[tuple, list]" = OrderedDict()
_CACHE_SIZE = 64
_cache_lock = threading.Lock()


def standings(tournament: Tournament, through_round: int | None = None) -> list:
    """Swiss standings from the engine, cached per tournament version: phones polling a 2,000-player event
    cost a lookup, and any change to the event (which bumps the version) recomputes them."""
    from ..standings import compute_standings

    key = (tournament.id, tournament.slug, tournament.version, through_round, tournament.tiebreakers)
    with _cache_lock:
        if key in _STANDINGS_CACHE:
            _STANDINGS_CACHE.move_to_end(key)
            return _STANDINGS_CACHE[key]
    before = None if through_round is None else through_round + 1
    rows = compute_standings(tournament.fmt, entrants(tournament), completed_games(tournament, before),
                             tiebreakers=tournament.tiebreakers)
    with _cache_lock:
        _STANDINGS_CACHE[key] = rows
        while len(_STANDINGS_CACHE) > _CACHE_SIZE:
            _STANDINGS_CACHE.popitem(last=False)
    return rows

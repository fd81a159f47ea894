"""A tournament's players and completed games as the engine sees them, loaded in two queries."""
from __future__ import annotations


import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ..extensions import db
from ..models import CutEntry, Match, Player, Round, Seat, Tournament
from ..core.pairing import Entrant, Game, Side
from ..core.kept import Kept
from ..core.pairing.history import gc_paused
from .check_in.waitlist import WAITING
from .players import states


def entrants(tournament: Tournament) -> list[Entrant]:
    """Every player of the event but those still on the waitlist (never paired, never ranked)."""
    query = (sa.select(Player.id, Player.name, Player.dropped, Player.first_round_bye, Player.fixed_table)
             .where(Player.tournament_id == tournament.id, ~WAITING).order_by(Player.id))
    return [Entrant(*row) for row in db.session.connection().execute(query)]


def first_seat(seat):
    """Joins a match's first seat (aliased Seat): position 1, or a bye's lone seat whichever position it has (an
    imported file may seat a bye's player second, and the export writes it back there)."""
    return sa.or_(seat.position == 1, Match.is_bye)


def second_seat(seat):
    """Joins a match's second seat: position 2 of a table of two; a bye has none."""
    return sa.and_(seat.position == 2, Match.is_bye.is_(False))


def completed_games(tournament: Tournament, before_round: int | None = None,
                    published_only: bool = False) -> list[Game]:
    """Every reported match (and bye) of the swiss rounds, optionally only rounds before `before_round`, or only
    published rounds (what the public sees: a result in a round still being checked is nobody else's business).

    One row per match (the two seats joined), read through Core: 15,000 games load in a few dozen ms. A seat's
    penalty (Seat.penalty, an imported file's negative score) comes off its points here, so the standings and
    the pairing count it.
    """
    one, two = aliased(Seat), aliased(Seat)
    query = (
        sa.select(Round.number, Match.is_bye, Match.intentional_draw, Match.drawn_games,
                  one.player_id, one.side, one.points - one.penalty, one.games_won,
                  two.player_id, two.points - two.penalty, two.games_won)
        .join(Match, Match.round_id == Round.id)
        .join(one, sa.and_(one.match_id == Match.id, first_seat(one)))
        .outerjoin(two, sa.and_(two.match_id == Match.id, second_seat(two)))
        .where(Round.tournament_id == tournament.id, Match.result.is_not(None))
        .order_by(Round.number, Match.id)
    )
    if before_round is not None:
        query = query.where(Round.number < before_round)
    if published_only:
        query = query.where(Round.published)
    sides = {side.value: side for side in Side}
    games = []
    for number, is_bye, draw, drawn, a, a_side, a_points, a_games, b, b_points, b_games in \
            db.session.connection().execute(query):
        if is_bye or b is None:
            games.append(Game(number, a, None, a_points or 0))
        else:
            games.append(Game(number, a, b, a_points or 0, b_points or 0, sides.get(a_side), a_games, b_games,
                              drawn, draw))
    return games


def open_rounds(tournament: Tournament) -> list[int]:
    """The swiss rounds with a table still unreported (byes aside)."""
    return list(db.session.scalars(
        sa.select(Round.number).join(Match, Match.round_id == Round.id)
        .where(Round.tournament_id == tournament.id, Match.result.is_(None), Match.is_bye.is_(False)).distinct()))


_STANDINGS_CACHE: Kept[list] = Kept(64)


def standings(tournament: Tournament, published_only: bool = False, cut_first: bool = True) -> list:
    """Swiss standings from the engine, cached per tournament version: phones polling a 2,000-player event
    cost a lookup, and any change to the event (which bumps the version) recomputes them. Public pages, the API
    and the NRTM file ask for `published_only`. Once a cut exists, its players come first in seed order
    (core/standings.seeds_first), so the pages say what the bracket says; the NRTM file asks `cut_first=False`:
    its ranks are the swiss placings (the cut's order is its eliminationPlayers)."""
    from ..core.standings import seeds_first

    seeds = tuple(db.session.scalars(sa.select(CutEntry.player_id).filter_by(tournament_id=tournament.id)
                                     .order_by(CutEntry.seed))) if tournament.cut_kind and cut_first else ()
    key = (tournament.id, tournament.slug, tournament.version, published_only, tournament.tiebreakers, seeds)

    def build() -> list:
        rows = swiss_standings(tournament, published_only)
        return seeds_first(rows, seeds) if seeds else rows

    return _STANDINGS_CACHE.get(key, build)


def swiss_standings(tournament: Tournament, published_only: bool = False) -> list:
    """The standings the games give, as the swiss ranks them, cut or no cut (uncached). A player out before they
    ever played has no row and a disqualified one comes last without a placing (app/core/player_state.py, loaded
    once per build: a few queries, not one per row). Every state they read changes with the event's version (a
    drop, a disqualification or its void, the waitlist: each touches the event), which keys `standings`' cache."""
    from ..core.standings import compute_standings, counted_games
    with gc_paused():  # tens of thousands of small objects, all kept: collection passes would find nothing
        games = counted_games(completed_games(tournament, published_only=published_only), open_rounds(tournament))
        of = out_states(tournament)
        return compute_standings(tournament.fmt, entrants(tournament), games, tiebreakers=tournament.tiebreakers,
                                 tie_order=file_ranks(tournament),
                                 disqualified={p for p, s in of.items() if s.disqualified},
                                 left_out={p for p, s in of.items() if s.did_not_play})


_OUT_CACHE: Kept[dict] = Kept(256)


def out_states(tournament: Tournament) -> dict:
    """Player id -> PlayerState (app/core/player_state.py) of every player waiting or out of the event: what the
    standings and their words ask. Loaded once per event version (each of these states changes only with a
    change that touches the event; none moves with the clock, unlike a roll call's states of players in)."""
    def build() -> dict:
        return {pid: ps for pid, ps in states.of_event(tournament).items() if ps.out or ps.waiting}

    return _OUT_CACHE.get((tournament.id, tournament.slug, tournament.version), build)


def file_ranks(tournament: Tournament) -> dict:
    """The swiss ranks an imported NRTM file gave its players (Player.file_rank), by player id: the order of
    the file's exact ties; {} for an event not imported."""
    return dict(db.session.connection().execute(
        sa.select(Player.id, Player.file_rank).where(Player.tournament_id == tournament.id,
                                                    Player.file_rank.is_not(None))).all())

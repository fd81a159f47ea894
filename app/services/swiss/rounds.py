"""Rounds in the database: read them, pair the next one, publish, undo.

Each action is one transaction that either happens completely or not at all; a refusal raises RoundError
with a message for the TO and writes nothing. Results are app/services/results/match_results.py, hand edits of the
pairings app/services/swiss/pairing_edits.py, the standings table app/services/results/standings.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Optional, Sequence

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...core.pairing import Side
from ...core.results import BYE
from ...extensions import db
from ...models import Match, Player, Round, Seat, Tournament, touch, utcnow
from .. import ratings, state
from .summaries import RoundSummary, round_summaries  # noqa: F401 (read here by many)
from ..event_files import backup
from ..check_in import roll_call
from ..locks import lock_tournament
from ..push import outbox as push_outbox


class RoundError(Exception):
    """A refused action; str() is the message for the TO."""


class AlreadyPaired(RoundError):
    """The round was paired already (a double-click, or a second tab)."""


class PlanChanged(RoundError):
    """What pairing does first (a roll call's no-shows, the waitlist) is not what the TO confirmed: nothing was
    done; `preview` (services/check_in/roll_call.Preview) is the plan now, to show again."""

    def __init__(self, message: str, preview):
        super().__init__(message)
        self.preview = preview


class NotFound(RoundError):
    """The match or round is not part of this tournament."""


class PastRound(RoundError):
    """A result of a round that a later round follows, sent without the TO choosing to edit that round."""

    def __init__(self, message: str, round_number: int):
        super().__init__(message)
        self.round_number = round_number


def latest_number(t: Tournament) -> int:
    return db.session.scalar(sa.select(sa.func.max(Round.number)).where(Round.tournament_id == t.id)) or 0


def latest_published(t: Tournament) -> int:
    return db.session.scalar(
        sa.select(sa.func.max(Round.number)).where(Round.tournament_id == t.id, Round.published)) or 0


@dataclass(slots=True)
class SeatView:
    player_id: int
    name: str
    position: int
    side: Optional[str]
    points: Optional[int]
    games_won: int


@dataclass(slots=True)
class TableView:
    id: int
    table: int
    is_bye: bool
    result: Optional[str]
    seats: list  # of SeatView, Corp first in single-sided swiss


@dataclass(slots=True)
class RoundView:
    id: int
    number: int
    published: bool
    matches: list  # of TableView, by table
    certified: Optional[bool] = None  # the engine proved its pairing optimal (None: not paired by the engine here)
    gap: Optional[str] = None  # else: its proven distance from the optimum ("7/2"), if known
    slip_ref: int = 0  # what its slips' codes name it by (app/services/results/slip_codes.py)
    featured_table: Optional[int] = None  # the table the TO put on stream (app/services/streaming.py)

    @property
    def proof(self) -> str:
        """What the engine proved about this round's pairing, in the TO's words ("" for an imported round)."""
        if self.certified is None:
            return ""
        if self.certified:
            return "certified optimal"
        if self.gap is None:
            return "not proven optimal"
        gap = Fraction(self.gap)
        shown = f"{gap.numerator}" if gap.denominator == 1 else f"{float(gap):.2f}".rstrip("0")
        return f"within {shown} of optimal (the best pairing found within the engine's work budget)"


def load_round(t: Tournament, number: int, *, published_only: bool = False) -> Optional[RoundView]:
    """A round's tables, seats and player names as plain rows: two queries and no ORM objects, so a
    1,000-table round renders fast. None if the round is missing (or unpublished when asked)."""
    query = sa.select(Round.id, Round.number, Round.published, Round.certified, Round.gap, Round.slip_ref,
                      Round.featured_table).where(
        Round.tournament_id == t.id, Round.number == number)
    if published_only:
        query = query.where(Round.published)
    head = db.session.execute(query).first()
    if head is None:
        return None
    rows = db.session.connection().execute(  # Core: no ORM row processing for 10,000 seats
        sa.select(Match.id, Match.table, Match.is_bye, Match.result, Seat.player_id, Player.name, Seat.position,
                  Seat.side, Seat.points, Seat.games_won)
        .join(Seat, Seat.match_id == Match.id).join(Player, Player.id == Seat.player_id)
        .where(Match.round_id == head.id).order_by(Match.table, Seat.position))
    tables: list[TableView] = []
    view = None
    for mid, table, is_bye, result, *seat in rows:
        if view is None or view.id != mid:
            view = TableView(mid, table, is_bye, result, [])
            tables.append(view)
        view.seats.append(SeatView(*seat))
    if t.fmt.sided_tables:  # the seats come in position order: corp_first's order without sorting 5,000 tables
        corp = Side.CORP.value
        for view in tables:
            if len(view.seats) == 2 and view.seats[1].side == corp:
                view.seats.reverse()
    return RoundView(head.id, head.number, head.published, tables, head.certified, head.gap, head.slip_ref,
                     head.featured_table)


def load_table(t: Tournament, match_id: int) -> Optional[tuple[int, TableView]]:
    """(round number, the table) of one match of `t`, seats with names; None if it is not one of t's."""
    rows = db.session.execute(
        sa.select(Round.number, Match.id, Match.table, Match.is_bye, Match.result, Seat.player_id, Player.name,
                  Seat.position, Seat.side, Seat.points, Seat.games_won)
        .join(Match, Match.round_id == Round.id).join(Seat, Seat.match_id == Match.id)
        .join(Player, Player.id == Seat.player_id)
        .where(Match.id == match_id, Match.tournament_id == t.id).order_by(Seat.position)).all()
    if not rows:
        return None
    view = TableView(*rows[0][1:5], [SeatView(*row[5:]) for row in rows])
    view.seats = ordered_seats(t, view)
    return rows[0][0], view


def points_before(t: Tournament, number: int, players: Optional[Iterable[int]] = None) -> dict[int, int]:
    """Each player's points from the rounds before `number` (what they bring into it), by player id: one
    aggregate query, the same sum the standings make (points always come from the seats' games, less their
    penalties), and no standings recomputation, which a result in the live round would otherwise force on every
    page view.
    Players without a seat before the round are left out (they have 0). `players`: only these (a table's)."""
    if number <= 1:
        return {}
    query = (sa.select(Seat.player_id, sa.func.sum(Seat.points - Seat.penalty))
             .join(Round, Round.id == Seat.round_id)
             .where(Round.tournament_id == t.id, Round.number < number, Seat.points.is_not(None))
             .group_by(Seat.player_id))
    if players is not None:
        query = query.where(Seat.player_id.in_(list(players)))
    return dict(db.session.connection().execute(query).all())


def standings_progress(summaries: list[RoundSummary]) -> str:
    """Which rounds the standings include: a round with results still missing is in progress, not done."""
    if not summaries:
        return ""
    last = summaries[-1]
    if last.unreported == 0:
        return f"after round {last.number}"
    progress = f"round {last.number} in progress, {last.matches - last.unreported} of {last.matches} results"
    return f"after round {last.number - 1}; {progress}" if last.number > 1 else progress


def status(t: Tournament) -> dict:
    """The latest published round and a version that changes when its pairings do (services/status.py)."""
    from ..status import poll

    data = poll(t.slug)
    return {"round": data["round"], "version": data["version"]}


def ordered_seats(t: Tournament, match) -> list:
    """A Match's (or TableView's) seats, Corp first in single-sided swiss (Seat.side decides, else position),
    in seat order otherwise."""
    return corp_first(t, match.seats)


def corp_first(t: Tournament, seats) -> list:
    seats = sorted(seats, key=lambda s: s.position)
    if t.fmt.sided_tables and len(seats) == 2 and seats[1].side == Side.CORP.value:
        seats.reverse()
    return seats


# ---------------------------------------------------------------- pairing

def pair_next_round(t: Tournament, expected_number: int, plan_digest: Optional[str] = None) -> Round:
    """Pair round `expected_number` with the engine and write it in one transaction, with what its roll call does
    first (services/check_in/roll_call.at_pairing: the no-shows dropped, the present waiting players let in).

    `plan_digest`: the digest of that plan as the TO saw it (core/check_in.py PairingPlan.digest); another plan now
    raises PlanChanged and writes nothing (None: not asked). A second request for the same number (double-click,
    second tab, a race lost on the unique (tournament, number) constraint) raises AlreadyPaired and writes nothing.
    The tournament lock is held from the first read, so the player list paired is the one committed, not one a
    removal is changing; a pairing the engine refuses writes nothing, not even the drops and let-ins.
    """
    from ...core.pairing import PairingError, pair_round

    t = lock_tournament(t)
    number = check_pairable(t, expected_number)
    try:
        roll_call.at_pairing(t, number, plan_digest)
    except roll_call.PlanChanged as e:
        db.session.rollback()
        raise PlanChanged(str(e), e.preview) from e
    entrants = state.entrants(t)
    games = state.completed_games(t)
    # ratings choose among equal-cost pairings only when a player has one (none: the pairing without ratings);
    # power pairing has no such choice to make (docs/domain.md 15.2)
    power = t.power_pairing and t.fmt.counts_games
    seeding = ratings.seeding_before(t) if t.seed_by_rating and not power else None
    strengths = seeding.strengths if seeding is not None and seeding.seeds else None
    try:
        plan = pair_round(t.fmt, entrants, games, round_number=number, seed=t.seed,
                          score_factor=t.score_factor_value,
                          power_pairing=power, strengths=strengths)
    except (PairingError, ValueError) as e:
        db.session.rollback()  # nothing of it stays: the roll call's drops and let-ins neither
        raise RoundError(f"Round {number} cannot be paired. {e}") from e
    tables = [(p.table, [p.player] if p.opponent is None else [p.player, p.opponent]) for p in plan.pairings]
    try:
        rnd = Round(tournament_id=t.id, number=number, certified=plan.certified,
                    gap=None if plan.certified or plan.gap is None else str(plan.gap),
                    seeded_by_rating=strengths is not None)
        db.session.add(rnd)
        db.session.flush()
        write_matches(t, rnd.id, tables)
        db.session.commit()
    except IntegrityError as e:
        db.session.rollback()
        raise AlreadyPaired(f"Round {number} is already paired.") from e
    return rnd


def check_pairable(t: Tournament, expected_number: int) -> int:
    """The number of the round to pair, once it is sure that round `expected_number` may be paired now; else
    RoundError (AlreadyPaired for a round that exists). Call with the tournament locked."""
    if t.cut_kind:
        raise RoundError("The top cut has started: the swiss is over. Delete the cut to pair more swiss rounds.")
    number = latest_number(t) + 1
    if expected_number < number:
        raise AlreadyPaired(f"Round {expected_number} is already paired.")
    if expected_number != number:
        raise RoundError(f"The next round is round {number}, not {expected_number}.")
    if number > 1:
        waiting = db.session.scalar(
            sa.select(sa.func.count(Match.id)).join(Round, Round.id == Match.round_id)
            .where(Round.tournament_id == t.id, Round.number == number - 1, Match.result.is_(None)))
        if waiting:
            raise RoundError(f"Round {number - 1} still has {waiting} unreported result{'s' * (waiting != 1)}; "
                             "report them before pairing the next round.")
    if not active_players(t):
        raise RoundError("There are no active players to pair.")
    return number


def active_players(t: Tournament) -> int:
    return db.session.scalar(sa.select(sa.func.count(Player.id))
                             .where(Player.tournament_id == t.id, ~Player.dropped)) or 0


def write_matches(t: Tournament, round_id: int, tables: Iterable[tuple[int, Sequence[int]]]) -> None:
    """Insert matches and their seats; a lone player is a bye, scored at once."""
    tables = list(tables)
    if not tables:
        return
    ids = db.session.scalars(
        sa.insert(Match).returning(Match.id, sort_by_parameter_order=True),
        [match_row(t, round_id, table, players) for table, players in tables]).all()
    db.session.execute(sa.insert(Seat), [
        seat for match_id, (_, players) in zip(ids, tables, strict=True)
        for seat in seat_rows(t, round_id, match_id, players)])


def match_row(t: Tournament, round_id: int, table: int, players: Sequence[int]) -> dict:
    bye = len(players) == 1
    return {"tournament_id": t.id, "round_id": round_id, "table": table, "is_bye": bye,
            "result": BYE if bye else None, "intentional_draw": False, "drawn_games": 0}


def seat_rows(t: Tournament, round_id: int, match_id: int, players: Sequence[int]) -> list[dict]:
    scoring = t.fmt.scoring
    bye = len(players) == 1
    sides = [Side.CORP.value, Side.RUNNER.value] if t.fmt.sided_tables and not bye else [None, None]
    return [{"tournament_id": t.id, "round_id": round_id, "match_id": match_id, "player_id": p,
             "position": i + 1, "side": sides[i],
             "points": scoring.bye if bye else None, "games_won": scoring.bye_game_wins if bye else 0}
            for i, p in enumerate(players)]


def publish_round(t: Tournament, number: int) -> None:
    """Publish the round, then keep a backup beside the database (backup.keep): every publish, whoever asks."""
    done = db.session.execute(sa.update(Round).where(Round.tournament_id == t.id, Round.number == number)
                              .values(published=True, started_at=sa.func.coalesce(Round.started_at, utcnow())))
    if not done.rowcount:
        db.session.rollback()
        raise NotFound(f"There is no round {number}.")
    touch(db.session, [t.id])
    push_outbox.queue(t.id, push_outbox.ROUND, round=number)
    db.session.commit()
    backup.keep(t, f"round{number}")


def undo_round(t: Tournament, number: int) -> None:
    """Delete the latest round, its pairings and results (the database cascades to matches and seats)."""
    t = lock_tournament(t)
    latest = latest_number(t)
    if number != latest:
        raise RoundError(f"Only the latest round (round {latest}) can be undone." if latest
                         else "There is no round to undo.")
    db.session.execute(sa.delete(Round).where(Round.tournament_id == t.id, Round.number == number),
                       execution_options={"synchronize_session": False})
    touch(db.session, [t.id])
    db.session.commit()
    db.session.expire_all()

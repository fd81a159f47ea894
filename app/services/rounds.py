"""Rounds in the database: pair, publish, undo, report results, edit pairings by hand, standings.

Each action is one transaction that either happens completely or not at all; a refusal raises RoundError
with a message for the TO and writes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased, joinedload

from ..extensions import db
from ..models import Match, Player, ResultChange, ResultClaim, Round, Seat, Tournament, touch, utcnow
from ..core.pairing import Entrant, Format, Game, History, Side
from ..core.pairing.costs import uneven
from ..core.pairing.double_sided import DoubleSidedRules
from ..core.pairing.single_sided import SingleSidedRules
from ..core.results import BYE, Outcome
from . import state
from .locks import lock_tournament


class RoundError(Exception):
    """A refused action; str() is the message for the TO."""


class AlreadyPaired(RoundError):
    """The round was paired already (a double-click, or a second tab)."""


class NotFound(RoundError):
    """The match or round is not part of this tournament."""


class PastRound(RoundError):
    """A result of a round that a later round follows, sent without the TO choosing to edit that round."""

    def __init__(self, message: str, round_number: int):
        super().__init__(message)
        self.round_number = round_number


# ---------------------------------------------------------------- reading

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


def load_round(t: Tournament, number: int, *, published_only: bool = False) -> Optional[RoundView]:
    """A round's tables, seats and player names as plain rows: two queries and no ORM objects, so a
    1,000-table round renders fast. None if the round is missing (or unpublished when asked)."""
    query = sa.select(Round.id, Round.number, Round.published).where(Round.tournament_id == t.id,
                                                                     Round.number == number)
    if published_only:
        query = query.where(Round.published)
    head = db.session.execute(query).first()
    if head is None:
        return None
    rows = db.session.execute(
        sa.select(Match.id, Match.table, Match.is_bye, Match.result, Seat.player_id, Player.name, Seat.position,
                  Seat.side, Seat.points, Seat.games_won)
        .join(Seat, Seat.match_id == Match.id).join(Player, Player.id == Seat.player_id)
        .where(Match.round_id == head.id).order_by(Match.table, Seat.position))
    tables: list[TableView] = []
    for mid, table, is_bye, result, *seat in rows:
        if not tables or tables[-1].id != mid:
            tables.append(TableView(mid, table, is_bye, result, []))
        tables[-1].seats.append(SeatView(*seat))
    for view in tables:
        view.seats = ordered_seats(t, view)
    return RoundView(head.id, head.number, head.published, tables)


def points_before(t: Tournament, number: int) -> dict[int, int]:
    """Each player's points from the rounds before `number` (what they bring into it), by player id: one
    aggregate query, the same sum the standings make (points always come from the seats' games), and no
    standings recomputation, which a result in the live round would otherwise force on every page view.
    Players without a seat before the round are left out (they have 0)."""
    if number <= 1:
        return {}
    return dict(db.session.execute(
        sa.select(Seat.player_id, sa.func.sum(Seat.points))
        .join(Round, Round.id == Seat.round_id)
        .where(Round.tournament_id == t.id, Round.number < number, Seat.points.is_not(None))
        .group_by(Seat.player_id)).all())


@dataclass(frozen=True)
class RoundSummary:
    number: int
    published: bool
    matches: int
    unreported: int


def round_summaries(t: Tournament, *, published_only: bool = False) -> list[RoundSummary]:
    """Every round with how many of its matches still wait for a result, in one query."""
    query = (sa.select(Round.number, Round.published, sa.func.count(Match.id),
                       sa.func.count(Match.id) - sa.func.count(Match.result))
             .outerjoin(Match, Match.round_id == Round.id)
             .where(Round.tournament_id == t.id)
             .group_by(Round.id, Round.number, Round.published).order_by(Round.number))
    if published_only:
        query = query.where(Round.published)
    return [RoundSummary(*row) for row in db.session.execute(query)]


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
    from .status import poll

    data = poll(t.slug)
    return {"round": data["round"], "version": data["version"]}


def ordered_seats(t: Tournament, match) -> list:
    """A Match's (or TableView's) seats, Corp first in single-sided swiss (Seat.side decides, else position),
    in seat order otherwise."""
    return corp_first(t, match.seats)


def corp_first(t: Tournament, seats) -> list:
    seats = sorted(seats, key=lambda s: s.position)
    if t.fmt is Format.SINGLE_SIDED and len(seats) == 2 and seats[1].side == Side.CORP.value:
        seats.reverse()
    return seats


# ---------------------------------------------------------------- pairing

def pair_next_round(t: Tournament, expected_number: int) -> Round:
    """Pair round `expected_number` with the engine and write it in one transaction.

    A second request for the same number (double-click, second tab, a race lost on the unique
    (tournament, number) constraint) raises AlreadyPaired and writes nothing. The tournament lock is held from
    the first read, so the player list paired is the one committed, not one a removal is changing.
    """
    from ..core.pairing import PairingError, pair_round

    t = lock_tournament(t)
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
    entrants = state.entrants(t)
    if not any(not e.dropped for e in entrants):
        raise RoundError("There are no active players to pair.")
    games = state.completed_games(t)
    try:
        plan = pair_round(t.fmt, entrants, games, round_number=number, seed=t.seed,
                          score_factor=t.score_factor_value,
                          power_pairing=t.power_pairing and t.fmt is Format.PLAIN)
    except (PairingError, ValueError) as e:
        raise RoundError(f"Round {number} cannot be paired. {e}") from e
    tables = [(p.table, [p.player] if p.opponent is None else [p.player, p.opponent]) for p in plan.pairings]
    try:
        rnd = Round(tournament_id=t.id, number=number)
        db.session.add(rnd)
        db.session.flush()
        _write_matches(t, rnd.id, tables)
        db.session.commit()
    except IntegrityError as e:
        db.session.rollback()
        raise AlreadyPaired(f"Round {number} is already paired.") from e
    return rnd


def _write_matches(t: Tournament, round_id: int, tables: Iterable[tuple[int, Sequence[int]]]) -> None:
    """Insert matches and their seats; a lone player is a bye, scored at once."""
    tables = list(tables)
    if not tables:
        return
    ids = db.session.scalars(
        sa.insert(Match).returning(Match.id, sort_by_parameter_order=True),
        [_match_row(t, round_id, table, players) for table, players in tables]).all()
    db.session.execute(sa.insert(Seat), [
        seat for match_id, (_, players) in zip(ids, tables) for seat in _seat_rows(t, round_id, match_id, players)])


def _match_row(t: Tournament, round_id: int, table: int, players: Sequence[int]) -> dict:
    bye = len(players) == 1
    return {"tournament_id": t.id, "round_id": round_id, "table": table, "is_bye": bye,
            "result": BYE if bye else None, "intentional_draw": False, "drawn_games": 0}


def _seat_rows(t: Tournament, round_id: int, match_id: int, players: Sequence[int]) -> list[dict]:
    scoring = t.fmt.scoring
    bye = len(players) == 1
    sides = [Side.CORP.value, Side.RUNNER.value] if t.fmt is Format.SINGLE_SIDED and not bye else [None, None]
    return [{"tournament_id": t.id, "round_id": round_id, "match_id": match_id, "player_id": p,
             "position": i + 1, "side": sides[i],
             "points": scoring.bye if bye else None, "games_won": scoring.bye_game_wins if bye else 0}
            for i, p in enumerate(players)]


def publish_round(t: Tournament, number: int) -> None:
    done = db.session.execute(sa.update(Round).where(Round.tournament_id == t.id, Round.number == number)
                              .values(published=True))
    if not done.rowcount:
        db.session.rollback()
        raise NotFound(f"There is no round {number}.")
    touch(db.session, [t.id])
    db.session.commit()


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


# ---------------------------------------------------------------- results

@dataclass(frozen=True)
class Actor:
    """Who changes a result, for the result log: an account (the TO or a staff member) or a player."""

    kind: str  # "organizer", "staff" or "player"
    user_id: Optional[int] = None
    player_id: Optional[int] = None

    @classmethod
    def account(cls, user, t: Tournament) -> "Actor":
        owner = user.is_admin or user.id == t.owner_id
        return cls("organizer" if owner else "staff", user_id=user.id)


@dataclass
class LockedMatch:
    match: Match
    round_number: int
    published: bool
    seats: list  # of Seat, Corp first in single-sided swiss
    later: bool = False  # a later round exists: this one is over


def lock_match(t: Tournament, match_id: int) -> LockedMatch:
    """The match and its seats, read fresh with the match row locked until the transaction ends, so that two
    result writes for one table (two players, a player and the TO) happen one after the other, never
    interleaved, and never beside a pairing, undo or hand edit of the same event. PostgreSQL: the tournament
    row, then SELECT ... FOR UPDATE of the match. SQLite: lock_tournament's first write takes the database's
    write lock."""
    lock_tournament(t)  # the lock order of services/locks.py: the tournament row, then the match row
    next_round = aliased(Round)
    later = sa.exists().where(next_round.tournament_id == Round.tournament_id, next_round.number > Round.number)
    rows = db.session.execute(
        sa.select(Match, Seat, Round.number, Round.published, later)
        .join(Round, Round.id == Match.round_id).join(Seat, Seat.match_id == Match.id)
        .where(Match.id == match_id, Match.tournament_id == t.id)
        .with_for_update(of=Match)
        .execution_options(populate_existing=True)
    ).all()
    if not rows:
        db.session.rollback()
        raise NotFound("That match is not part of this tournament.")
    match, _, number, published, is_past = rows[0]
    seats = [row[1] for row in rows]
    return LockedMatch(match, number, published, corp_first(t, seats), bool(is_past))


def write_result(t: Tournament, locked: LockedMatch, outcome: Outcome, actor: Actor) -> None:
    """The one place a match result is written (TO, staff and players alike): the result, its flags and both
    seats all from one Outcome, every column written, and a log row when the result changes. The caller holds
    the lock (lock_match) and commits."""
    match = locked.match
    if match.is_bye or len(locked.seats) != 2:
        db.session.rollback()
        raise RoundError("A bye has no result to report.")
    old = match.result
    db.session.execute(sa.update(Match).where(Match.id == match.id).values(
        result=outcome.key, intentional_draw=outcome.intentional_draw, drawn_games=outcome.drawn_games),
        execution_options={"synchronize_session": False})
    db.session.execute(sa.update(Seat), [
        {"id": seat.id, "points": points, "games_won": games}
        for seat, points, games in zip(locked.seats, outcome.points, outcome.games)])
    if old != outcome.key:
        db.session.execute(sa.insert(ResultChange).values(
            tournament_id=t.id, match_id=match.id, actor=actor.kind, user_id=actor.user_id,
            player_id=actor.player_id, old_result=old, new_result=outcome.key, created_at=utcnow()))
    touch(db.session, [t.id])


def report_result(t: Tournament, match_id: int, outcome: Outcome, actor: Actor, *,
                  past: bool = False) -> tuple[int, int]:
    """The TO's (or a staff member's) result: it always wins, and ends the players' report exchange.
    Returns (round number, table number).

    A round that a later round follows is over: its results feed the standings the later pairings came from,
    so changing one takes `past` (the TO chose "Edit results" on that round); without it, PastRound, so a
    stale page or a stray tap cannot change an old round."""
    locked = lock_match(t, match_id)
    if locked.later and not past:
        db.session.rollback()
        raise PastRound(f"Round {locked.round_number} is over: choose \"Edit results\" on its page to change "
                        "a result.", locked.round_number)
    table = locked.match.table
    write_result(t, locked, outcome, actor)
    db.session.commit()
    db.session.expire_all()
    return locked.round_number, table


def result_log(t: Tournament, round_id: int) -> dict[int, list[ResultChange]]:
    """Every result change of a round's matches, oldest first, by match id."""
    rows = db.session.scalars(
        sa.select(ResultChange).join(Match, Match.id == ResultChange.match_id)
        .where(Match.round_id == round_id, ResultChange.tournament_id == t.id)
        .options(joinedload(ResultChange.user), joinedload(ResultChange.player))
        .order_by(ResultChange.id)).all()
    log: dict[int, list[ResultChange]] = {}
    for change in rows:
        log.setdefault(change.match_id, []).append(change)
    return log


def check_log(result: Optional[str], is_bye: bool, seated: set, changes: list) -> None:
    """One match's result log as write_result leaves it: changes are (actor kind, player id or None, old, new),
    oldest first. A bye has none; each is a real change and starts where the previous one ended (the first may
    start from a result entered before the log existed); the last ends at the match's result; a player changes
    only their own table's result; an account's change names no player. RoundError says what is wrong."""
    if is_bye and changes:
        raise RoundError("a bye has no result to change")
    previous = None
    for i, (kind, player, old, new) in enumerate(changes):
        if old == new:
            raise RoundError("a change leaves the result as it was")
        if BYE in (old, new):
            raise RoundError("a change gives or takes a bye, which is not a result anyone reports")
        if i and old != previous:
            raise RoundError("a change does not start from the result the previous one left")
        if player is not None and (kind != "player" or player not in seated):
            raise RoundError("a change is by a player who is not at this table")
        previous = new
    if changes and previous != result:
        raise RoundError("the last change does not end at the match's result")


# ---------------------------------------------------------------- manual edits

EDIT_ACTIONS = {
    "swap": "Swap two players",
    "sides": "Swap sides at a player's table",
    "bye": "Give a player the bye",
    "join": "Pair two players who have byes",
    "remove": "Take a player out of this round",
    "add": "Add a player left out of this round",
}


def edit_pairings(t: Tournament, number: int, action: str, first: int,
                  second: Optional[int] = None) -> list[PairingWarning]:
    """Apply one manual edit to the latest round before any result is in; returns the warnings after it.

    The rules may be broken on purpose (a TO knows the room); the warnings say which. Simultaneous edits run one
    after the other (tournament lock), each on the pairings the previous one left.
    """
    t = lock_tournament(t)
    rnd = load_round(t, number)
    if rnd is None:
        raise NotFound(f"There is no round {number}.")
    if number != latest_number(t):
        raise RoundError("Only the latest round can be edited.")
    if any(m.result is not None and not m.is_bye for m in rnd.matches):
        raise RoundError("Pairings can only be edited before any result is in.")
    tables = {m.id: [s.player_id for s in m.seats] for m in rnd.matches}
    where = {p: mid for mid, players in tables.items() for p in players}
    if action == "add":
        _check_addable(t, first, where)
    elif first not in where or (action in ("swap", "join") and second not in where):
        raise RoundError("Choose players who are in this round.")
    if action in ("remove", "add") and second is not None and (
            second not in where or len(tables[where[second]]) != 1 or second == first):
        raise RoundError("The other player must be one who has a bye in this round.")
    new_bye: list[int] = []
    a = first
    if action == "swap":
        b = second
        ma, mb = where[a], where[b]
        if ma == mb:
            raise RoundError("Those two play each other already; to swap their sides, use 'swap sides'.")
        ia, ib = tables[ma].index(a), tables[mb].index(b)
        tables[ma][ia], tables[mb][ib] = b, a
        changed = {ma, mb}
    elif action == "sides":
        if t.fmt is not Format.SINGLE_SIDED:
            raise RoundError("Only single-sided swiss has sides to swap.")
        if len(tables[where[a]]) != 2:
            raise RoundError("A bye has no sides.")
        tables[where[a]].reverse()
        changed = {where[a]}
    elif action == "bye":
        ma = where[a]
        if len(tables[ma]) == 1:
            raise RoundError("That player has the bye already.")
        holder = next((mid for mid, players in tables.items() if len(players) == 1), None)
        if holder is not None:  # the player with the bye takes a's seat
            z = tables[holder][0]
            tables[ma][tables[ma].index(a)], tables[holder][0] = z, a
            changed = {ma, holder}
        else:  # an even field: a's opponent is left with a bye too
            tables[ma].remove(a)
            new_bye = [a]
            changed = {ma}
    elif action == "join":
        b = second
        ma, mb = where[a], where[b]
        if ma == mb or len(tables[ma]) != 1 or len(tables[mb]) != 1:
            raise RoundError("Both players must have a bye.")
        tables[ma].append(b)
        del tables[mb]
        changed = {ma, mb}
    elif action == "remove":  # a leaves; a's opponent keeps the table with a bye, or with `second` in a's seat
        ma = where[a]
        if second is not None:  # the player with a bye takes a's seat
            tables[ma][tables[ma].index(a)] = second
            del tables[where[second]]
            changed = {ma, where[second]}
        else:
            tables[ma].remove(a)
            if not tables[ma]:
                del tables[ma]
            changed = {ma}
    elif action == "add":
        if second is not None:  # a takes the empty seat beside the player with a bye
            tables[where[second]].append(a)
            changed = {where[second]}
        else:
            new_bye = [a]
            changed = set()
    else:
        raise RoundError("Unknown edit.")
    _rewrite(t, rnd, tables, changed, new_bye)
    return pairing_warnings(t, load_round(t, number))


def _check_addable(t: Tournament, player_id: int, where: dict[int, int]) -> None:
    player = db.session.get(Player, player_id)
    if player is None or player.tournament_id != t.id:
        raise RoundError("Choose a player of this tournament.")
    if player.dropped:
        raise RoundError(f"{player.name} has dropped; reinstate them before adding them to a round.")
    if player_id in where:
        raise RoundError(f"{player.name} is in this round already.")


def _rewrite(t: Tournament, rnd: RoundView, tables: dict[int, list[int]], changed: set[int], new_bye: list[int]) -> None:
    """Replace the seats of the changed matches (delete, then insert: a player stays once per round)."""
    try:
        _replace_seats(t, rnd, tables, changed, new_bye)
        touch(db.session, [t.id])
        db.session.commit()
    except IntegrityError as e:  # a backstop: the lock already orders edits
        db.session.rollback()
        raise RoundError("The pairings changed while this edit was being saved; nothing was changed. "
                         "Check the round and try again.") from e
    db.session.expire_all()


def _replace_seats(t: Tournament, rnd: RoundView, tables: dict[int, list[int]], changed: set[int],
                   new_bye: list[int]) -> None:
    db.session.execute(sa.delete(Seat).where(Seat.match_id.in_(changed)),
                       execution_options={"synchronize_session": False})
    db.session.execute(sa.delete(ResultClaim).where(ResultClaim.match_id.in_(changed)),
                       execution_options={"synchronize_session": False})
    gone = changed - tables.keys()
    if gone:
        db.session.execute(sa.delete(Match).where(Match.id.in_(gone)),
                           execution_options={"synchronize_session": False})
    rows = []
    for mid in changed & tables.keys():
        values = _match_row(t, rnd.id, 0, tables[mid])
        del values["table"]
        db.session.execute(sa.update(Match).where(Match.id == mid).values(**values),
                           execution_options={"synchronize_session": False})
        rows += _seat_rows(t, rnd.id, mid, tables[mid])
    if rows:
        db.session.execute(sa.insert(Seat), rows)
    if new_bye:
        last = max(m.table for m in rnd.matches)
        _write_matches(t, rnd.id, [(last + 1, new_bye)])


@dataclass(frozen=True)
class Fix:
    """A one-click repair of a warning: an edit_pairings action the page posts as it is."""

    label: str
    action: str
    first: int
    second: Optional[int] = None


@dataclass(frozen=True)
class PairingWarning:
    """A rule a round breaks: the text for the TO, the table it is about (None for the whole round: extra byes,
    players left out) and, when one exists, an edit that repairs it without breaking a rule elsewhere."""

    text: str
    table: Optional[int] = None
    kind: str = ""  # dropped, second_bye, rematch, same_sides, side_bias, byes, unasked_bye, missing
    players: tuple = ()
    fix: Optional[Fix] = None

    def __str__(self) -> str:
        return self.text


def pairing_warnings(t: Tournament, rnd: RoundView) -> list[PairingWarning]:
    """What the rules forbid in a loaded round as it stands (empty when it is clean), each with its fix."""
    check = RoundCheck(t.fmt, rnd.number, state.entrants(t), state.completed_games(t, before_round=rnd.number))
    tables = [(m.table, [s.player_id for s in m.seats]) for m in rnd.matches]
    return check.with_fixes(tables, check.round(tables))


def check_round(fmt: Format, number: int, entrants: Sequence[Entrant], games: Iterable[Game],
                tables: Sequence[tuple[int, Sequence[int]]]) -> list[PairingWarning]:
    """Pure check of a round against the engine's rules (docs/domain.md 10); see RoundCheck."""
    return RoundCheck(fmt, number, entrants, games).round(tables)


class RoundCheck:
    """A round judged by the same rules the engine pairs with: rematches (single-sided: twice at most, the second
    time on reversed sides; never otherwise), no second bye, no extra byes, no uneven sides, dropped players out,
    everyone in; and a bye the requested ones forced on someone who did not ask (round 1), which the TO may want
    to avoid. Pure (no SQL): the history is folded once, then any table, real or tried, is checked alone."""

    FIX_SEARCH = 40  # tables either side of a broken one tried for a swap: enough in a real room, cheap at 1,000

    def __init__(self, fmt: Format, number: int, entrants: Sequence[Entrant], games: Iterable[Game]):
        self.fmt = Format(fmt)
        self.number = number
        self.entrants = list(entrants)
        self.by_id = {e.id: e for e in self.entrants}
        self.history = History(self.fmt, games, self.by_id)
        # Plain swiss keeps double-sided swiss's hard rules: no rematch, no sides.
        self.rules = (SingleSidedRules if self.fmt is Format.SINGLE_SIDED else DoubleSidedRules)(self.history)

    def name(self, p: int) -> str:
        return self.by_id[p].label if p in self.by_id else str(p)

    def table(self, table: int, players: Sequence[int]) -> list[PairingWarning]:
        """The rules one table breaks."""
        name, rules = self.name, self.rules
        out: list[PairingWarning] = []
        for p in players:
            if p in self.by_id and self.by_id[p].dropped:
                out.append(PairingWarning(f"Table {table}: {name(p)} has dropped.", table, "dropped", (p,)))
        if len(players) == 1:
            p = players[0]
            if self.history.had_bye(p):
                out.append(PairingWarning(f"Table {table}: {name(p)} would get a second bye.", table,
                                          "second_bye", (p,)))
            return out
        a, b = players  # single-sided: a plays Corp
        if not rules.may_meet(a, b):
            text = (f"Table {table}: {name(a)} and {name(b)} would meet a third time." if rules.sided
                    else f"Table {table}: {name(a)} and {name(b)} have played each other already.")
            out.append(PairingWarning(text, table, "rematch", (a, b)))
        elif rules.repeats_sides(a, b):
            out.append(PairingWarning(f"Table {table}: {name(a)} and {name(b)} met before with the same sides; "
                                      "a rematch must reverse them.", table, "same_sides", (a, b)))
        if rules.sided:
            for p, step in ((a, 1), (b, -1)):
                bias = self.history[p].bias + step
                if uneven(bias):
                    side = "Corp" if bias > 0 else "Runner"
                    out.append(PairingWarning(f"Table {table}: {name(p)} would be {side} +{abs(bias)}.", table,
                                              "side_bias", (p,)))
        return out

    def round(self, tables: Sequence[tuple[int, Sequence[int]]]) -> list[PairingWarning]:
        """Every rule the round breaks, table by table, then the round's own (byes, players left out)."""
        warnings: list[PairingWarning] = []
        byes = []
        seated = set()
        for table, players in tables:
            seated.update(players)
            if len(players) == 1:
                byes.append(players[0])
            warnings += self.table(table, players)
        extra = [p for p in byes if not (p in self.by_id and self.by_id[p].asks_bye(self.number))]
        if len(extra) > 1:
            warnings.append(PairingWarning(
                f"{len(extra)} players have a bye this round: {', '.join(self.name(p) for p in extra)}.",
                None, "byes", tuple(extra)))
        elif extra and len(byes) > 1:  # the requested byes left an odd field: someone got one without asking
            asked = len(byes) - 1
            warnings.append(PairingWarning(
                f"{self.name(extra[0])} has a bye nobody asked for: the {asked} requested "
                f"bye{'s' * (asked != 1)} left an odd number of players to pair. Allowed, but check "
                "that it is what you want.", None, "unasked_bye", (extra[0],)))
        missing = [e for e in self.entrants if not e.dropped and e.id not in seated]
        if missing:
            warnings.append(PairingWarning(f"Not paired this round: {', '.join(e.label for e in missing)}.",
                                           None, "missing", tuple(e.id for e in missing)))
        return warnings

    # ---------------------------------------------------------------- one-click fixes

    def with_fixes(self, tables: Sequence[tuple[int, Sequence[int]]],
                   warnings: list[PairingWarning]) -> list[PairingWarning]:
        """The warnings, each with the first edit found that clears its table(s) and breaks no rule at the
        tables it touches; the edit is one edit_pairings action, so the page offers it as one button."""
        seats = {table: list(players) for table, players in tables}
        order = sorted(seats)
        out, seen = [], {}
        for w in warnings:
            # one fix per table (it must clear all of the table's warnings), one per round-wide warning
            key = (w.table, w.kind if w.table is None or w.kind == "dropped" else "")
            if key not in seen:
                seen[key] = self._fix(seats, order, w)
            out.append(PairingWarning(w.text, w.table, w.kind, w.players, seen[key]))
        return out

    def _clean(self, *tables: tuple[int, Sequence[int]]) -> bool:
        return not any(self.table(table, players) for table, players in tables)

    def _near(self, order: list[int], table: int) -> list[int]:
        """Other tables, nearest first (neighbouring tables hold players on nearby scores)."""
        i = order.index(table)
        near = []
        for step in range(1, self.FIX_SEARCH + 1):
            near += [order[j] for j in (i - step, i + step) if 0 <= j < len(order)]
        return near

    def _fix(self, seats: dict[int, list[int]], order: list[int], w: PairingWarning) -> Optional[Fix]:
        name = self.name
        if w.kind == "byes":
            for i, a in enumerate(w.players):
                ta = next(t for t, ps in seats.items() if ps == [a])
                for b in w.players[i + 1:]:
                    if self._clean((ta, [a, b])):
                        return Fix(f"Pair {name(a)} with {name(b)}", "join", a, b)
            return None
        if w.kind == "dropped":
            return self._take_out(seats, w.table, w.players[0])
        if w.kind == "missing":
            return self._add(seats, w.players[0])
        if w.table is None:
            return None
        table = w.table
        players = seats[table]
        if len(players) == 1:
            p = players[0]
            if sum(1 for ps in seats.values() if len(ps) == 1) != 1:
                return None  # the edit moves "the" bye: only sure with one bye table
            for other in self._near(order, table):
                for i, q in enumerate(seats[other]):
                    if len(seats[other]) != 2:
                        break
                    moved = seats[other][:i] + [p] + seats[other][i + 1:]
                    if self._clean((table, [q]), (other, moved)):
                        return Fix(f"Give the bye to {name(q)} (table {other}) instead", "bye", q)
            return None
        a, b = players
        if self.rules.sided and self._clean((table, [b, a])):
            return Fix(f"Swap sides at table {table}", "sides", a)
        for other in self._near(order, table):
            theirs = seats[other]
            if len(theirs) != 2:
                continue
            # same seat first (the swapped-in player keeps their side), then across
            for i, j in ((0, 0), (1, 1), (0, 1), (1, 0)):
                mine, yours = list(players), list(theirs)
                mine[i], yours[j] = theirs[j], players[i]
                if self._clean((table, mine), (other, yours)):
                    return Fix(f"Swap {name(players[i])} with {name(theirs[j])} (table {other})", "swap",
                               players[i], theirs[j])
        return None

    def _lone(self, seats: dict[int, list[int]], *skip: int) -> list[tuple[int, int]]:
        """(table, player) of each bye nobody asked for: a player a dropped or missing one can be paired with."""
        def free(p: int) -> bool:
            e = self.by_id.get(p)
            return p not in skip and not (e and (e.asks_bye(self.number) or e.dropped))
        return [(table, ps[0]) for table, ps in seats.items() if len(ps) == 1 and free(ps[0])]

    def _byes_ok(self, seats: dict[int, list[int]], p: int, *gone: int) -> bool:
        """Whether p can take a bye without a second bye nobody asked for in the round."""
        return self._clean((0, [p])) and (
            (p in self.by_id and self.by_id[p].asks_bye(self.number)) or not self._lone(seats, *gone))

    def _take_out(self, seats: dict[int, list[int]], table: int, d: int) -> Optional[Fix]:
        """A dropped player leaves the round; the opponent, if any, plays a lone bye player in their seat when that
        is clean, else takes the bye when that is clean."""
        players = seats[table]
        if len(players) == 1:
            return Fix(f"Take {self.name(d)} out of this round", "remove", d)
        (o,) = [p for p in players if p != d]
        for other, z in self._lone(seats, d):
            if self._clean((table, [z if p == d else p for p in players])):
                return Fix(f"Take {self.name(d)} out; {self.name(o)} plays {self.name(z)} (table {other})",
                           "remove", d, z)
        if self._byes_ok(seats, o, d):
            return Fix(f"Take {self.name(d)} out; {self.name(o)} gets the bye", "remove", d)
        return None

    def _add(self, seats: dict[int, list[int]], m: int) -> Optional[Fix]:
        """A player left out joins the round: beside a lone bye player when that is clean, else with a bye."""
        for table, z in self._lone(seats):
            if self._clean((table, [z, m])):
                return Fix(f"Pair {self.name(m)} with {self.name(z)} (table {table})", "add", m, z)
        if self._byes_ok(seats, m):
            return Fix(f"Add {self.name(m)} with a bye", "add", m)
        return None


# ---------------------------------------------------------------- standings

@dataclass
class StandingsTable:
    tiebreakers: tuple[str, ...]  # column names, from app.core.standings.TIEBREAKERS
    rows: list  # of app.core.standings.Standing
    identities: dict  # player id -> (corp identity, runner identity)
    single_sided: bool


def standings(t: Tournament, published_only: bool = False) -> StandingsTable:
    """Live standings from the engine; public pages count published rounds only."""
    from ..core.standings import TIEBREAKERS, default_tiebreakers

    system = t.tiebreakers or default_tiebreakers(t.fmt)
    rows = state.standings(t, published_only=published_only)
    identities = {pid: (corp, runner) for pid, corp, runner in db.session.execute(
        sa.select(Player.id, Player.corp_identity, Player.runner_identity).where(Player.tournament_id == t.id))}
    return StandingsTable(TIEBREAKERS[system], rows, identities, t.fmt is Format.SINGLE_SIDED)

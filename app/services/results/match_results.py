"""A match's result in the database: the one place it is written (TO, staff and players alike), the TO's report,
and the log of every change."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

import sqlalchemy as sa
from sqlalchemy.orm import aliased, joinedload

from ...core.results import BYE, Outcome
from ...extensions import db
from ...core.standings import rank_changes
from ...models import CutEntry, Match, ResultChange, Round, Seat, Tournament, touch, utcnow
from ..event_files import backup
from ..locks import lock_tournament
from ..swiss.rounds import NotFound, PastRound, RoundError, corp_first


@dataclass(frozen=True)
class Actor:
    """Who changes a result, for the result log: an account (the TO or a staff member), a player, or a match
    slip's table code ("slip": whoever held the paper, never logged as a player)."""

    kind: str  # "organizer", "staff", "player" or "slip"
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


def write_result(t: Tournament, locked: LockedMatch, outcome: Outcome, actor: Actor,
                 reason: Optional[str] = None) -> None:
    """The one place a match result is written (TO, staff and players alike): the result, its flags and both
    seats all from one Outcome, every column written, and a log row when the result changes (with `reason`
    when a rule made the change: a penalty's game loss). The caller holds the lock (lock_match) and commits."""
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
        for seat, points, games in zip(locked.seats, outcome.points, outcome.games, strict=True)])
    if old != outcome.key:
        db.session.execute(sa.insert(ResultChange).values(
            tournament_id=t.id, match_id=match.id, actor=actor.kind, user_id=actor.user_id,
            player_id=actor.player_id, old_result=old, new_result=outcome.key, reason=reason, created_at=utcnow()))
    touch(db.session, [t.id])


class AfterCut(RoundError):
    """A swiss result change once the cut exists: it moves the standings the bracket was seeded from, so only
    the organizer may make it, having seen what it changes (after_cut_changes)."""

    def __init__(self, round_number: int, table: int):
        super().__init__(f"The cut exists: changing round {round_number}, table {table} changes the swiss "
                         "standings. Only an organizer can make this change, after seeing what it changes.")
        self.round_number, self.table = round_number, table


def report_result(t: Tournament, match_id: int, outcome: Outcome, actor: Actor, *,
                  past: bool = False, after_cut: bool = False) -> tuple[int, int]:
    """The TO's (or a staff member's) result: it always wins, and ends the players' report exchange.
    Returns (round number, table number).

    A round that a later round follows is over: its results feed the standings the later pairings came from,
    so changing one takes `past` (the TO chose "Edit results" on that round); without it, PastRound, so a
    stale page or a stray tap cannot change an old round.

    Once the cut exists, a change of a swiss result also takes `after_cut` (the organizer confirmed it, having
    seen after_cut_changes); without it, AfterCut, and nothing changes. The cut keeps its seeds either way."""
    locked = lock_match(t, match_id)
    if locked.later and not past:
        db.session.rollback()
        raise PastRound(f"Round {locked.round_number} is over: choose \"Edit results\" on its page to change "
                        "a result.", locked.round_number)
    table = locked.match.table
    if t.cut_kind is not None and not after_cut and locked.match.result != outcome.key:
        db.session.rollback()
        raise AfterCut(locked.round_number, table)
    write_result(t, locked, outcome, actor)
    db.session.commit()
    db.session.expire_all()
    backup.follow(t)
    return locked.round_number, table


def result_log(t: Tournament, round_id: int, matches: Optional[Iterable[int]] = None) -> dict[int, list[ResultChange]]:
    """Every result change of a round's matches (or of `matches` only), oldest first, by match id."""
    query = (sa.select(ResultChange).join(Match, Match.id == ResultChange.match_id)
             .where(Match.round_id == round_id, ResultChange.tournament_id == t.id)
             .options(joinedload(ResultChange.user), joinedload(ResultChange.player))
             .order_by(ResultChange.id))
    if matches is not None:
        query = query.where(ResultChange.match_id.in_(list(matches)))
    rows = db.session.scalars(query).all()
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


@dataclass(frozen=True)
class CutChange:
    """What a swiss result change would do once the cut exists: the table, its old and new result, and every
    player whose swiss rank or points move (core/standings.rank_changes)."""

    round_number: int
    table: int
    old: Optional[str]
    new: str
    moves: list
    size: int  # the cut's size


def after_cut_changes(t: Tournament, match_id: int, outcome: Outcome) -> CutChange:
    """The change tried in a transaction that is rolled back: the standings before and after, from the one
    result writer and the one standings rule, so the preview is what the change would do."""
    from ..state import swiss_standings

    locked = lock_match(t, match_id)
    try:
        seeds = list(db.session.scalars(sa.select(CutEntry.player_id).filter_by(tournament_id=t.id)
                                        .order_by(CutEntry.seed)))
        before = swiss_standings(t)
        old, table = locked.match.result, locked.match.table
        write_result(t, locked, outcome, Actor("organizer"))
        db.session.flush()
        after = swiss_standings(t)
    finally:
        db.session.rollback()
    return CutChange(locked.round_number, table, old, outcome.key, rank_changes(before, after, seeds), len(seeds))

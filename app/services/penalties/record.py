"""Recording a penalty: the infraction, the penalty, the notes, who and when; a game or match loss changes the
table's result through the one result writer, logged with its reason; a disqualification drops the player.

All of it happens under the event's lock and the match's (match_results.lock_match), in one transaction, and a
partial unique index allows one loss per player, round and game: two judges recording the same game loss at once
store and apply it once, and the second hears that it is already recorded.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...core.penalties import ROUND, Infraction, Kind, PenaltyError, penalized
from ...core.player_state import DropReason
from ...core.results import BYE, label
from ...extensions import db
from ...models import (Match, Penalty, Player, ResultClaim, Round, Seat, Tournament, User, WaitlistEntry, as_utc,
                      touch, utcnow)
from ...models.penalties import STANDING_DISQUALIFICATION, STANDING_LOSS
from ..event_files import backup
from ..check_in import waitlist
from ..locks import lock_tournament
from ..results.match_results import Actor, lock_match, write_result
from ..swiss.rounds import RoundError


class Refused(PenaltyError):
    """The penalty was not recorded (the message says why); nothing changed."""


class AlreadyRecorded(Refused):
    """The same loss is recorded already (by another judge, or a second tap)."""


class AlreadyVoided(Refused):
    """The penalty was voided already (by another staff member, or a second tap)."""


class NotFound(LookupError):
    """The player (or the penalty) is not part of this event."""


@dataclass(frozen=True)
class PenaltyView:
    id: int
    player_id: int
    player: str
    round_number: Optional[int]
    game: int
    infraction: Infraction
    kind: Kind
    notes: str
    recorded_by: str
    created_at: datetime
    result_before: Optional[str]
    result_after: Optional[str]
    voided_at: Optional[datetime] = None
    voided_by: str = ""
    void_reason: str = ""

    @property
    def changed_result(self) -> bool:
        return self.result_after is not None and self.result_after != self.result_before

    @property
    def voided(self) -> bool:
        return self.voided_at is not None


def user_name(user: User) -> str:
    """How the log names the staff member who acted: their display name, else their e-mail (staff pages only)."""
    return user.display_name or user.email


def record(t: Tournament, user: User, player_id: int, round_number: Optional[int], infraction: Infraction,
           kind: Kind, notes: str = "", game: int = ROUND, other_game: Optional[str] = None,
           past: bool = False) -> Penalty:
    """Record the penalty and apply it (docs/domain.md 17). A loss needs the player seated at a table of two in
    that round; a round another round follows is over, so a loss there takes `past` (the judge confirmed it); once
    the cut exists no penalty changes a swiss result. Refused (nothing changed) otherwise."""
    lock_tournament(t)
    try:
        player = db.session.scalar(sa.select(Player).where(Player.id == player_id, Player.tournament_id == t.id))
        if player is None:
            raise NotFound("That player is not part of this event.")
        if round_number is not None and db.session.scalar(
                sa.select(Round.id).filter_by(tournament_id=t.id, number=round_number)) is None:
            raise Refused(f"Round {round_number} does not exist.")
        before = after = None
        if kind.loses:
            before, after = _apply_loss(t, user, player, round_number, infraction, kind, game, other_game, past)
        else:
            game = ROUND
        if kind.drops:
            if _disqualified(t, player.id):
                raise AlreadyRecorded(f"{player.name} is disqualified already: it counts once. See the penalty "
                                      "log.")
            ended = _end_open_games(t, user, player, infraction)
            if ended is not None and round_number in (None, ended[0]):  # the log shows the table it ended
                round_number, (before, after) = ended[0], ended[1]
            _disqualify(t, player.id)
        penalty = Penalty(tournament_id=t.id, player_id=player.id, round_number=round_number, game=game,
                          infraction=infraction.value, kind=kind.value, notes=notes, recorded_by_id=user.id,
                          recorded_by=user_name(user), created_at=utcnow(), result_before=before,
                          result_after=after)
        db.session.add(penalty)
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise AlreadyRecorded(_already(kind, round_number)) from None
    except (PenaltyError, LookupError):
        db.session.rollback()
        raise
    except RoundError as e:  # the result writer's refusal (a bye, a match gone)
        db.session.rollback()
        raise Refused(str(e)) from None
    db.session.commit()
    backup.follow(t)
    return penalty


def _disqualified(t: Tournament, player_id: int) -> bool:
    return db.session.scalar(sa.select(Penalty.id).where(
        Penalty.tournament_id == t.id, Penalty.player_id == player_id, STANDING_DISQUALIFICATION).limit(1)) is not None


def _end_open_games(t: Tournament, user: User, player: Player, infraction: Infraction):
    """A disqualification ends the player's part at once: each swiss table of theirs still without a result
    becomes their match loss, through the one result writer and its log (as a match loss does). Returns (the
    round, (result before, after)) of the last table it ended, for the penalty's row; None if none was open. Once
    the cut exists the swiss is settled: only its games are left (the bracket's own TO decides those)."""
    if t.cut_kind is not None:
        return None
    open_tables = db.session.execute(
        sa.select(Seat.match_id, Round.number).join(Match, Match.id == Seat.match_id)
        .join(Round, Round.id == Seat.round_id)
        .where(Seat.player_id == player.id, Round.tournament_id == t.id, Match.result.is_(None),
               Match.is_bye.is_(False)).order_by(Round.number)).all()
    ended = None
    for match_id, number in open_tables:
        locked = lock_match(t, match_id)
        if len(locked.seats) != 2:
            continue
        index = next(i for i, s in enumerate(locked.seats) if s.player_id == player.id)
        outcome = penalized(t.fmt, None, index, Kind.MATCH_LOSS)
        reason = f"Disqualification of {player.name} ({infraction.label.lower()}): their game is lost"
        write_result(t, locked, outcome, Actor.account(user, t), reason=reason[:200])
        # a report they made before is no longer theirs to make: it never becomes the result (were the TO to
        # clear this one, the opponent's confirmation of it would otherwise write it)
        db.session.execute(sa.delete(ResultClaim).where(ResultClaim.match_id == match_id,
                                                        ResultClaim.player_id == player.id),
                           execution_options={"synchronize_session": False})
        ended = (number, (None, outcome.key))
    return ended


def _disqualify(t: Tournament, player_id: int) -> None:
    """Drop the player and take them out of the waitlist's line if they wait in it (the waitlist never lets a
    disqualified player in); before round 1 the place freed goes to the next in line, as for any drop
    (app/services/check_in/waitlist.py). The caller holds the event's lock."""
    db.session.execute(
        sa.delete(WaitlistEntry).where(WaitlistEntry.player_id == player_id, WaitlistEntry.tournament_id == t.id,
                                       WaitlistEntry.promoted_at.is_(None)),
        execution_options={"synchronize_session": False})
    was_in = db.session.scalar(sa.select(Player.dropped).where(Player.id == player_id)) is False
    # the reason is the disqualification's, whoever dropped the player before
    db.session.execute(sa.update(Player).where(Player.id == player_id)
                       .values(dropped=True, drop_reason=DropReason.DISQUALIFIED.value),
                       execution_options={"synchronize_session": False})
    touch(db.session, [t.id])  # always: a player dropped before is now disqualified, listed last in the standings
    if was_in:
        waitlist.fill(t)


def _already(kind: Kind, round_number: Optional[int]) -> str:
    if kind.drops:
        return "This player is disqualified already (another judge, or a second tap): it counts once. See the " \
               "penalty log."
    return (f"A loss for this player in round {round_number} is recorded already (another judge, or a second "
            "tap): it counts once. See the penalty log.")


def _apply_loss(t: Tournament, user: User, player: Player, round_number: Optional[int], infraction: Infraction,
                kind: Kind, game: int, other_game: Optional[str], past: bool) -> tuple[Optional[str], str]:
    """The loss written to the player's table: (the result before, the result after)."""
    if round_number is None:
        raise Refused(f"A {kind.label.lower()} takes a round's game: choose the round.")
    seat = db.session.execute(
        sa.select(Seat.match_id, Match.is_bye).join(Match, Match.id == Seat.match_id)
        .join(Round, Round.id == Seat.round_id)
        .where(Seat.player_id == player.id, Round.tournament_id == t.id, Round.number == round_number)).first()
    if seat is None:
        raise Refused(f"{player.name} has no table in round {round_number}: record a warning instead, or choose "
                      "the round they played.")
    if seat.is_bye:
        raise Refused(f"{player.name} had the bye in round {round_number}: a bye has no game to lose.")
    losses = db.session.execute(
        sa.select(Penalty.player_id, Penalty.game).where(
            Penalty.tournament_id == t.id, Penalty.round_number == round_number,
            STANDING_LOSS,
            Penalty.player_id.in_(sa.select(Seat.player_id).where(Seat.match_id == seat.match_id)))).all()
    if any(p == player.id and (g == game or ROUND in (g, game)) for p, g in losses):
        raise AlreadyRecorded(_already(kind, round_number))
    ended_by_dq = db.session.scalar(sa.select(Player.name).join(Penalty, Penalty.player_id == Player.id).where(
        Penalty.tournament_id == t.id, Penalty.round_number == round_number, Penalty.player_id != player.id,
        STANDING_DISQUALIFICATION, Penalty.result_after.is_not(None),
        Penalty.player_id.in_(sa.select(Seat.player_id).where(Seat.match_id == seat.match_id))).limit(1))
    if ended_by_dq is not None:
        raise Refused(f"{ended_by_dq}'s disqualification ended this table in round {round_number} as their loss: "
                      "a penalty no longer changes it. Record a warning, or ask an organizer to enter the result.")
    if any(p != player.id for p, _ in losses):
        raise Refused("The opponent already lost this round (or one of its games) to a penalty: both losing is "
                      "not a result SASS stores. Record a warning, or ask an organizer to enter the result.")
    locked = lock_match(t, seat.match_id)
    if locked.later and not past:
        raise Refused(f"Round {round_number} is over: tick \"change a finished round\" to apply the loss to its "
                      "result (the later rounds keep their pairings).")
    index = next(i for i, s in enumerate(locked.seats) if s.player_id == player.id)
    before = locked.match.result
    if before == BYE:
        raise Refused("A bye has no game to lose.")
    outcome = penalized(t.fmt, before, index, kind, game, other_game)
    if t.cut_kind is not None and outcome.key != before:
        raise Refused("The top cut exists, seeded from these swiss results: a penalty no longer changes them. "
                      "Record a warning; an organizer can change the result from the round page.")
    reason = f"{kind.label} for {player.name} ({infraction.label.lower()})"
    if kind is Kind.GAME_LOSS and game != ROUND:
        reason = f"{kind.label} (game {game}) for {player.name} ({infraction.label.lower()})"
    write_result(t, locked, outcome, Actor.account(user, t), reason=reason[:200])
    return before, outcome.key


def get(t: Tournament, penalty_id: int) -> Optional[Penalty]:
    """The event's penalty with this id, or None."""
    return db.session.scalar(sa.select(Penalty).where(Penalty.id == penalty_id, Penalty.tournament_id == t.id))


def void(t: Tournament, user: User, penalty_id: int, reason: str) -> Penalty:
    """Void a mistaken penalty: it stays in the log, struck through, with who voided it, when and why; a voided
    loss no longer counts as the player's loss (the right one may be recorded). What it did stays done
    (docs/domain.md 17): the result it gave is not put back (the table's result is corrected on the round page if
    needed, through the audited result path) and a voided disqualification leaves the player dropped (brought back
    on the players page). Under the event's lock; a conditional UPDATE voids it once, whatever races."""
    lock_tournament(t)
    penalty = get(t, penalty_id)
    if penalty is None:
        db.session.rollback()
        raise NotFound("That penalty is not part of this event.")
    done = db.session.execute(
        sa.update(Penalty).where(Penalty.id == penalty.id, Penalty.voided_at.is_(None))
        .values(voided_at=utcnow(), voided_by_id=user.id, voided_by=user_name(user), void_reason=reason),
        execution_options={"synchronize_session": False})
    if not done.rowcount:
        db.session.rollback()
        raise AlreadyVoided("This penalty was voided already (another staff member, or a second tap).")
    touch(db.session, [t.id])  # a voided disqualification gives the player their place in the standings back
    db.session.commit()
    backup.follow(t)
    return get(t, penalty_id)


def penalty_log(t: Tournament, player_id: Optional[int] = None,
                round_number: Optional[int] = None) -> list[PenaltyView]:
    """The event's penalties, newest first, for one player and/or one round if asked."""
    query = sa.select(Penalty, Player.name).join(Player, Player.id == Penalty.player_id).where(
        Penalty.tournament_id == t.id)
    if player_id is not None:
        query = query.where(Penalty.player_id == player_id)
    if round_number is not None:
        query = query.where(Penalty.round_number == round_number)
    return [PenaltyView(p.id, p.player_id, name, p.round_number, p.game, Infraction(p.infraction), Kind(p.kind),
                        p.notes, p.recorded_by, as_utc(p.created_at), p.result_before, p.result_after,
                        as_utc(p.voided_at) if p.voided_at else None, p.voided_by or "", p.void_reason or "")
            for p, name in db.session.execute(query.order_by(Penalty.id.desc()))]


def disqualified(t: Tournament) -> set[int]:
    """The ids of the event's disqualified players (the staff's player list marks them)."""
    return set(db.session.scalars(sa.select(Penalty.player_id).where(
        Penalty.tournament_id == t.id, STANDING_DISQUALIFICATION)))


def counts(t: Tournament) -> dict[int, int]:
    """Penalties per player id: the form shows a player's earlier ones before a judge records another."""
    return dict(db.session.execute(sa.select(Penalty.player_id, sa.func.count(Penalty.id))
                                   .where(Penalty.tournament_id == t.id, Penalty.voided_at.is_(None))
                                   .group_by(Penalty.player_id)).all())


def result_label(t: Tournament, key: Optional[str]) -> str:
    return label(t.fmt, key) if key else "no result"


def tables(t: Tournament, round_number: Optional[int]) -> dict[int, int]:
    """Player id -> their table in the round (the form's list names each player's table)."""
    if round_number is None:
        return {}
    return dict(db.session.execute(
        sa.select(Seat.player_id, Match.table).join(Match, Match.id == Seat.match_id)
        .join(Round, Round.id == Seat.round_id)
        .where(Round.tournament_id == t.id, Round.number == round_number)).all())

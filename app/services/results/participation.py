"""Players take part through their player link: report their own table's result, confirm or dispute the
opponent's report, drop themselves. Results are written only by match_results.write_result, under the match lock.

A table's report state: None (nothing reported), "waiting" (one claim, or claims being changed), "disputed"
(two claims that differ) or "confirmed" (a result stands: the players agreed, one report sufficed, or the
TO entered it; the TO's result always wins).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ...core import results
from ...extensions import db
from ...models import Match, Player, ResultClaim, Round, Seat, Tournament
from ..event_files import backup
from . import match_results
from ..swiss import rounds
from ..check_in import waitlist
from ..players import drops, states
from ...core.player_state import DropReason
from ..locks import lock_tournament
from .match_results import Actor
from ..prepared import Prepared
from ..push import outbox as push_outbox
from ..swiss.rounds import RoundError

WAITING, DISPUTED, CONFIRMED = "waiting", "disputed", "confirmed"


class ReportClosed(RoundError):
    """The round no longer takes players' reports."""


# ---------------------------------------------------------------- reading

@dataclass
class Claim:
    player_id: int
    name: str
    result: str


@dataclass
class TableReport:
    state: Optional[str]
    claims: list = field(default_factory=list)  # of Claim

    def by(self, player_id: int) -> Optional[Claim]:
        return next((c for c in self.claims if c.player_id == player_id), None)


def state_of(result: Optional[str], is_bye: bool, claims: list) -> Optional[str]:
    if is_bye:
        return None
    if result is not None:
        return CONFIRMED
    if not claims:
        return None
    if len({c.result for c in claims}) > 1:
        return DISPUTED
    return WAITING


def round_reports(t: Tournament, rnd) -> dict[int, TableReport]:
    """Match id -> TableReport for a loaded round (rounds.RoundView): one query for the claims."""
    claims: dict[int, list] = {}
    for mid, pid, name, result in db.session.execute(
            sa.select(ResultClaim.match_id, ResultClaim.player_id, Player.name, ResultClaim.result)
            .join(Player, Player.id == ResultClaim.player_id)
            .join(Match, Match.id == ResultClaim.match_id)
            .where(Match.round_id == rnd.id).order_by(ResultClaim.id)):
        claims.setdefault(mid, []).append(Claim(pid, name, result))
    return {m.id: TableReport(state_of(m.result, m.is_bye, claims.get(m.id, [])), claims.get(m.id, []))
            for m in rnd.matches}


def counts(rnd, reports: dict[int, TableReport]) -> dict[str, int]:
    """Tables of a round by report state (byes left out)."""
    out = {CONFIRMED: 0, WAITING: 0, DISPUTED: 0, "unreported": 0}
    for m in rnd.matches:
        if not m.is_bye:
            out[reports[m.id].state or "unreported"] += 1
    return out


def describe(fmt, report: TableReport, seats) -> str:
    """The TO's one-line view of a table's exchange; never shown to players or in the API."""
    names = [s.name for s in seats]
    if report.state == DISPUTED:
        return "Disputed: " + "; ".join(f"{c.name} says {results.label(fmt, c.result)}" for c in report.claims)
    if report.state == WAITING:
        c = report.claims[0]
        other = next((n for n in names if n != c.name), "the opponent")
        return f"Reported by {c.name}: {results.label(fmt, c.result)}, waiting for {other}"
    return ""


@dataclass
class MyTable:
    """A player's own table in the latest published round, as their page and the public banner show it."""

    round_number: int
    match_id: int
    table: int
    is_bye: bool
    side: Optional[str]
    opponent: Optional[str]
    opponent_side: Optional[str]
    result: Optional[str]
    points: Optional[int]
    state: Optional[str]
    mine: Optional[str]  # my claim
    theirs: Optional[str]  # the opponent's claim
    open: bool  # reports accepted now
    first_name: str = ""  # the first seat's name (Corp / seat 1): results read from its side
    second_name: str = ""
    seat: int = 0  # this player's seat in that order (app/core/result_wording.py words results from it)
    timer: tuple = (None, None, None)  # the round's timer columns (services/swiss/timer.clock_from_row), read with it


# A player's table in the latest published round and what their card shows of it, in one statement built once
# (every phone asks after a publish): the player's seat by (round id, player id), one probe of seats (round_id,
# player_id) whatever other events hold (joined through matches, PostgreSQL scanned every event's seats for this
# player), its match, every seat at that table with its player's name, the table's claims (a row per seat and
# claim: at most 2 x 2), the round's number and timer, and the event's latest round number.
_PUBLISHED, _ANY, _TABLE = aliased(Round), aliased(Round), aliased(Seat)
_MY_TABLE = Prepared("my_table",
    sa.select(Round.number, sa.select(sa.func.max(_ANY.number)).where(_ANY.tournament_id == sa.bindparam("tid"))
              .scalar_subquery(),
              Match.id, Match.table, Match.is_bye, Match.result,
              _TABLE.player_id, _TABLE.position, _TABLE.side, _TABLE.points, Player.name,
              ResultClaim.player_id, ResultClaim.result, Round.timer_state, Round.timer_ends_at,
              Round.timer_remaining_ms)
    .select_from(Seat)
    .join(Round, Round.id == Seat.round_id)
    .join(Match, Match.id == Seat.match_id)
    .join(_TABLE, _TABLE.match_id == Match.id)
    .join(Player, Player.id == _TABLE.player_id)
    .outerjoin(ResultClaim, ResultClaim.match_id == Match.id)
    .where(Seat.round_id == sa.select(_PUBLISHED.id).where(_PUBLISHED.tournament_id == sa.bindparam("tid"),
                                                           _PUBLISHED.published)
           .order_by(_PUBLISHED.number.desc()).limit(1).scalar_subquery(),
           Seat.player_id == sa.bindparam("pid")))


@dataclass(frozen=True, slots=True)
class _SeatRow:
    player_id: int
    position: int
    side: Optional[str]
    points: Optional[int]
    name: str


def my_table(t: Tournament, player: Player) -> Optional[MyTable]:
    """None while no round is published or the player is not in the latest published one."""
    rows = _MY_TABLE.execute({"tid": t.id, "pid": player.id}).all()
    if not rows:
        return None
    number, latest, match_id, table, is_bye, result = rows[0][:6]
    seats = rounds.corp_first(t, list({r[6]: _SeatRow(*r[6:11]) for r in rows}.values()))
    me = next(s for s in seats if s.player_id == player.id)
    other = next((s for s in seats if s.player_id != player.id), None)
    claim_list = [Claim(pid, "", r) for pid, r in dict(row[11:13] for row in rows if row[11] is not None).items()]
    report = TableReport(state_of(result, is_bye, claim_list), claim_list)
    mine = report.by(player.id)
    theirs = report.by(other.player_id) if other else None
    return MyTable(
        round_number=number, match_id=match_id, table=table, is_bye=is_bye, side=me.side,
        opponent=other.name if other else None, opponent_side=other.side if other else None,
        result=result, points=me.points, state=report.state,
        mine=mine.result if mine else None, theirs=theirs.result if theirs else None,
        open=(not is_bye and result is None and number == latest),
        first_name=seats[0].name, second_name=seats[-1].name, seat=seats.index(me), timer=tuple(rows[0][13:16]))


# ---------------------------------------------------------------- the rules of claims

def check_claim(fmt, key: str) -> None:
    """A player claims one of the TO's buttons, and only them."""
    if key not in dict(results.buttons(fmt)):
        raise results.ResultError("Choose one of the result buttons.")


def agreed(claimed: list) -> bool:
    """Both players claim the same result: it stands."""
    return len(claimed) == 2 and claimed[0] == claimed[1]


def check_claims(result: Optional[str], is_bye: bool, seated: set, claims: list,
                 written_by: Optional[int]) -> None:
    """One table's claims (Claim) as `report` can leave them, beside the match's result, its seated players and
    the player whose report wrote that result (None: the TO's, or changed by the TO since). A bye takes no claims;
    a claim is a seated player's, one each; two claims that agree make the result, so they never wait; a result
    a player's report wrote is what that player claimed. Once a result stands the claims stay as they were (the
    TO's result wins over any of them). RoundError says what is wrong."""
    if is_bye and claims:
        raise RoundError("a bye has no result to report")
    players = [c.player_id for c in claims]
    if any(p not in seated for p in players):
        raise RoundError("a claim is by a player who is not at this table")
    if len(set(players)) != len(players):
        raise RoundError("a player claims twice")
    if result is None and agreed([c.result for c in claims]):
        raise RoundError("both players claim the same result, which would have made it the result")
    if written_by is not None:
        mine = next((c for c in claims if c.player_id == written_by), None)
        if mine is None or mine.result != result:
            raise RoundError("the result came from a player's report, but that player's claim says otherwise")


# ---------------------------------------------------------------- acting

def report(t: Tournament, player: Player, match_id: int, key: str) -> str:
    """A player's report (or confirmation, or dispute) for their own table; returns the new state.

    One claim per player and table, changeable until the result stands. Agreement (or a single report when
    the event allows it) writes the result through match_results.write_result. Refusals write nothing; a
    disqualified player's link reports nothing (states.PartOver), asked under the match's lock, which the
    disqualification's ending of their games takes too."""
    check_claim(t.fmt, key)
    outcome = results.outcome(t.fmt, key)
    locked = match_results.lock_match(t, match_id)
    try:
        states.refuse_if_disqualified(t, player, "report")
        match = locked.match
        if player.id not in {s.player_id for s in locked.seats}:
            raise RoundError("That is not your table.")
        if match.is_bye:
            raise RoundError("A bye has no result to report.")
        if not locked.published or locked.round_number != rounds.latest_number(t):
            raise ReportClosed(f"Round {locked.round_number} is closed for reports. "
                               "Ask the organizer if its result is wrong.")
        if match.result is not None:
            raise ReportClosed(f"The result is in: {results.label(t.fmt, match.result)}. "
                               "Ask the organizer if it is wrong.")
        mine = db.session.scalar(sa.select(ResultClaim).where(ResultClaim.match_id == match.id,
                                                              ResultClaim.player_id == player.id))
        first = mine is None
        if mine is None:
            db.session.add(ResultClaim(tournament_id=t.id, match_id=match.id, player_id=player.id, result=key))
        else:
            mine.result = key
        db.session.flush()
        claims = db.session.scalars(sa.select(ResultClaim.result).where(ResultClaim.match_id == match.id)).all()
        if agreed(claims) or t.single_report:
            match_results.write_result(t, locked, outcome, Actor("player", player_id=player.id))
            state = CONFIRMED
        else:
            state = DISPUTED if len(set(claims)) > 1 else WAITING
        if state == WAITING and first:  # the opponent is asked to confirm: on their lock screen too
            for seat in locked.seats:
                if seat.player_id != player.id:
                    push_outbox.queue(t.id, push_outbox.REPORT, round=locked.round_number,
                                      player_id=seat.player_id, ref=player.id)
        db.session.commit()
    except (RoundError, states.PartOver):
        db.session.rollback()
        raise
    backup.follow(t)  # a claim counts too: after a move the player is not asked again
    return state


def drop(t: Tournament, player: Player) -> bool:
    """Drop from the next pairing on; False (nothing changed) if the player had dropped already.
    Under the tournament lock, like the TO's drop: a pairing running meanwhile waits, then leaves them out. Before
    round 1 the place freed goes to the waitlist's next player (app/services/check_in/waitlist.py). A disqualified
    player's link drops nothing (states.PartOver): they are out already, by the disqualification."""
    lock_tournament(t)
    try:
        states.refuse_if_disqualified(t, player, "drop")
    except states.PartOver:
        db.session.rollback()
        raise
    done = drops.mark_dropped(t, [player.id], DropReason.PLAYER)
    if done:
        waitlist.fill(t)
    db.session.commit()
    db.session.expire_all()
    if done:
        backup.follow(t)
    return bool(done)


def api_states(t: Tournament, round_id: int) -> dict[int, Optional[str]]:
    """Match id -> report state for the public API (never who claimed what)."""
    claims: dict[int, list] = {}
    for mid, result in db.session.execute(
            sa.select(ResultClaim.match_id, ResultClaim.result).join(Match, Match.id == ResultClaim.match_id)
            .where(Match.round_id == round_id)):
        claims.setdefault(mid, []).append(Claim(0, "", result))
    return {mid: state_of(result, bye, claims.get(mid, [])) for mid, result, bye in db.session.execute(
        sa.select(Match.id, Match.result, Match.is_bye).where(Match.round_id == round_id))}


"""What a player's own page (their secret link) shows now: their swiss table, their top-cut game, or their
final place, with the round whose clock runs. The page and its poll (app/web/views/player.py) draw it; nothing
in a template or script works out which of these applies.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from enum import Enum
from typing import NamedTuple

import sqlalchemy as sa
from flask import current_app

from ...core import polling, result_wording
from ...core.player_state import OUT, PlayerState, Reader, State
from ...core.kept import Kept
from ...extensions import db
from ...models import CheckIn, CheckInSettings, Match, Penalty, Player, ResultClaim, Round, Seat, Tournament, utcnow
from ...models.penalties import STANDING_DISQUALIFICATION
from .. import cut as cut_service
from .. import judge_calls
from ..results import participation
from ..check_in import phone
from ..prepared import Prepared
from . import states


class Stage(Enum):
    WAITING = "waiting"  # no published round with this player in it yet
    SWISS = "swiss"  # their table in the latest published swiss round
    CUT_GAME = "cut_game"  # in the top cut, with a game to play (or waiting for the next one)
    PLACED = "placed"  # their event is over: out of the cut, not in it, or the cut is decided


@dataclass(frozen=True)
class CutSeat:
    """A cut player's game: the one to play, else the last one played while the next waits for its players."""

    game: int
    round: int
    table: int
    side: str | None  # "corp" / "runner" once known
    opponent: str | None  # None: the opponent is not known yet
    result: str  # "I won as Corp" once reported, else ""
    seed: int


@dataclass(frozen=True)
class Place:
    rank: int
    of: int
    decided: bool  # the whole cut is decided (else: their own place is, the others still play)
    champion: bool
    seed: int | None  # in the cut: their seed
    swiss_rank: int | None  # not in the cut: their swiss rank


@dataclass(frozen=True)
class Boxes:
    """What the page's check-in and judge call parts show, read with the page's facts (else each part asks)."""
    check_in: phone.PhoneView
    judge_call: int | None  # the player's newest call's id; None: no call


@dataclass(frozen=True)
class PlayerView:
    stage: Stage
    mine: participation.MyTable | None = None  # SWISS
    seat: int = result_wording.FIRST  # SWISS: which seat the results read from
    cut: CutSeat | None = None  # CUT_GAME
    place: Place | None = None  # PLACED
    cut_size: int = 0
    boxes: Boxes | None = None
    state: PlayerState = PlayerState(State.REGISTERED)  # the player's (app/core/player_state.py)

    @property
    def may_drop(self) -> bool:
        """Dropping is a swiss matter: once the cut exists the field is fixed; and only a player in the event
        drops (not one who is out already, nor one waiting on the waitlist, who leaves it instead)."""
        return self.stage in (Stage.WAITING, Stage.SWISS) and self.state.may_drop

    @property
    def may_report(self) -> bool:
        """Their link reports, confirms or disputes their table (a disqualified player's part is over)."""
        return self.state.may_report

    @property
    def state_line(self) -> str:
        """What the page says of the player's state above everything, privately ("Disqualified: see the head
        judge."), or "": only a player out of the event is told here (the check-in box says the rest: the
        waitlist's position, the roll call)."""
        if self.state.state not in OUT:
            return ""
        words = self.state.words(Reader.PLAYER)
        line = words[:1].upper() + words[1:] + "."
        if self.state.disqualified:
            return line + " Your part in this event is over: your link no longer reports results or calls a judge."
        return line + " You are not paired in later rounds; only the organizer can bring you back in."

    @property
    def waiting_words(self) -> str:
        """A waiting player's place in line as the rule words it ("Waitlist position 2"); "" for anyone else."""
        if not self.state.waiting:
            return ""
        words = self.state.words(Reader.PLAYER)
        return words[:1].upper() + words[1:]

    @property
    def clock_round(self) -> int | None:
        """The round whose timer the page shows: the swiss round being played."""
        return self.mine.round_number if self.stage is Stage.SWISS and self.mine is not None else None


def view(t: Tournament, player: Player, known: Known | None = None) -> PlayerView:
    """`known`: the player's facts (`version`), when the caller has read them: the page's boxes come from them."""
    boxes = None if known is None else Boxes(phone.read(t, player, known.check_in, known.latest_round),
                                             known.judge_call)
    state = states.of_player(t, player)
    if t.cut_kind is not None:
        cut = cut_service.load(t)
        if cut is not None:
            return replace(_in_cut(cut, player), boxes=boxes, state=state)
    mine = participation.my_table(t, player)
    if mine is None:
        return PlayerView(Stage.WAITING, boxes=boxes, state=state)
    return PlayerView(Stage.SWISS, mine=mine, seat=mine.seat, boxes=boxes, state=state)


def _in_cut(cut: cut_service.Cut, player: Player) -> PlayerView:
    bracket = cut.bracket
    size = len(bracket.seeds)
    out = bracket.out_rounds()
    complete = bracket.is_complete()
    if player.id in bracket.seeds and player.id not in out and not complete:
        games = [g for g in bracket.games if player.id in g.players]
        played = [g for g in games if g.reported]
        game = next((g for g in games if g.ready and not g.reported), None) or (played or games)[-1]
        sides = cut.sides(game) if game.ready else None
        other = next((p for p in game.players if p != player.id), None)
        side = None if sides is None else "corp" if sides[0] == player.id else "runner"
        result = result_wording.cut_game(game.winner == player.id, side) if game.reported else ""
        return PlayerView(Stage.CUT_GAME, cut=CutSeat(game.id, game.round, cut.table(game), side,
                                                      cut.name(other) if other is not None else None, result,
                                                      bracket.seed_of(player.id)), cut_size=size)
    rows = cut.final_standings()
    row = next((r for r in rows if r["player"] == player.id), None)
    if row is None or row["disqualified"]:  # added after the cut, never played, or disqualified: no placing
        return PlayerView(Stage.PLACED, cut_size=size)
    placed = sum(1 for r in rows if not r["disqualified"])  # "of M": the players holding a placing
    return PlayerView(Stage.PLACED, cut_size=size, place=Place(
        rank=row["rank"], of=placed, decided=complete, champion=complete and row["rank"] == 1,
        seed=row["seed"], swiss_rank=row.get("swiss_rank")))


# What a player's page follows from, in one statement built once (its poll asks every few seconds from every
# phone), by the event's slug and the player's id: the event's version and cut, the player's link key (the caller
# checks the link) and drop, and in the swiss their match in the latest published round (its result), the claims
# at that table, the round's newest seat (pairing edits rewrite seats) and the latest round's number (a later
# round closes reports); their newest judge call and their check-in state (services/check_in/phone.py), which the
# page's boxes show.
_LATEST = (sa.select(Round.id).where(Round.tournament_id == Tournament.id, Round.published)
           .order_by(Round.number.desc()).limit(1).correlate(Tournament).scalar_subquery())
_NEWEST_SEAT = (sa.select(sa.func.max(Seat.id)).where(Seat.round_id == _LATEST).correlate(Tournament)
                .scalar_subquery())
_LAST_NUMBER = (sa.select(sa.func.max(Round.number)).where(Round.tournament_id == Tournament.id)
                .correlate(Tournament).scalar_subquery())
# Check-in: the player's newest check-in; before round 1 the event's version too (a place freed on the waitlist
# moves everyone's position; promotions happen only then).
_MY_CHECK_IN = (sa.select(sa.func.max(CheckIn.id)).where(CheckIn.player_id == Player.id).correlate(Player)
                .scalar_subquery())
_BEFORE_ROUND_ONE = sa.case((_LAST_NUMBER.is_(None), Tournament.version), else_=None)
# the deadline passing turns the check-in button into "check-in closed" on an open page
_PAST_DEADLINE = sa.case((CheckInSettings.deadline <= sa.bindparam("now", type_=CheckInSettings.deadline.type), 1),
                         else_=0)
# The player's state (services/players/states.py) follows their drop, its reason and a standing disqualification
# (one probe of the partial unique index uq_penalties_one_disqualification): a disqualification or its voiding
# changes the page even when the player was dropped before.
_DISQUALIFIED = (sa.select(sa.func.count(Penalty.id)).where(
    Penalty.player_id == Player.id, STANDING_DISQUALIFICATION)
    .correlate(Player).scalar_subquery())
_PAGE = (Tournament.version, Tournament.cut_kind, Player.link_key, Player.dropped, Match.id, Match.result,
         _NEWEST_SEAT, _LAST_NUMBER, ResultClaim.player_id, ResultClaim.result, _MY_CHECK_IN, _BEFORE_ROUND_ONE,
         _PAST_DEADLINE, Player.drop_reason, _DISQUALIFIED)
_FACTS = Prepared("player_facts", phone.joined(
    sa.select(*_PAGE, judge_calls.NEWEST_OF_PLAYER, *phone.STATE)
    .select_from(Tournament)
    .join(Player, sa.and_(Player.tournament_id == Tournament.id, Player.id == sa.bindparam("pid")))
    .outerjoin(CheckInSettings, CheckInSettings.tournament_id == Tournament.id)
    .outerjoin(Seat, sa.and_(Seat.player_id == Player.id, Seat.round_id == _LATEST))
    .outerjoin(Match, Match.id == Seat.match_id)
    .outerjoin(ResultClaim, ResultClaim.match_id == Match.id))
    .where(Tournament.slug == sa.bindparam("slug"))
    .order_by(ResultClaim.player_id))


class Known(NamedTuple):
    tag: str  # changes whenever `view` might
    link_key: str  # the player's, for the caller to check the link
    event_version: int  # the event's (what the schedule's estimate is kept by: services/schedule/timeline.py)
    latest_round: int | None  # the number of the event's latest round
    judge_call: int | None  # the player's newest judge call's id
    check_in: tuple  # phone.STATE's columns


def version(slug: str, player_id: int) -> Known | None:
    """What a player's page follows, without building the view, or None for no such player in that event. In the
    swiss the tag follows the player's own table, so another table's report leaves it as it was; once the cut
    exists, the event's version (cut games change rarely). The page's boxes follow their columns either way."""
    rows = _FACTS.execute({"slug": slug, "pid": player_id, "now": utcnow()}).all()
    if not rows:
        return None
    first = rows[0]
    event_version, cut_kind, link_key, *_, latest = first[:8]  # ... _LAST_NUMBER
    boxes = tuple(first[len(_PAGE):])  # the newest call, then phone.STATE
    standing = tuple(first[len(_PAGE) - 2:len(_PAGE)])  # the drop's reason, a standing disqualification
    facts = repr((event_version, standing, boxes)) if cut_kind is not None else repr([tuple(r[3:]) for r in rows])
    return Known(hashlib.blake2b(facts.encode(), digest_size=8).hexdigest(), link_key, event_version, latest,
                 boxes[0], boxes[1:])


_PLAYING: Kept[int] = Kept(256)  # (event's slug, version) -> players still playing: a hall's pages ask together


def check_pace(t: Tournament) -> polling.Pace:
    """How often this event's player pages check their parts, and how they spread their check after a publish
    (app/core/polling.py), by the players still in it."""
    playing = _PLAYING.get((t.slug, t.version), lambda: db.session.scalar(
        sa.select(sa.func.count()).select_from(Player).where(Player.tournament_id == t.id, ~Player.dropped)))
    config = current_app.config
    return polling.pace(playing, config["PLAYER_CHECK_MS"], config["PLAYER_CHECKS_PER_SECOND"])

"""What a player's own page (their secret link) shows now: their swiss table, their top-cut game, or their
final place, with the round whose clock runs. The page and its poll (app/web/views/player.py) draw it; nothing
in a template or script works out which of these applies.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..core import result_wording
from ..models import Player, Tournament
from . import cut as cut_service
from . import participation


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
class PlayerView:
    stage: Stage
    mine: participation.MyTable | None = None  # SWISS
    seat: int = result_wording.FIRST  # SWISS: which seat the results read from
    cut: CutSeat | None = None  # CUT_GAME
    place: Place | None = None  # PLACED
    cut_size: int = 0

    @property
    def may_drop(self) -> bool:
        """Dropping is a swiss matter: once the cut exists the field is fixed."""
        return self.stage in (Stage.WAITING, Stage.SWISS)

    @property
    def clock_round(self) -> int | None:
        """The round whose timer the page shows: the swiss round being played."""
        return self.mine.round_number if self.stage is Stage.SWISS and self.mine is not None else None


def view(t: Tournament, player: Player) -> PlayerView:
    if t.cut_kind is not None:
        cut = cut_service.load(t)
        if cut is not None:
            return _in_cut(cut, player)
    mine = participation.my_table(t, player)
    if mine is None:
        return PlayerView(Stage.WAITING)
    return PlayerView(Stage.SWISS, mine=mine, seat=mine.seat)


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
    if row is None:  # a player added after the cut: in no standings
        return PlayerView(Stage.PLACED, cut_size=size)
    return PlayerView(Stage.PLACED, cut_size=size, place=Place(
        rank=row["rank"], of=len(rows), decided=complete, champion=complete and row["rank"] == 1,
        seed=row["seed"], swiss_rank=row.get("swiss_rank")))

"""Fold a list of games into each player's record: the facts pairing and standings both read."""
from __future__ import annotations

import gc
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional

from .formats import Format, Side
from .types import Game, PlayerId


@dataclass(slots=True)
class Record:
    points: int = 0
    rounds: int = 0  # rounds with a game or a bye
    byes: int = 0
    corp: int = 0  # single-sided games played as Corp
    runner: int = 0
    wins: int = 0  # matches (rounds) won / lost / tied; byes count as wins
    losses: int = 0
    ties: int = 0
    game_wins: int = 0  # plain swiss: games within matches
    game_losses: int = 0
    game_draws: int = 0
    opponents: list = field(default_factory=list)  # one entry per real game, repeats kept
    # single-sided: the side of each real game, one letter a game in the order of `opponents` ("c" Corp,
    # "r" Runner, "-" not recorded); a string keeps a 20,000-player history free of 200,000 small containers
    sides: str = ""
    lost_rounds: list = field(default_factory=list)

    @property
    def bias(self) -> int:
        """Corp games minus Runner games (byes count for neither)."""
        return self.corp - self.runner

    @property
    def games(self) -> int:
        """Real games played (byes excluded)."""
        return self.rounds - self.byes


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: a fold or a standings table builds a few containers per player and
    game, all of them kept, so collections would find nothing and at 100,000 games cost as much as the work."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class History:
    """Every player's record after the given games. Linear in the number of games."""

    def __init__(self, fmt: Format, games: Iterable[Game], players: Iterable[PlayerId] = ()):
        self.format = fmt
        self.records: dict[PlayerId, Record] = defaultdict(Record)
        self.last_round = 0
        with gc_paused():
            for p in players:
                self.records[p]
            self._fold(games)

    def __getitem__(self, player: PlayerId) -> Record:
        return self.records[player]

    def _fold(self, games: Iterable[Game]) -> None:
        """Fold the games in. Written for speed (one loop, locals only): a 20,000-player event has 100,000 games
        by round 10, and plain swiss pairing and every standings page fold them all again."""
        records = self.records
        bye_game_wins = self.format.scoring.bye_game_wins
        sided = self.format.sided_tables
        corp = Side.CORP
        last_round = self.last_round
        for g in games:
            rnd = g.round
            if rnd > last_round:
                last_round = rnd
            player = g.player
            a = records[player]
            pp, op = g.player_points, g.opponent_points
            a.points += pp
            a.rounds += 1
            opponent = g.opponent
            if opponent is None:
                a.byes += 1
                a.wins += 1
                a.game_wins += bye_game_wins
                continue
            b = records[opponent]
            b.points += op
            b.rounds += 1
            a.opponents.append(opponent)
            b.opponents.append(player)
            pg, og, dg = g.player_games, g.opponent_games, g.drawn_games
            if pg or og or dg:
                a.game_wins += pg
                a.game_losses += og
                b.game_wins += og
                b.game_losses += pg
                a.game_draws += dg
                b.game_draws += dg
            if pp > op:
                a.wins += 1
                b.losses += 1
                b.lost_rounds.append(rnd)
            elif pp < op:
                b.wins += 1
                a.losses += 1
                a.lost_rounds.append(rnd)
            else:
                a.ties += 1
                b.ties += 1
            if sided:
                side = g.player_side
                if side is None:
                    a.sides += "-"
                    b.sides += "-"
                elif side == corp:
                    a.sides += "c"
                    b.sides += "r"
                else:
                    a.sides += "r"
                    b.sides += "c"
        if sided:
            for r in records.values():
                if r.sides:
                    r.corp, r.runner = r.sides.count("c"), r.sides.count("r")
        self.last_round = last_round

    def times_met(self, x: PlayerId, y: PlayerId) -> int:
        return self.records[x].opponents.count(y) if x in self.records else 0

    def sides_played_against(self, x: PlayerId, y: PlayerId) -> list:
        """Sides `x` played in earlier games against `y` (single-sided)."""
        rec = self.records.get(x)
        if rec is None:
            return []
        sides = (s for o, s in zip(rec.opponents, rec.sides, strict=False) if o == y and s != "-")
        return [Side.CORP if s == "c" else Side.RUNNER for s in sides]

    def had_bye(self, x: PlayerId) -> bool:
        rec: Optional[Record] = self.records.get(x)
        return bool(rec and rec.byes)

"""Fold a list of games into each player's record: the facts pairing and standings both read."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Optional

from .formats import Format, Side
from .types import Game, PlayerId


@dataclass
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
    # (opponent, side this player played, round) for single-sided rematch rules
    sides_against: dict = field(default_factory=lambda: defaultdict(list))
    lost_rounds: list = field(default_factory=list)

    @property
    def bias(self) -> int:
        """Corp games minus Runner games (byes count for neither)."""
        return self.corp - self.runner

    @property
    def games(self) -> int:
        """Real games played (byes excluded)."""
        return self.rounds - self.byes


class History:
    """Every player's record after the given games. Linear in the number of games."""

    def __init__(self, fmt: Format, games: Iterable[Game], players: Iterable[PlayerId] = ()):
        self.format = fmt
        self.records: dict[PlayerId, Record] = defaultdict(Record)
        for p in players:
            self.records[p]
        self.last_round = 0
        for g in games:
            self._add(g)

    def __getitem__(self, player: PlayerId) -> Record:
        return self.records[player]

    def _add(self, g: Game) -> None:
        self.last_round = max(self.last_round, g.round)
        scoring = self.format.scoring
        a = self.records[g.player]
        a.points += g.player_points
        a.rounds += 1
        if g.opponent is None:
            a.byes += 1
            a.wins += 1
            a.game_wins += scoring.bye_game_wins
            return
        b = self.records[g.opponent]
        b.points += g.opponent_points
        b.rounds += 1
        a.opponents.append(g.opponent)
        b.opponents.append(g.player)
        a.game_wins += g.player_games
        a.game_losses += g.opponent_games
        b.game_wins += g.opponent_games
        b.game_losses += g.player_games
        a.game_draws += g.drawn_games
        b.game_draws += g.drawn_games
        if g.player_points > g.opponent_points:
            a.wins += 1
            b.losses += 1
            b.lost_rounds.append(g.round)
        elif g.player_points < g.opponent_points:
            b.wins += 1
            a.losses += 1
            a.lost_rounds.append(g.round)
        else:
            a.ties += 1
            b.ties += 1
        if self.format is Format.SINGLE_SIDED and g.player_side is not None:
            side_a: Side = Side(g.player_side)
            side_b = side_a.other
            for rec, side, opp in ((a, side_a, g.opponent), (b, side_b, g.player)):
                if side is Side.CORP:
                    rec.corp += 1
                else:
                    rec.runner += 1
                rec.sides_against[opp].append(side)

    def times_met(self, x: PlayerId, y: PlayerId) -> int:
        return self.records[x].opponents.count(y) if x in self.records else 0

    def sides_played_against(self, x: PlayerId, y: PlayerId) -> list:
        """Sides `x` played in earlier games against `y` (single-sided)."""
        return list(self.records[x].sides_against.get(y, ())) if x in self.records else []

    def had_bye(self, x: PlayerId) -> bool:
        rec: Optional[Record] = self.records.get(x)
        return bool(rec and rec.byes)

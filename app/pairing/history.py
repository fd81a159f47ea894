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
        self._bye_game_wins = fmt.scoring.bye_game_wins
        self._sided = fmt is Format.SINGLE_SIDED
        add = self._add
        for g in games:
            add(g)

    def __getitem__(self, player: PlayerId) -> Record:
        return self.records[player]

    def _add(self, g: Game) -> None:
        """Fold one game in. Written for speed: a 20,000-player event has 100,000 games by round 10."""
        if g.round > self.last_round:
            self.last_round = g.round
        records = self.records
        a = records[g.player]
        pp, op = g.player_points, g.opponent_points
        a.points += pp
        a.rounds += 1
        opponent = g.opponent
        if opponent is None:
            a.byes += 1
            a.wins += 1
            a.game_wins += self._bye_game_wins
            return
        b = records[opponent]
        b.points += op
        b.rounds += 1
        a.opponents.append(opponent)
        b.opponents.append(g.player)
        if g.player_games or g.opponent_games or g.drawn_games:
            a.game_wins += g.player_games
            a.game_losses += g.opponent_games
            b.game_wins += g.opponent_games
            b.game_losses += g.player_games
            a.game_draws += g.drawn_games
            b.game_draws += g.drawn_games
        if pp > op:
            a.wins += 1
            b.losses += 1
            b.lost_rounds.append(g.round)
        elif pp < op:
            b.wins += 1
            a.losses += 1
            a.lost_rounds.append(g.round)
        else:
            a.ties += 1
            b.ties += 1
        if self._sided and g.player_side is not None:
            if g.player_side == Side.CORP:
                a.corp += 1
                b.runner += 1
                a.sides_against[opponent].append(Side.CORP)
                b.sides_against[g.player].append(Side.RUNNER)
            else:
                a.runner += 1
                b.corp += 1
                a.sides_against[opponent].append(Side.RUNNER)
                b.sides_against[g.player].append(Side.CORP)

    def times_met(self, x: PlayerId, y: PlayerId) -> int:
        return self.records[x].opponents.count(y) if x in self.records else 0

    def sides_played_against(self, x: PlayerId, y: PlayerId) -> list:
        """Sides `x` played in earlier games against `y` (single-sided)."""
        return list(self.records[x].sides_against.get(y, ())) if x in self.records else []

    def had_bye(self, x: PlayerId) -> bool:
        rec: Optional[Record] = self.records.get(x)
        return bool(rec and rec.byes)

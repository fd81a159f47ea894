"""Plain data the engine takes and returns. No Flask, no SQL: the web app and a TO's script build these."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Optional

from .formats import Side

PlayerId = Hashable  # the app uses database ids (int); scripts may use names


@dataclass(frozen=True)
class Entrant:
    id: PlayerId
    name: str = ""
    dropped: bool = False
    first_round_bye: bool = False
    fixed_table: Optional[int] = None

    @property
    def label(self) -> str:
        return self.name or str(self.id)

    def asks_bye(self, round_number: int) -> bool:
        """A requested bye (say a qualifier's prize) holds in round 1 only."""
        return round_number == 1 and self.first_round_bye


@dataclass(frozen=True)
class Game:
    """One completed pairing of a round: a match, or a bye when `opponent` is None.

    Single-sided: `player_side` is the side `player` played (the opponent played the other).
    Double-sided: points are the sum of both games (6-0, 3-3, 4-1 ...); no side.
    Plain swiss: points are match points; `player_games`/`opponent_games`/`drawn_games` are the
    games of the match (for GW% and OGW%).
    """

    round: int
    player: PlayerId
    opponent: Optional[PlayerId]
    player_points: int
    opponent_points: int = 0
    player_side: Optional[Side] = None
    player_games: int = 0
    opponent_games: int = 0
    drawn_games: int = 0
    intentional_draw: bool = False

    @property
    def is_bye(self) -> bool:
        return self.opponent is None

    def players(self) -> tuple:
        return (self.player,) if self.opponent is None else (self.player, self.opponent)


@dataclass(frozen=True)
class Pairing:
    """One table of a new round. Single-sided: `player` plays Corp, `opponent` plays Runner."""

    table: int
    player: PlayerId
    opponent: Optional[PlayerId]  # None: `player` has the bye

    @property
    def is_bye(self) -> bool:
        return self.opponent is None

    @property
    def corp(self) -> PlayerId:
        return self.player

    @property
    def runner(self) -> Optional[PlayerId]:
        return self.opponent


@dataclass
class RoundPlan:
    """The engine's answer: the pairings of the next round, tables in order, the bye (if any) last."""

    round: int
    pairings: list[Pairing]
    total_cost: Optional[object] = None  # exact cost of the chosen matching (int or Fraction)
    certified_optimal: bool = True  # False only if the fast solver could not prove optimality within its budget
    gap: Optional[object] = 0  # proven bound on total_cost - optimum (0 when certified; None: no bound known)
    notes: list[str] = field(default_factory=list)

    @property
    def certified(self) -> bool:
        return self.certified_optimal


class PairingError(Exception):
    """No legal pairing exists. `players` are the entrants that could not be paired."""

    def __init__(self, message: str, players: list[Entrant] | tuple = ()):
        self.players = list(players)
        names = ", ".join(p.label for p in self.players)
        super().__init__(f"{message}: {names}" if names else message)

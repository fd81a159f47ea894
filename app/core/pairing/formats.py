"""The three formats and their scoring: the one place where the points for a win are written."""
from __future__ import annotations

import enum
from dataclasses import dataclass


class Format(str, enum.Enum):
    SINGLE_SIDED = "single"  # Netrunner single-sided swiss: one game, Corp vs Runner
    DOUBLE_SIDED = "double"  # Netrunner classic: two games a round, each player plays each side
    PLAIN = "plain"  # Magic-style swiss: one best-of-N match, no sides

    @property
    def scoring(self) -> "Scoring":
        return SCORING[self]

    # The format's facts, asked by services, views and templates alike (never `format == "single"` elsewhere).

    @property
    def sided_tables(self) -> bool:
        """Single-sided swiss: each table is one game, seat 1 plays Corp and seat 2 Runner."""
        return self is Format.SINGLE_SIDED

    @property
    def netrunner(self) -> bool:
        """Players bring a Corp and a Runner identity, and a cut game is one Corp-versus-Runner game."""
        return self is not Format.PLAIN

    @property
    def games_per_round(self) -> int:
        return self.scoring.games_per_round

    @property
    def custom_results(self) -> bool:
        """A result beyond the one-tap buttons can be entered: both games' points (double-sided), games won and
        drawn (plain). Single-sided results are the buttons alone."""
        return self is not Format.SINGLE_SIDED

    @property
    def counts_games(self) -> bool:
        """Plain swiss: a match is best of N games; the result is games won and drawn, and the TO picks the
        tiebreaker system (Magic or WoW)."""
        return self is Format.PLAIN

    @property
    def label(self) -> str:
        return {
            Format.SINGLE_SIDED: "Single-sided swiss",
            Format.DOUBLE_SIDED: "Double-sided swiss",
            Format.PLAIN: "Plain swiss",
        }[self]


class Side(str, enum.Enum):
    CORP = "corp"
    RUNNER = "runner"

    @property
    def other(self) -> "Side":
        return Side.RUNNER if self is Side.CORP else Side.CORP


@dataclass(frozen=True)
class Scoring:
    """Points of one format. `win`/`tie` are per game for double-sided, per match otherwise."""

    win: int
    tie: int
    loss: int
    bye: int  # points a bye is worth
    games_per_round: int  # double-sided plays two games a round
    bye_game_wins: int = 0  # plain swiss: a bye counts as a 2-0 match win for GW%

    @property
    def round_points(self) -> int:
        """Points at stake for one player in one round (a clean sweep); also the unit of 'one win' in cost terms."""
        return self.win * self.games_per_round


SCORING = {
    Format.SINGLE_SIDED: Scoring(win=3, tie=1, loss=0, bye=3, games_per_round=1),
    Format.DOUBLE_SIDED: Scoring(win=3, tie=1, loss=0, bye=6, games_per_round=2),
    Format.PLAIN: Scoring(win=3, tie=1, loss=0, bye=3, games_per_round=1, bye_game_wins=2),
}

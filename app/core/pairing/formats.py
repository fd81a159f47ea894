"""The three formats and everything that differs between them (Traits): the one place where the points for a win are
written, and the one place a format's behaviour is decided."""
from __future__ import annotations

import enum
from dataclasses import dataclass, fields


class Format(str, enum.Enum):
    """The stored value of each format (Tournament.format) is its enum value; everything that differs by format is
    in its Traits below, asked by name (`t.fmt.sided_tables`), never by comparing formats (`is Format.PLAIN`)."""

    SINGLE_SIDED = "single"  # Netrunner single-sided swiss: one game, Corp vs Runner
    DOUBLE_SIDED = "double"  # Netrunner classic: two games a round, each player plays each side
    PLAIN = "plain"  # Magic-style swiss: one best-of-N match, no sides

    @property
    def traits(self) -> "Traits":
        return TRAITS[self]

    # The format's facts, asked by services, views and templates alike: each of its Traits by name, as a property
    # made below from Traits' own fields (one list: a trait added there is askable here).
    scoring: "Scoring"
    label: str
    sided_tables: bool
    both_sides: bool
    counts_games: bool
    netrunner: bool
    custom_results: bool
    cut_kinds: tuple[str, ...]
    tiebreakers: str

    @property
    def games_per_round(self) -> int:
        return self.traits.scoring.games_per_round


DEFAULT_FORMAT = Format.SINGLE_SIDED  # a new event's, the simulator's, and the model's when none is given


class Side(str, enum.Enum):
    CORP = "corp"
    RUNNER = "runner"

    @property
    def other(self) -> "Side":
        return Side.RUNNER if self is Side.CORP else Side.CORP

    @property
    def label(self) -> str:
        """As a player reads it: "Corp", "Runner"."""
        return self.value.title()


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


@dataclass(frozen=True)
class Traits:
    """What differs by format, each asked by its name. No field has a default: a format added without deciding
    one of them fails where TRAITS is built (tests/core/pairing/test_formats.py holds every format to it).

    A table is exactly one of `sided_tables`, `both_sides` or `counts_games`: what its result is and how it
    pairs."""

    label: str
    scoring: Scoring
    # Single-sided swiss: each table is one game, seat 1 plays Corp and seat 2 Runner; sides are balanced by the
    # pairing (its score factor), and a round is one game (the round advice's simulations are of it).
    sided_tables: bool
    # Double-sided swiss: a table is two games, each player Corp in one; the result is both games' points.
    both_sides: bool
    # Plain swiss: a match is best of N games; the result is games won and drawn, and the TO picks the
    # tiebreaker system (Magic or WoW) and power pairing.
    counts_games: bool
    # Players bring a Corp and a Runner identity, and a cut game is one Corp-versus-Runner game.
    netrunner: bool
    # A result beyond the one-tap buttons can be entered: both games' points (double-sided), games won and
    # drawn (plain). Single-sided results are the buttons alone.
    custom_results: bool
    cut_kinds: tuple[str, ...]  # the eliminations its cut may take, the default first (app/core/brackets.py)
    tiebreakers: str  # the tiebreaker system when the TO chose none (app/core/pairing/tiebreakers.py)


TRAITS = {
    Format.SINGLE_SIDED: Traits(
        label="Single-sided swiss", scoring=Scoring(win=3, tie=1, loss=0, bye=3, games_per_round=1),
        sided_tables=True, both_sides=False, counts_games=False, netrunner=True, custom_results=False,
        cut_kinds=("double", "single"), tiebreakers="netrunner"),
    Format.DOUBLE_SIDED: Traits(
        label="Double-sided swiss", scoring=Scoring(win=3, tie=1, loss=0, bye=6, games_per_round=2),
        sided_tables=False, both_sides=True, counts_games=False, netrunner=True, custom_results=True,
        cut_kinds=("double", "single"), tiebreakers="netrunner"),
    Format.PLAIN: Traits(
        label="Plain swiss", scoring=Scoring(win=3, tie=1, loss=0, bye=3, games_per_round=1, bye_game_wins=2),
        sided_tables=False, both_sides=False, counts_games=True, netrunner=False, custom_results=True,
        cut_kinds=("single",), tiebreakers="magic"),
}

def _trait(name: str) -> property:
    return property(lambda fmt: getattr(fmt.traits, name))


for _field in fields(Traits):
    setattr(Format, _field.name, _trait(_field.name))

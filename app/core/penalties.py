"""Penalties: the infractions a judge records, the penalties they carry, and what a penalty does to a round's
result (docs/domain.md 17).

Pure code (no Flask, no SQL). A result is changed only as an Outcome of app/core/results.py, so the points come
from the format's scoring as for any reported result.
"""
from __future__ import annotations

import enum
from typing import Optional

from .pairing.formats import Format
from .results import GAME_SEP, MAX_PLAIN_GAMES, Outcome, ResultError, double_games, outcome, plain

ROUND = 0  # Penalty.game of a penalty on the whole round (single-sided's one game, a match loss, plain swiss)
NOTES_LENGTH = 1000


class PenaltyError(ValueError):
    """A penalty that cannot apply to this table as it stands; the message is shown to the judge."""


class Kind(str, enum.Enum):
    """The penalties, from the mildest."""

    WARNING = "warning"
    GAME_LOSS = "game_loss"
    MATCH_LOSS = "match_loss"
    DISQUALIFICATION = "disqualification"

    @property
    def label(self) -> str:
        return {Kind.WARNING: "Warning", Kind.GAME_LOSS: "Game loss", Kind.MATCH_LOSS: "Match loss",
                Kind.DISQUALIFICATION: "Disqualification"}[self]

    @property
    def loses(self) -> bool:
        """Whether the penalty changes the round's result (a game or the whole round lost)."""
        return self in (Kind.GAME_LOSS, Kind.MATCH_LOSS)

    @property
    def drops(self) -> bool:
        return self is Kind.DISQUALIFICATION


class Category(str, enum.Enum):
    """The three families of infraction in Netrunner's tournament rules."""

    GAME = "game"
    TOURNAMENT = "tournament"
    CONDUCT = "conduct"

    @property
    def label(self) -> str:
        return {Category.GAME: "Game errors", Category.TOURNAMENT: "Tournament errors",
                Category.CONDUCT: "Conduct"}[self]


class Infraction(str, enum.Enum):
    """What went wrong, each with its family and the penalty a judge usually starts from (the judge decides)."""

    MISSED_TRIGGER = "missed_trigger"
    EXTRA_CARDS_SEEN = "extra_cards_seen"
    EXTRA_CARDS_DRAWN = "extra_cards_drawn"
    STARTING_HAND = "starting_hand"
    ILLEGAL_INSTALL = "illegal_install"
    HIDDEN_INFORMATION = "hidden_information"
    GAME_STATE = "game_state"
    SLOW_PLAY = "slow_play"
    TARDINESS = "tardiness"
    DECK_ERROR = "deck_error"
    OUTSIDE_ASSISTANCE = "outside_assistance"
    MARKED_CARDS = "marked_cards"
    COMMUNICATION = "communication"
    CONDUCT_MINOR = "conduct_minor"
    CONDUCT_MAJOR = "conduct_major"
    CHEATING = "cheating"
    COLLUSION = "collusion"
    BRIBERY = "bribery"
    OTHER = "other"

    @property
    def category(self) -> Category:
        return _INFRACTIONS[self][0]

    @property
    def label(self) -> str:
        return _INFRACTIONS[self][1]

    @property
    def usual(self) -> Kind:
        return _INFRACTIONS[self][2]


_INFRACTIONS = {
    Infraction.MISSED_TRIGGER: (Category.GAME, "Missed trigger", Kind.WARNING),
    Infraction.EXTRA_CARDS_SEEN: (Category.GAME, "Looking at extra cards", Kind.WARNING),
    Infraction.EXTRA_CARDS_DRAWN: (Category.GAME, "Drawing extra cards", Kind.WARNING),
    Infraction.STARTING_HAND: (Category.GAME, "Wrong starting hand", Kind.WARNING),
    Infraction.ILLEGAL_INSTALL: (Category.GAME, "Illegal facedown install", Kind.WARNING),
    Infraction.HIDDEN_INFORMATION: (Category.GAME, "Revealing hidden information", Kind.WARNING),
    Infraction.GAME_STATE: (Category.GAME, "Illegal game state", Kind.WARNING),
    Infraction.SLOW_PLAY: (Category.TOURNAMENT, "Slow play", Kind.WARNING),
    Infraction.TARDINESS: (Category.TOURNAMENT, "Tardiness", Kind.GAME_LOSS),
    Infraction.DECK_ERROR: (Category.TOURNAMENT, "Illegal deck or deck/list mismatch", Kind.GAME_LOSS),
    Infraction.OUTSIDE_ASSISTANCE: (Category.TOURNAMENT, "Outside assistance", Kind.MATCH_LOSS),
    Infraction.MARKED_CARDS: (Category.TOURNAMENT, "Marked cards or sleeves", Kind.WARNING),
    Infraction.COMMUNICATION: (Category.TOURNAMENT, "Communication violation", Kind.WARNING),
    Infraction.CONDUCT_MINOR: (Category.CONDUCT, "Unsporting conduct, minor", Kind.WARNING),
    Infraction.CONDUCT_MAJOR: (Category.CONDUCT, "Unsporting conduct, major", Kind.MATCH_LOSS),
    Infraction.CHEATING: (Category.CONDUCT, "Cheating", Kind.DISQUALIFICATION),
    Infraction.COLLUSION: (Category.CONDUCT, "Collusion", Kind.DISQUALIFICATION),
    Infraction.BRIBERY: (Category.CONDUCT, "Bribery or wagering", Kind.DISQUALIFICATION),
    Infraction.OTHER: (Category.CONDUCT, "Other (see the notes)", Kind.WARNING),
}


def grouped() -> list[tuple[Category, list[Infraction]]]:
    """The infractions by family, in the rules' order: what the form's menu shows."""
    return [(c, [i for i in Infraction if i.category is c]) for c in Category]


def games(fmt: Format, kind: Kind) -> tuple[int, ...]:
    """Which values of Penalty.game a penalty of this kind may name in this format: a double-sided game loss
    names game 1 or 2 (the two games of the round); everything else names the round (ROUND)."""
    if kind is Kind.GAME_LOSS and Format(fmt).both_sides:
        return (1, 2)
    return (ROUND,)


def _lost(fmt: Format) -> tuple[int, int]:
    """One game from the penalized player's side: lost (their points, the opponent's)."""
    s = Format(fmt).scoring
    return (s.loss, s.win)


def penalized(fmt: Format, current: Optional[str], seat: int, kind: Kind, game: int = ROUND,
              other_game: Optional[str] = None) -> Optional[Outcome]:
    """The round's result once the penalty applies, as an Outcome (None: the penalty leaves the result alone).

    `current` is the table's stored result (None: not in yet); `seat` is the penalized player's index in the
    Outcome's order (0: single-sided's Corp, else seat 1; 1: the other). The rules (docs/domain.md 17):

    - a warning or a disqualification changes no result (a disqualified player is dropped instead);
    - single-sided: a game loss and a match loss are the same, the round's one game lost: the opponent's win;
    - double-sided: a match loss loses both games; a game loss loses game `game` (1: seat 1 played Corp, 2: seat
      1 played Runner), the other game keeping its entered result, or `other_game` ("win", "tie", "loss" from
      the penalized player's side) when the result is not in yet;
    - plain swiss: a match loss is a 0-2 loss; a game loss adds one game won by the opponent to the entered
      result (it needs the result in).
    """
    fmt = Format(fmt)
    if not kind.loses:
        return None
    if seat not in (0, 1):
        raise PenaltyError("A penalty names one of the table's two players.")
    if game not in games(fmt, kind):
        raise PenaltyError("Choose which game the game loss takes." if games(fmt, kind) != (ROUND,)
                           else "This penalty takes the whole round, not one game.")
    lost = _lost(fmt)

    def mine(pair: tuple[int, int]) -> tuple[int, int]:
        """A pair from the penalized player's side, put in the Outcome's order (and back)."""
        return pair if seat == 0 else (pair[1], pair[0])

    if fmt.sided_tables:
        return outcome(fmt, "runner" if seat == 0 else "corp")
    if fmt.both_sides:
        if kind is Kind.MATCH_LOSS:
            return double_games(mine(lost), mine(lost))
        if current is not None:
            entered = _double_games(current)
            rest = entered[2 - game]  # the game the penalty leaves alone, as entered
        else:
            if other_game is None:
                raise PenaltyError("The round's result is not in yet: say how the other game ended, or record "
                                   "the game loss once it is played.")
            rest = _other(fmt, other_game, mine)
        return double_games(mine(lost), rest) if game == 1 else double_games(rest, mine(lost))
    if kind is Kind.MATCH_LOSS:
        return plain(*mine((0, 2)))
    if current is None:
        raise PenaltyError("Enter the match's games first: a game loss adds one game won by the opponent.")
    won, lost_games, drawn = _plain_games(current)
    won, lost_games = mine((won, lost_games))  # from the penalized player's side now
    lost_games += 1
    if lost_games > MAX_PLAIN_GAMES:
        raise PenaltyError(f"The opponent already won {MAX_PLAIN_GAMES} games: a game loss cannot add another.")
    return plain(*mine((won, lost_games)), drawn)


def _double_games(key: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """Both games of a stored double-sided result; a total that does not say its games reads as its default
    (results.double_sided)."""
    result = outcome(Format.DOUBLE_SIDED, key)
    (a1, b1), (a2, b2) = (map(int, g.split("-")) for g in result.key.split(GAME_SEP))
    return (a1, b1), (a2, b2)


def _other(fmt: Format, how: str, mine) -> tuple[int, int]:
    s = fmt.scoring
    table = {"win": (s.win, s.loss), "tie": (s.tie, s.tie), "loss": (s.loss, s.win)}
    if how not in table:
        raise PenaltyError("The other game is a win, a tie or a loss.")
    return mine(table[how])


def _plain_games(key: str) -> tuple[int, int, int]:
    try:
        result = outcome(Format.PLAIN, key)
    except ResultError as e:
        raise PenaltyError(str(e)) from None
    return result.games[0], result.games[1], result.drawn_games

"""A result as one player of the table reads it: "I won 2-0", "I lost as Runner", "We drew 1-1".

A stored result key (app/core/results.py) reads from the table's first seat (Corp in single-sided swiss, seat 1
otherwise); a player who sees "Ana 0-2 Bo" on their phone has to work out which name is theirs, and a winner
can report a loss. So every result a player sees is worded here, from their seat: in the first person for their
own buttons and report ("I won 2-0"), in the second person for the opponent's report as it concerns them ("you
lost 0-2"). The TO's pages keep the table's view (results.label). Pure: no Flask, no SQL.
"""
from __future__ import annotations

from enum import Enum

from . import results
from .pairing.formats import Format

FIRST, SECOND = 0, 1  # a player's seat in the order results read: Corp first in single-sided swiss, else seat 1


class Person(Enum):
    ME = "me"  # the player's own words: "I won 2-0", "We drew"
    YOU = "you"  # the opponent's report told to the player: "you won 2-0", "a draw"


class Ending(Enum):
    """How the result ends for the player; choices list them in this order."""

    WON = 0
    LOST = 1
    DREW = 2
    AGREED = 3  # an intentional draw


def _game(mine: int, theirs: int) -> str:
    return "won" if mine > theirs else "lost" if mine < theirs else "tied"


def _reading(fmt: Format, key: str, seat: int) -> tuple[Ending, str, str, int]:
    """(how it ended for `seat`, the score from its side ("2-1"; "" in single-sided swiss), what follows the score,
    the margin that orders the choices)."""
    fmt = Format(fmt)
    outcome = results.outcome(fmt, key)
    if fmt.sided_tables:
        if outcome.intentional_draw:
            return Ending.AGREED, "", "", 0
        mine, theirs = outcome.points if seat == FIRST else outcome.points[::-1]
        ending = Ending.WON if mine > theirs else Ending.LOST if mine < theirs else Ending.DREW
        return ending, "", "" if ending is Ending.DREW else " as Corp" if seat == FIRST else " as Runner", 0
    mine, theirs = outcome.points if seat == FIRST else outcome.points[::-1]
    ending = Ending.WON if mine > theirs else Ending.LOST if mine < theirs else Ending.DREW
    if fmt.both_sides:
        if not results.games_known(key):  # an imported total without its games: the score is all there is
            return ending, f"{mine}-{theirs}", "", mine - theirs
        (a1, b1), (a2, b2) = results.side_scores(outcome.key)  # (as Corp, as Runner) of seat 1, then seat 2
        (my_corp, my_runner), (their_corp, their_runner) = \
            ((a1, b1), (a2, b2)) if seat == FIRST else ((a2, b2), (a1, b1))
        as_corp, as_runner = _game(my_corp, their_runner), _game(my_runner, their_corp)
        if as_corp == as_runner:  # a sweep, or two ties: the score says it all
            detail = ""
        elif ending is Ending.DREW:  # a split: the same side won both games
            detail = f": each won as {'Corp' if as_corp == 'won' else 'Runner'}"
        else:
            detail = f" ({as_corp} as Corp, {as_runner} as Runner)"
        return ending, f"{mine}-{theirs}", detail, mine - theirs
    won, lost = outcome.games if seat == FIRST else outcome.games[::-1]
    drawn = f" ({outcome.drawn_games} game{'s' * (outcome.drawn_games != 1)} drawn)" if outcome.drawn_games else ""
    return ending, f"{won}-{lost}", drawn, won - lost


def worded(fmt: Format, key: str | None, seat: int, person: Person = Person.ME) -> str:
    """The result `key` as the player in `seat` reads it. A second-person text is for the middle of a sentence
    ("Bo reported: you lost 0-2", "a 1-1 draw"); a bye is a bye either way."""
    if key is None:
        return ""
    if key == results.BYE:
        return "Bye"
    ending, score, detail, _ = _reading(fmt, key, seat)
    me = person is Person.ME
    if ending is Ending.AGREED:
        return "We agreed an intentional draw" if me else "an intentional draw"
    if ending is Ending.DREW:
        if not score:
            return "We tied" if me else "a tie"
        return f"We drew {score}{detail}" if me else f"a {score} draw{detail}"
    verb = "won" if ending is Ending.WON else "lost"
    return f"{'I' if me else 'you'} {verb}{f' {score}' if score else ''}{detail}"


def choices(fmt: Format, seat: int) -> list[tuple[str, str]]:
    """(key, text) of the one-tap result buttons as the player in `seat` sees them: wins first (the biggest
    first), then losses (the closest first), draws, an intentional draw."""
    def order(item):
        ending, _, _, margin = _reading(fmt, item[0], seat)
        return ending.value, -margin
    keys = sorted(results.buttons(fmt), key=order)
    return [(key, worded(fmt, key, seat)) for key, _ in keys]


def cut_game(won: bool, side: str | None, person: Person = Person.ME) -> str:
    """A top-cut game's result for one of its players ("I won as Corp", "you lost"): the TO enters only the
    winner (and the Corp, if recorded)."""
    subject = "I" if person is Person.ME else "you"
    return f"{subject} {'won' if won else 'lost'}{f' as {side.capitalize()}' if side else ''}"

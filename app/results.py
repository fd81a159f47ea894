"""Result entry: the buttons a TO taps per format, turned into points and games.

Pure code (no Flask, no SQL). Every number comes from the format's Scoring in app/pairing/formats.py;
this module only decides which of those numbers each seat gets.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement

from .pairing.formats import Format

BYE = "bye"
MAX_PLAIN_GAMES = 3  # custom plain swiss entries: at most 3 games won, lost or drawn (best of five)


class ResultError(ValueError):
    """A result that cannot be right for this format; the message is shown to the TO."""


@dataclass(frozen=True)
class Outcome:
    """A reported result. `points`/`games` are for (first, second): Corp then Runner in single-sided
    swiss, seat 1 then seat 2 otherwise. `key` is what Match.result stores."""

    key: str
    points: tuple[int, int]
    games: tuple[int, int] = (0, 0)
    drawn_games: int = 0
    intentional_draw: bool = False


def buttons(fmt: Format) -> list[tuple[str, str]]:
    """(key, label) of the one-tap buttons for a format, in display order."""
    fmt = Format(fmt)
    if fmt is Format.SINGLE_SIDED:
        return [("corp", "Corp win"), ("runner", "Runner win"), ("tie", "Tie"), ("id", "Intentional draw")]
    if fmt is Format.DOUBLE_SIDED:
        return [(k, k) for k in _double_keys()]
    return [("2-0", "2-0"), ("2-1", "2-1"), ("1-2", "1-2"), ("0-2", "0-2"), ("1-1", "1-1 draw")]


def outcome(fmt: Format, key: str) -> Outcome:
    """The Outcome of a button (or a stored Match.result key)."""
    fmt = Format(fmt)
    s = fmt.scoring
    if fmt is Format.SINGLE_SIDED:
        table = {
            "corp": Outcome("corp", (s.win, s.loss)),
            "runner": Outcome("runner", (s.loss, s.win)),
            "tie": Outcome("tie", (s.tie, s.tie)),
            "id": Outcome("id", (s.tie, s.tie), intentional_draw=True),
        }
        if key not in table:
            raise ResultError(f"Unknown result {key[:20]!r}.")
        return table[key]
    numbers = _parse_numbers(key)
    if fmt is Format.DOUBLE_SIDED:
        if len(numbers) != 2:
            raise ResultError("A double-sided result is two numbers, like 6-0.")
        return double_sided(*numbers)
    if len(numbers) not in (2, 3):
        raise ResultError("A plain swiss result is games won-lost(-drawn), like 2-1.")
    return plain(*numbers)


def double_sided(first: int, second: int) -> Outcome:
    """Custom double-sided points: each of the round's games is a win, a loss or a tie."""
    if (first, second) not in _double_totals():
        allowed = ", ".join(f"{a}-{b}" for a, b in sorted(_double_totals(), reverse=True))
        raise ResultError(f"{first}-{second} is not possible in two games; possible results: {allowed}.")
    return Outcome(f"{first}-{second}", (first, second))


def plain(won: int, lost: int, drawn: int = 0) -> Outcome:
    """Plain swiss: games won, lost and drawn by the first seat decide the match points."""
    s = Format.PLAIN.scoring
    for n in (won, lost, drawn):
        if not 0 <= n <= MAX_PLAIN_GAMES:
            raise ResultError(f"Games won, lost and drawn must each be between 0 and {MAX_PLAIN_GAMES}.")
    if won > lost:
        points = (s.win, s.loss)
    elif won < lost:
        points = (s.loss, s.win)
    else:
        points = (s.tie, s.tie)
    key = f"{won}-{lost}" + (f"-{drawn}" if drawn else "")
    return Outcome(key, points, games=(won, lost), drawn_games=drawn)


def label(fmt: Format, key: str | None) -> str:
    """How a stored result reads on the page."""
    if key is None:
        return ""
    if key == BYE:
        return "Bye"
    return dict(buttons(fmt)).get(key, key)


def _parse_numbers(key: str) -> tuple[int, ...]:
    parts = key.split("-")
    if not all(p.isdigit() and len(p) <= 2 for p in parts):
        raise ResultError(f"Unknown result {key[:20]!r}.")
    return tuple(int(p) for p in parts)


def _double_totals() -> set[tuple[int, int]]:
    """Every (first, second) point total that two games (each won, lost or tied) can give."""
    s = Format.DOUBLE_SIDED.scoring
    per_game = [(s.win, s.loss), (s.tie, s.tie), (s.loss, s.win)]
    return {
        (sum(g[0] for g in games), sum(g[1] for g in games))
        for games in combinations_with_replacement(per_game, s.games_per_round)
    }


def _double_keys() -> list[str]:
    """The buttons: a sweep each way and the split (6-0, 3-3, 0-6)."""
    s = Format.DOUBLE_SIDED.scoring
    g = s.games_per_round
    sweep, swept, split = s.win * g, s.loss * g, (s.win + s.loss) * g // 2
    return [f"{sweep}-{swept}", f"{split}-{split}", f"{swept}-{sweep}"]



def check_scores(fmt: Format, is_bye: bool, key: str | None, seats, drawn_games: int = 0) -> None:
    """Raise ResultError unless a stored match's numbers follow from its result: what `outcome` gives for a
    reported match, the bye's points for a bye, no points while unreported. A hand-edited file (a backup) then
    cannot give a seat points that no result gives.

    `seats` are (position, side, points, games_won) rows; single-sided Corp comes first by side, as in `outcome`.
    """
    fmt = Format(fmt)
    s = fmt.scoring
    seats = sorted(seats, key=lambda seat: seat[0])
    if fmt is Format.SINGLE_SIDED and len(seats) == 2 and seats[1][1] == "corp":
        seats.reverse()
    drawn = 0
    if is_bye:
        if key not in (None, BYE):
            raise ResultError(f"a bye's result is {BYE!r}, not {key[:20]!r}")
        expected = [(None, 0)] if key is None else [(s.bye, s.bye_game_wins)]
    elif key is None:
        expected = [(None, 0)] * len(seats)
    elif key == BYE:
        raise ResultError("a table of two is not a bye")
    else:
        result = outcome(fmt, key)
        expected, drawn = list(zip(result.points, result.games)), result.drawn_games
    got = [(points, games) for _position, _side, points, games in seats]
    if got != expected:
        def show(rows):
            return " and ".join(f"{'no' if p is None else p} points ({g} games won)" for p, g in rows)
        raise ResultError(f"{'a bye' if key == BYE else key or 'no result yet'} gives {show(expected)}, "
                          f"not {show(got)}")
    if drawn_games != drawn:
        raise ResultError(f"{key or 'no result yet'} has {drawn} drawn games, not {drawn_games}")

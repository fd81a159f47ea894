"""Result entry: the buttons a TO taps per format, turned into points and games.

Pure code (no Flask, no SQL). Every number comes from the format's Scoring in app/core/pairing/formats.py;
this module only decides which of those numbers each seat gets.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from .pairing.formats import Format

BYE = "bye"
GAME_SEP = "/"  # double-sided: "3-0/0-3" is game 1 (seat 1 Corp), then game 2 (seat 1 Runner)
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
    if fmt.sided_tables:
        return [("corp", "Corp win"), ("runner", "Runner win"), ("tie", "Tie"), ("id", "Intentional draw")]
    if fmt.both_sides:
        return _double_buttons()
    return [("2-0", "2-0"), ("2-1", "2-1"), ("1-2", "1-2"), ("0-2", "0-2"), ("1-1", "1-1 draw")]


@lru_cache(maxsize=1024)
def outcome(fmt: Format, key: str) -> Outcome:
    """The Outcome of a button (or a stored Match.result key). Kept per (format, key): a big restore checks
    every table's result, and an Outcome never changes (frozen)."""
    fmt = Format(fmt)
    s = fmt.scoring
    if fmt.sided_tables:
        table = {
            "corp": Outcome("corp", (s.win, s.loss)),
            "runner": Outcome("runner", (s.loss, s.win)),
            "tie": Outcome("tie", (s.tie, s.tie)),
            "id": Outcome("id", (s.tie, s.tie), intentional_draw=True),
        }
        if key not in table:
            raise ResultError(f"Unknown result {key[:20]!r}.")
        return table[key]
    if fmt.both_sides:
        if GAME_SEP in key:
            return double_games(*_split_games(key))
        numbers = _parse_numbers(key)
        if len(numbers) != 2:
            raise ResultError("A double-sided result is two numbers, like 6-0.")
        return double_sided(*numbers)
    numbers = _parse_numbers(key)
    if len(numbers) not in (2, 3):
        raise ResultError("A plain swiss result is games won-lost(-drawn), like 2-1.")
    return plain(*numbers)


def double_sided(first: int, second: int) -> Outcome:
    """Custom double-sided totals (4-1, 2-2 ...). A total can hide which side won (3-3: each player won as Corp, or
    each as Runner): then the Corps are taken to have won, the documented default for results stored before SASS
    kept each game (migration e7a9c1d3f5b2) and for files that give only totals."""
    pairs = _games_by_total().get((first, second))
    if pairs is None:
        allowed = ", ".join(f"{a}-{b}" for a, b in sorted(_games_by_total(), reverse=True))
        raise ResultError(f"{first}-{second} is not possible in two games; possible results: {allowed}.")
    return double_games(*pairs[0])


def double_games(game1: tuple[int, int], game2: tuple[int, int]) -> Outcome:
    """A double-sided round as its two games, each (seat 1's points, seat 2's points). Game 1: seat 1 plays Corp;
    game 2: seat 1 plays Runner. The key keeps both games ("3-0/0-3"), so each player's Corp and Runner score
    (NRTM corpScore / runnerScore) can be read back from it; the seats' points are the totals."""
    allowed = _per_game()
    for n, game in enumerate((game1, game2), 1):
        if tuple(game) not in allowed:
            raise ResultError(f"Game {n} ended {game[0]}-{game[1]}; a game is a win ({allowed[0][0]}-{allowed[0][1]}), "
                              f"a tie ({allowed[1][0]}-{allowed[1][1]}) or a loss.")
    key = f"{game1[0]}-{game1[1]}{GAME_SEP}{game2[0]}-{game2[1]}"
    return Outcome(key, (game1[0] + game2[0], game1[1] + game2[1]))


def double_from_seat1(as_corp: int, as_runner: int) -> Outcome:
    """Seat 1's points as Corp (game 1) and as Runner (game 2): the TO's custom entry, one choice per game."""
    other = {a: b for a, b in _per_game()}
    if as_corp not in other or as_runner not in other:
        raise ResultError("Each game is a win, a tie or a loss.")
    return double_games((as_corp, other[as_corp]), (as_runner, other[as_runner]))


def double_from_side_scores(first_corp: int, first_runner: int, second_corp: int, second_runner: int) -> Outcome:
    """The Outcome from both players' Corp and Runner scores (an NRTM file's corpScore / runnerScore)."""
    return double_games((first_corp, second_runner), (first_runner, second_corp))


@lru_cache(maxsize=64)  # an export asks once per seat; there are only nine pairs of games
def side_scores(key: str) -> tuple[tuple, tuple]:
    """((seat 1 as Corp, seat 1 as Runner), (seat 2 as Corp, seat 2 as Runner)) of a double-sided result; all
    None when the result is a total that does not say which side won each game (games_known)."""
    if not games_known(key):
        return (None, None), (None, None)
    (a1, b1), (a2, b2) = _split_games(outcome(Format.DOUBLE_SIDED, key).key)
    return (a1, a2), (b2, b1)


def games_known(key: str) -> bool:
    """Whether a double-sided result says how each game went: a key of both games does ("3-0/0-3"), and so
    does a total only one pair of games gives (6-0, 2-2). A total an imported file gave without side scores
    that two pairs of games give (3-3: the Corps won, or the Runners; 4-1, 1-4: the win first, or the tie) is
    kept as that total, and nothing guesses its games (docs/domain.md 1)."""
    if GAME_SEP in key:
        return True
    return len(_games_by_total().get(_parse_numbers(key), ())) == 1


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
    fmt = Format(fmt)
    text = dict(buttons(fmt)).get(key)
    if text is not None:
        return text
    if fmt.both_sides and GAME_SEP in key:  # both games; a bare total (result history) reads as it is
        try:
            return _double_label(outcome(fmt, key))
        except ResultError:
            pass
    return key


def _parse_numbers(key: str) -> tuple[int, ...]:
    parts = key.split("-")
    if not all(p.isdigit() and len(p) <= 2 for p in parts):
        raise ResultError(f"Unknown result {key[:20]!r}.")
    return tuple(int(p) for p in parts)


def _per_game() -> list[tuple[int, int]]:
    """A double-sided game from seat 1's side: won, tied, lost."""
    s = Format.DOUBLE_SIDED.scoring
    return [(s.win, s.loss), (s.tie, s.tie), (s.loss, s.win)]


@lru_cache(maxsize=1)
def _games_by_total() -> dict[tuple[int, ...], tuple]:
    """Each possible round total -> every pair of games that gives it, the default first: the one in which the Corp
    players scored more (3-3: the Corps won; 4-1: a Corp win, then a tie)."""
    by_total: dict = {}
    for g1, g2 in product(_per_game(), repeat=2):
        by_total.setdefault((g1[0] + g2[0], g1[1] + g2[1]), []).append((g1, g2))
    corp_points = lambda games: games[0][0] + games[1][1]  # noqa: E731  seat 1 is Corp in game 1, seat 2 in game 2
    return {total: tuple(sorted(pairs, key=corp_points, reverse=True)) for total, pairs in by_total.items()}


def _split_games(key: str) -> tuple[tuple[int, int], tuple[int, int]]:
    parts = key.split(GAME_SEP)
    games = [_parse_numbers(p) for p in parts]
    if len(games) != 2 or any(len(g) != 2 for g in games):
        raise ResultError("A double-sided result per game is like 3-0/0-3 (game 1, then game 2).")
    (a1, b1), (a2, b2) = games
    return (a1, b1), (a2, b2)


def _double_buttons() -> list[tuple[str, str]]:
    """One tap for the common rounds: a sweep each way, and the two splits (each won as Corp, each as Runner)."""
    (win, loss), _tie, (lost, won) = _per_game()
    sweep, split = f"{2 * win}-{2 * loss}", f"{win + loss}-{win + loss}"
    return [(double_games((win, loss), (win, loss)).key, sweep),
            (double_games((win, loss), (lost, won)).key, f"{split} Corps won"),
            (double_games((lost, won), (win, loss)).key, f"{split} Runners won"),
            (double_games((lost, won), (lost, won)).key, f"{2 * loss}-{2 * win}")]


def _double_label(result: Outcome) -> str:
    """A custom double-sided result: the total, then each game from the Corp's side."""
    def game(points, corp_first: bool) -> str:
        corp, runner = points if corp_first else points[::-1]
        return "tie" if corp == runner else "Corp win" if corp > runner else "Runner win"

    total = f"{result.points[0]}-{result.points[1]}"
    if len(_games_by_total()[result.points]) == 1:
        return total  # 2-2: the total says it all
    g1, g2 = _split_games(result.key)
    return f"{total} ({game(g1, True)}, then {game(g2, False)})"


def kept_points_limit(fmt: Format) -> int:
    """The most points an imported file's score may give a seat in a round: twice a won round's (a typo, an
    old scoring), never a thousand."""
    return 2 * Format(fmt).scoring.round_points


def _kept_from_file(fmt: Format, key: str | None, got: list, expected: list) -> bool:
    """Points an NRTM import kept as the file gave them: a reported Netrunner game (not a bye) whose points, all
    given and within kept_points_limit, order the seats as the result does."""
    if not fmt.netrunner or key is None or len(got) != 2 or len(expected) != 2:
        return False
    if any(points is None or points > kept_points_limit(fmt) or games != e_games
           for (points, games), (_, e_games) in zip(got, expected, strict=True)):
        return False
    def order(rows):
        return (rows[0][0] > rows[1][0]) - (rows[0][0] < rows[1][0])
    return order(got) == order(expected)


def check_scores(fmt: Format, is_bye: bool, key: str | None, seats, drawn_games: int = 0) -> None:
    """Raise ResultError unless a stored match's numbers follow from its result: what `outcome` gives for a
    reported match, the bye's points for a bye, no points while unreported. A hand-edited file (a backup) then
    cannot give a seat points that no result gives. One exception, in the Netrunner formats: points kept as an
    imported NRTM file gave them (docs/domain.md 9), a game's as long as they name the result's winner (or its
    tie), a bye's whatever they are, within kept_points_limit.

    `seats` are (position, side, points, games_won) rows; single-sided Corp comes first by side, as in `outcome`.
    """
    fmt = Format(fmt)
    s = fmt.scoring
    seats = sorted(seats, key=lambda seat: seat[0])
    if fmt.sided_tables and len(seats) == 2 and seats[1][1] == "corp":
        seats.reverse()
    drawn = 0
    if is_bye:
        if key not in (None, BYE):
            raise ResultError(f"a bye's result is {BYE!r}, not {key[:20]!r}")
        expected = [(None, 0)] if key is None else [(s.bye, s.bye_game_wins)]
        if key == BYE and fmt.netrunner and len(seats) == 1 and seats[0][3] == s.bye_game_wins \
                and seats[0][2] is not None and 0 <= seats[0][2] <= kept_points_limit(fmt):
            return  # a bye's points kept as an imported file gave them (docs/domain.md 9)
    elif key is None:
        expected = [(None, 0)] * len(seats)
    elif key == BYE:
        raise ResultError("a table of two is not a bye")
    else:
        result = outcome(fmt, key)
        expected, drawn = list(zip(result.points, result.games, strict=True)), result.drawn_games
    got = [(points, games) for _position, _side, points, games in seats]
    if got != expected and not _kept_from_file(fmt, key, got, expected):
        def show(rows):
            return " and ".join(f"{'no' if p is None else p} points ({g} games won)" for p, g in rows)
        raise ResultError(f"{'a bye' if key == BYE else key or 'no result yet'} gives {show(expected)}, "
                          f"not {show(got)}")
    if drawn_games != drawn:
        raise ResultError(f"{key or 'no result yet'} has {drawn} drawn games, not {drawn_games}")

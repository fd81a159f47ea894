"""An NRTM file's swiss rounds read (app/services/event_files/nrtm_import.py reads the rest, nrtm_cut.py the cut): each
pairing's scores and the penalties in them, its table numbered, its result found or the nearest one said in a warning.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from ...core import results as result_rules
from ...core.pairing import Format
from . import jsonfile as j
from .event_writer import MatchRow, SeatRow
from .jsonfile import FileError


MAX_POINTS = 100  # a side's score in a file at most; a player's round at most result_rules.kept_points_limit


def place(n: int, k: int, p: dict) -> str:
    """Where a pairing is, for messages: its table, else its place in the round."""
    table = p.get("table")
    return f"round {n} table {j.brief(table)}" if table is not None else f"round {n} pairing {k}"


def _points(raw: dict, where: str, fmt: Format):
    """A player's score in a swiss game: combinedScore, else the side scores (Aesop's Tables writes only those).
    More than a result gives is kept (with a warning, later), up to kept_points_limit; less than 0 is a penalty
    (_score)."""
    limit = result_rules.kept_points_limit(fmt)
    points = raw.get("combinedScore")
    if points is None and (raw.get("corpScore") is not None or raw.get("runnerScore") is not None):
        points = (j.integer(raw.get("corpScore") or 0, f"{where} corpScore", -limit, MAX_POINTS)
                  + j.integer(raw.get("runnerScore") or 0, f"{where} runnerScore", -limit, MAX_POINTS))
    return j.integer(points, f"{where} combinedScore", -limit, limit, null=True)


@dataclass
class _Side:
    """One player of a swiss pairing as the file gives it: `points` the result's share (never below 0), `penalty`
    the points the file took away at the table (a negative score), `games` double-sided (corpScore, runnerScore)
    when the file gives both."""

    player: object
    role: Optional[str]
    points: Optional[int]
    penalty: int
    games: Optional[tuple]
    score: Optional[int]  # the file's own number, penalty included


def _score(points: Optional[int], games: Optional[tuple]) -> tuple[Optional[int], int, Optional[tuple]]:
    """(points, penalty, games) of a file's score: a negative score (Cobra's way of a penalty, already in the
    player's matchPoints) is a penalty, kept apart from the result's points; so is a negative side score of a
    double-sided game, that game then scoring 0."""
    if games is not None and min(games) < 0:
        penalty = -sum(g for g in games if g < 0)
        return (None if points is None else points + penalty), penalty, tuple(max(g, 0) for g in games)
    if points is not None and points < 0:
        return 0, -points, games
    return points, 0, games


def read_round(n: int, pairings: list, ids: set, fmt: Format, warnings: list,
                      names: Optional[dict] = None, totals: Optional[list] = None) -> list[MatchRow]:
    """One swiss round's tables. Table numbers the file leaves null or gives twice (a bye sharing a game's
    table) are numbered after the round's last table, with a warning: the file's pairings stand."""
    names = names or {}
    read, seen = [], set()
    for k, p in enumerate(pairings, 1):
        where = place(n, k, p)
        table = j.integer(p["table"], f"round {n} pairing {k} table", 1, 100000, null=True)
        sides, bye_seat = [], 1
        for key in ("player1", "player2"):
            raw = p.get(key)
            raw = {} if raw is None else j.obj(raw, f"{where} {key}")
            pid = raw.get("id")
            if pid is None or (pid == 0 and 0 not in ids):  # the NRTM app's bye: player 0
                continue
            pid = j.player_id(pid, f"{where} {key} id")
            if pid not in ids:
                raise FileError(f"{where} names player {pid}, who is not in the players list")
            if pid in seen:
                raise FileError(f"player {pid} plays twice in round {n}")
            seen.add(pid)
            games = None  # double-sided: (corpScore, runnerScore) when the file gives both
            if fmt.both_sides and raw.get("corpScore") is not None and raw.get("runnerScore") is not None:
                limit = result_rules.kept_points_limit(fmt)
                games = (j.integer(raw["corpScore"], f"{where} {key} corpScore", -limit, MAX_POINTS),
                         j.integer(raw["runnerScore"], f"{where} {key} runnerScore", -limit, MAX_POINTS))
            score = _points(raw, f"{where} {key}", fmt)
            points, penalty, games = _score(score, games)
            role = j.choice(raw.get("role"), f"{where} {key} role", ("corp", "runner"), null=True)
            sides.append(_Side(pid, role, points, penalty, games, score))
            bye_seat = 2 if key == "player2" else 1
        if not sides:
            raise FileError(f"{where} has no players")
        intentional = j.boolean(p.get("intentionalDraw", False), f"{where} intentionalDraw")
        two_for_one = j.boolean(p.get("twoForOne") or False, f"{where} twoForOne")
        read.append((table, sides, intentional, two_for_one, bye_seat))
    tables = _number_tables(n, [(table, len(sides) == 1, [names.get(s.player, s.player) for s in sides])
                                for table, sides, *_ in read], warnings)
    matches = []
    for (_, sides, intentional, two_for_one, bye_seat), table in zip(read, tables, strict=True):
        where = f"round {n} table {table}"
        for side in sides:
            if side.penalty:
                warnings.append(f"{_title(where)}: {names.get(side.player, side.player)}'s score is "
                                f"{side.score}{'' if side.games is None else ' (corpScore and runnerScore)'}, "
                                f"a penalty: SASS keeps it as a penalty of {side.penalty} "
                                f"point{'s' * (side.penalty != 1)}, which their points count.")
        match = _swiss_match(where, table, sides, intentional, fmt, warnings, bye_seat, names, totals)
        match.two_for_one = two_for_one
        matches.append(match)
    return matches


def _number_tables(n: int, pairings: list, warnings: list) -> list[int]:
    """Each pairing's table: the file's, unless it is null or already taken in the round (a game keeps a number
    a bye shares with it; of two games, the first keeps it); those are numbered after the round's last table,
    in the file's order, each with a warning."""
    given = [t for t, _, _ in pairings if t is not None]
    taken = {t for t, bye, _ in pairings if t is not None and not bye}
    free = max(given, default=0) + 1
    out, kept = [], set()
    for table, bye, players in pairings:
        clash = table is not None and (table in kept or (bye and table in taken))
        if table is not None and not clash:
            kept.add(table)
            out.append(table)
            continue
        who = f"{players[0]}'s bye" if bye else " v ".join(map(str, players))
        if table is None:
            warnings.append(f"Round {n}: the pairing {who} has no table number (null); SASS numbers it table "
                            f"{free}, after the round's last table.")
        else:
            warnings.append(f"Round {n}: {who} shares table {table} with {'a game' if bye else 'another game'}; "
                            f"SASS numbers it table {free}, after the round's last table.")
        out.append(free)
        free += 1
    return out


def _swiss_match(where: str, table: int, sides: list, intentional: bool, fmt: Format,
                 warnings: list, bye_seat: int = 1, names: Optional[dict] = None,
                 totals: Optional[list] = None) -> MatchRow:
    """One swiss table. A bye keeps the seat the file gave its player (Cobra sometimes writes player2), so an
    export writes it back there, and the points the file gave it."""
    names = names or {}
    if len(sides) == 1:
        side = sides[0]
        points = side.points
        if points is not None and points != fmt.scoring.bye:
            warnings.append(f"{_title(where)}: {names.get(side.player, side.player)}'s bye is worth {side.score} "
                            f"point{'s' * (side.score != 1)} in the file (a bye is {fmt.scoring.bye}); the file's "
                            "points stand.")
        result = None if points is None else result_rules.BYE
        return MatchRow(table, True, result, False, [SeatRow(side.player, bye_seat, None, points,
                                                             penalty=side.penalty)])
    one, two = sides
    a, b, pa, pb = one.player, two.player, one.points, two.points
    if (pa is None) != (pb is None):
        raise FileError(f"{where} has a score for only one player")
    side_a = side_b = None
    if fmt.sided_tables:
        if one.role is None and two.role is None:
            raise FileError(f"{where}: neither player has a role (corp or runner)")
        side_a = one.role or ("runner" if two.role == "corp" else "corp")
        side_b = two.role or ("runner" if side_a == "corp" else "corp")
        if side_a == side_b:
            raise FileError(f"{where}: both players are {side_a}")
    games_a, games_b = one.games, two.games
    result = None
    if games_a and games_b and not any(games_a + games_b) and (pa or pb):
        games_a = games_b = None  # old Cobra files: corpScore and runnerScore 0 beside the real combinedScore
    if pa is not None and games_a and games_b:
        result = _double_games_key(where, games_a, games_b, pa, pb, warnings)
    if pa is not None and result is None and fmt.both_sides and _total_only(pa, pb):
        result = f"{pa}-{pb}"  # the total as the file says it; which side won each game is not guessed
        if totals is not None:
            totals.append(where)
    if pa is not None and result is None:
        result = _result_key(where, fmt, side_a, pa, pb, intentional, warnings)
    seats = [SeatRow(a, 1, side_a, pa, penalty=one.penalty), SeatRow(b, 2, side_b, pb, penalty=two.penalty)]
    return MatchRow(table, False, result, intentional, seats)


def _total_only(pa: int, pb: int) -> bool:
    """A double-sided total more than one pair of games gives (3-3, 4-1, 1-4), read without side scores that say
    how each game went."""
    try:
        result_rules.double_sided(pa, pb)
        return not result_rules.games_known(f"{pa}-{pb}")
    except result_rules.ResultError:
        return False


def _title(where: str) -> str:
    return where[:1].upper() + where[1:]


def _result_key(where: str, fmt: Format, side_a: Optional[str], pa: int, pb: int, intentional: bool,
                warnings: list) -> str:
    """The result a scored game stores. A score no result gives (a typo of 5, the FFG era's 2-point timed win)
    keeps the file's points and stores the result with the same winner: the file's totals stand."""
    try:
        return _result_for(fmt, side_a, pa, pb, intentional)
    except result_rules.ResultError:
        key = _nearest(fmt, side_a, pa, pb, intentional)
        warnings.append(f"{_title(where)}: {pa}-{pb} is not a result of {fmt.label.lower()}; the file's points stand "
                        f"(recorded as {result_rules.label(fmt, key)}).")
        return key


def _nearest(fmt: Format, side_a: Optional[str], pa: int, pb: int, intentional: bool) -> str:
    """The result with the file's winner (or its tie) closest to the file's points."""
    if fmt.sided_tables:
        corp, runner = (pa, pb) if side_a == "corp" else (pb, pa)
        return "corp" if corp > runner else "runner" if runner > corp else ("id" if intentional else "tie")
    sign = (pa > pb) - (pa < pb)
    options = [result_rules.outcome(fmt, key) for key, _ in result_rules.buttons(fmt)]
    same = [o for o in options if (o.points[0] > o.points[1]) - (o.points[0] < o.points[1]) == sign]
    return min(same, key=lambda o: (abs(o.points[0] - pa) + abs(o.points[1] - pb), o.key)).key


def _double_games_key(where: str, games_a: tuple, games_b: tuple, pa: int, pb: int,
                      warnings: list) -> Optional[str]:
    """A double-sided round from both players' corpScore and runnerScore: which side won each game is kept
    (a 3-3 is not just 3-3). None, with a warning, when they are not two games or disagree with
    combinedScore: then combinedScore stands."""
    try:
        result = result_rules.double_from_side_scores(*games_a, *games_b)
    except result_rules.ResultError:
        warnings.append(f"{_title(where)}: corpScore and runnerScore {games_a[0]}/{games_a[1]} and "
                        f"{games_b[0]}/{games_b[1]} are not two games SASS scores (3 a win, 1 a tie); "
                        f"combinedScore {pa}-{pb} stands.")
        return None
    if result.points != (pa, pb):
        warnings.append(f"{_title(where)}: corpScore and runnerScore add up to {result.points[0]}-"
                        f"{result.points[1]}, but combinedScore says {pa}-{pb}; combinedScore stands.")
        return None
    return result.key


@lru_cache(maxsize=256)
def _result_for(fmt: Format, side_a: Optional[str], pa: int, pb: int, intentional: bool) -> str:
    """The Match.result key of a scored game (cached: a big file repeats a handful of scores thousands of times)."""
    if fmt.sided_tables:
        corp_points, runner_points = (pa, pb) if side_a == "corp" else (pb, pa)
        if intentional:
            key = "id"
        elif corp_points == runner_points:
            key = "tie"
        else:
            key = "corp" if corp_points > runner_points else "runner"
        if result_rules.outcome(fmt, key).points != (corp_points, runner_points):
            raise result_rules.ResultError(f"{pa}-{pb} is not a single-sided result")
        return key
    return result_rules.outcome(fmt, f"{pa}-{pb}").key

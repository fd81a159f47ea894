"""NRTM JSON import: a new event from a file Cobra, Aesop's Tables, the NRTM app or SASS wrote (the format:
docs/domain.md 9; the quirks read: docs/api.md).

Parse, check everything, then write in bulk: a file is imported whole or not at all. Where a file contradicts
itself but still says what happened (a score no result gives, a ranking or matchPoints its own games do not
give), or SASS must adjust it (a penalty kept apart, a table number given twice or not at all), it is read as it
says and the reader lists a warning, so the TO can decide before anything is written.
"""
from __future__ import annotations

import json
from datetime import date
from functools import lru_cache
from dataclasses import dataclass
from typing import Optional


from ...core import results as result_rules
from ...core.identities import canonical, file_faction
from ...models import MAX_INT, Player, Tournament, User, max_length
from ...core.pairing import Entrant, Format, Game, Side
from ...core.standings import compute_standings, counted_games
from . import event_writer
from . import jsonfile as j
from .event_writer import EventPlan, MatchRow, NameClash, PlayerRow, RoundRow, SeatRow
from . import nrtm_cut
from .jsonfile import FileError

MAX_POINTS = 100  # a side's score in a file at most; a player's round at most result_rules.kept_points_limit


def check(data: bytes) -> EventPlan:
    """The file read and checked, nothing written: FileError for a file SASS cannot import; the plan's
    `warnings` list what it would keep although the file contradicts itself."""
    return read(j.parse(data))


def import_file(data: bytes, owner: User) -> Tournament:
    """A new tournament owned by `owner` with the file's players, rounds, results and cut: all or nothing,
    warnings or not (the TO has seen them: `check`). Parse, check everything (read), then write in bulk
    (event_writer)."""
    return store(check(data), owner)


def store(plan: EventPlan, owner: User) -> Tournament:
    """A checked file (`check`) written as a new tournament of `owner`, all or nothing."""
    return event_writer.write(plan, owner, "NRTM file")


def read(doc) -> EventPlan:
    """The parsed file checked into an EventPlan (players named by their id in the file); FileError names the
    first problem. Nothing here touches the database.

    Cobra writes each game's `table` and the NRTM fields; Aesop's Tables writes `tableNumber`, a side's score
    as corpScore or runnerScore with no combinedScore, and cut games with scores rather than `winner` (older
    versions: corpPlayer, runnerPlayer and winner_id); the NRTM app writes an empty date, a bye's missing
    opponent as player 0 and factions by name. All of them come through. What real files carry and SASS must
    adjust (a penalty's negative score, a null or shared table number) and what contradicts the games (a bye's
    odd points, matchPoints, ranks, a total without its games) becomes a warning (docs/domain.md 9)."""
    doc = j.obj(doc, "the file")
    for key in ("name", "players", "rounds"):
        if key not in doc:
            raise FileError(f"the file has no {key!r}: is it an NRTM JSON export?")
    warnings: list[str] = []
    name = j.text(doc["name"], "name", max_length(Tournament.name), empty=False)
    if doc.get("date") in (None, ""):
        when = date.today()
        warnings.append(f"The file gives no date: the event is dated today ({when.isoformat()}); change it in "
                        "the event's settings.")
    else:
        when = j.iso_date(doc["date"], "date")

    raw_players = j.array(doc["players"], "players")
    players, ids, names = [], set(), NameClash()
    for i, raw in enumerate(raw_players, 1):
        raw = j.obj(raw, f"player {i}")
        pid = j.player_id(raw.get("id"), f"player {i} id")
        if pid in ids:
            raise FileError(f"player id {pid} appears twice")
        pname = j.text(raw.get("name"), f"player {i} name", max_length(Player.name), empty=False)
        names.check(pname)
        ids.add(pid)
        corp_id = _cut(raw.get("corpIdentity"), f"player {pname!r} corpIdentity", Player.corp_identity)
        runner_id = _cut(raw.get("runnerIdentity"), f"player {pname!r} runnerIdentity", Player.runner_identity)
        pronouns = _cut(raw.get("pronouns"), f"player {pname!r} pronouns", Player.pronouns)
        corp_id, runner_id = canonical(corp_id), canonical(runner_id)
        players.append(PlayerRow(pid, pname, corp_id, runner_id, pronouns=pronouns or "",
                                 corp_faction=file_faction(corp_id, "corp", raw.get("corpFaction")),
                                 runner_faction=file_faction(runner_id, "runner", raw.get("runnerFaction"))))
    if all(isinstance(p.key, int) for p in players):
        players.sort(key=lambda p: p.key)

    swiss, cut = [], []
    for n, raw_round in enumerate(j.array(doc["rounds"], "rounds"), 1):
        pairings = [_pairing(j.obj(p, f"round {n} pairing {k}"), n, k)
                    for k, p in enumerate(j.array(raw_round, f"round {n}"), 1)]
        if not pairings:
            continue
        elimination = {j.boolean(p.get("eliminationGame", False), f"round {n} eliminationGame") for p in pairings}
        if len(elimination) > 1:
            raise FileError(f"round {n} mixes swiss and elimination games")
        if True in elimination:
            cut.append((n, pairings))
        elif cut:
            raise FileError(f"round {n} is a swiss round after the cut")
        else:
            swiss.append((n, pairings))
    if not players and (swiss or cut):
        raise FileError("the file lists no players but has games")

    roles = any(isinstance(p.get(k), dict) and p[k].get("role") in ("corp", "runner")
                for _, pairings in swiss for p in pairings for k in ("player1", "player2"))
    fmt = Format.DOUBLE_SIDED if swiss and not roles else Format.SINGLE_SIDED  # no swiss: today's default
    planned = doc.get("preliminaryRounds")
    planned = j.integer(planned, "preliminaryRounds", 0, 1000) if planned is not None else None
    plan = EventPlan(tournament={"name": name, "date": when, "format": fmt.value,
                                 "planned_rounds": planned or len(swiss) or None, **_organiser(doc)},
                     players=players)
    plan.warnings = warnings
    names, totals = {p.key: p.name for p in players}, []
    plan.rounds = [RoundRow(number, True, _read_swiss_round(n, pairings, ids, fmt, warnings, names, totals))
                   for number, (n, pairings) in enumerate(swiss, 1)]
    if totals:
        warnings.append(f"{len(totals)} double-sided game{'s give' if len(totals) > 1 else ' gives'} only a total "
                        "that does not say which side won each game (3-3, 4-1), without side scores that do: "
                        "SASS keeps the total and does not guess the games (the statistics leave "
                        f"{'them' if len(totals) > 1 else 'it'} out): {_listed(totals)}.")
    nrtm_cut.read_cut(plan, fmt, doc, cut, ids)
    _check_standings(plan, fmt, raw_players)
    return plan


def _listed(items: list, most: int = 12) -> str:
    shown = ", ".join(map(str, items[:most]))
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")


def _check_standings(plan: EventPlan, fmt: Format, raw_players: list) -> None:
    """The file's own standings against its games: each player's matchPoints against the points their games
    give, and the players' ranks against the order those points and the tiebreakers give (docs/domain.md 7).
    Where they disagree the games stand, and the TO is told who moves. Ranks that are 1, 2, 3 ... once each are
    kept (PlayerRow.file_rank) to order the file's exact ties as the file does."""
    given = {}
    ranks = {}
    for raw in raw_players:  # checked by read: objects with ids, in the file's order
        pid = j.player_id(raw["id"], "player id")
        points = raw.get("matchPoints")
        if isinstance(points, (int, float)) and not isinstance(points, bool):
            given[pid] = points
        rank = raw.get("rank")
        if type(rank) is int:
            ranks[pid] = rank
    if sorted(ranks.values()) == list(range(1, len(plan.players) + 1)):
        for row in plan.players:
            row.file_rank = ranks[row.key]
    else:
        ranks = {}
    rows = compute_standings(fmt, [Entrant(p.key, p.name) for p in plan.players], _games(plan),
                             tie_order=ranks or None)
    moved = [f"{r.name} ({_points_text(given[r.player])} in the file, {_points_text(r.points)} from the games)"
             for r in rows if r.player in given and given[r.player] != r.points]
    if moved:
        whose = "1 player's" if len(moved) == 1 else f"{len(moved)} players'"
        plan.warnings.append(f"{whose} matchPoints differ from the points their games give; SASS counts the games: "
                             f"{_listed(moved)}.")
    if ranks:
        order = [f"{r.name} ({_ordinal(ranks[r.player])} in the file, {_ordinal(r.rank)} here)"
                 for r in rows if ranks[r.player] != r.rank]
        if order:
            plan.warnings.append(f"The file's swiss ranks differ from the order its games give (points, then the "
                                 f"tiebreakers) for {len(order)} player{'s' * (len(order) != 1)}; SASS ranks by the "
                                 f"games: {_listed(order)}.")


def _games(plan: EventPlan) -> list[Game]:
    """The plan's swiss games as the standings count them (a seat's penalty off its points; a bye in a round
    still being played counted once the round is complete, as in Cobra: core/standings.counted_games)."""
    games, open_rounds = [], set()
    for r in plan.rounds:
        for m in r.matches:
            if m.result is None:
                open_rounds.update([r.number] if not m.is_bye else [])
                continue
            one, *two = m.seats
            if m.is_bye or not two:
                games.append(Game(r.number, one.player, None, one.points - one.penalty))
            else:
                games.append(Game(r.number, one.player, two[0].player, one.points - one.penalty,
                                  two[0].points - two[0].penalty, Side(one.side) if one.side else None,
                                  intentional_draw=m.intentional_draw))
    return counted_games(games, open_rounds)


def _points_text(points) -> str:
    return f"{points:g} point{'s' * (points != 1)}"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _organiser(doc: dict) -> dict:
    """The file's tournamentOrganiser (Cobra: nrdbId, nrdbUsername; SASS: name too), kept to write it back."""
    raw = doc.get("tournamentOrganiser")
    if raw is None:
        return {}
    raw = j.obj(raw, "tournamentOrganiser")
    nrdb_id = raw.get("nrdbId")
    return {"organiser_name": _cut(raw.get("name"), "tournamentOrganiser name", Tournament.organiser_name) or "",
            "organiser_nrdb_username": _cut(raw.get("nrdbUsername"), "tournamentOrganiser nrdbUsername",
                                            Tournament.organiser_nrdb_username) or "",
            "organiser_nrdb_id": j.integer(nrdb_id, "tournamentOrganiser nrdbId", 0, MAX_INT, null=True)}


def _pairing(p: dict, n: int, k: int) -> dict:
    """A pairing in the NRTM shape Cobra writes, whichever tool wrote it."""
    p = dict(p)
    if "table" not in p and "tableNumber" in p:
        p["table"] = p["tableNumber"]
    p.setdefault("table", k)  # no table at all (the NRTM app): the pairing's place; a null one is numbered later
    if "player1" in p or "corpPlayer" not in p:
        return p
    # Aesop's Tables before 2024: {corpPlayer, runnerPlayer ("(BYE)"), corpScore "3", runnerScore "0"} and, in
    # the cut, {corpPlayer, runnerPlayer, winner_id, loser_id}
    where = _where(n, k, p)
    runner = p.get("runnerPlayer")
    runner = None if runner == "(BYE)" else runner
    if "winner_id" in p:
        winner = p.get("winner_id")
        if winner is not None and winner not in (p.get("corpPlayer"), runner):
            raise FileError(f"{where}: the winner, player {json.dumps(winner)[:40]}, does not play in it")
        p["eliminationGame"] = True
        p["player1"] = {"id": p.get("corpPlayer"), "role": "corp",
                        "winner": None if winner is None else winner == p.get("corpPlayer")}
        p["player2"] = {"id": runner, "role": "runner", "winner": None if winner is None else winner == runner}
        return p
    scores = [_old_score(p.get(key), f"{where} {key}") for key in ("corpScore", "runnerScore")]
    p["player1"] = {"id": p.get("corpPlayer"), "role": "corp", "corpScore": scores[0]}
    p["player2"] = {"id": runner, "role": "runner", "runnerScore": None if runner is None else scores[1]}
    p.setdefault("intentionalDraw", False)
    return p


def _old_score(value, where: str):
    if isinstance(value, str):
        value = value.strip()
        if not value:
            return None
        if not value.isdigit():
            raise FileError(f"{where} should be a whole number, not {json.dumps(value)[:40]}")
        return int(value)
    return value


def _cut(value, where: str, column) -> Optional[str]:
    """A file's text cut to the column it lands in (other tools' files may carry longer), then checked; None when
    absent."""
    length = max_length(column)
    return j.text(value[:length] if isinstance(value, str) else value, where, length, null=True)


def _where(n: int, k: int, p: dict) -> str:
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


def _read_swiss_round(n: int, pairings: list, ids: set, fmt: Format, warnings: list,
                      names: Optional[dict] = None, totals: Optional[list] = None) -> list[MatchRow]:
    """One swiss round's tables. Table numbers the file leaves null or gives twice (a bye sharing a game's
    table) are numbered after the round's last table, with a warning: the file's pairings stand."""
    names = names or {}
    read, seen = [], set()
    for k, p in enumerate(pairings, 1):
        where = _where(n, k, p)
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
            if fmt is Format.DOUBLE_SIDED and raw.get("corpScore") is not None and raw.get("runnerScore") is not None:
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
    for (_, sides, intentional, two_for_one, bye_seat), table in zip(read, tables):
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
    if fmt is Format.SINGLE_SIDED:
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
    if pa is not None and result is None and fmt is Format.DOUBLE_SIDED and _total_only(pa, pb):
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
    if fmt is Format.SINGLE_SIDED:
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
    if fmt is Format.SINGLE_SIDED:
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

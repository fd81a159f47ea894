"""NRTM JSON import: a new event from a file Cobra, Aesop's Tables, the NRTM app or SASS wrote (the format:
docs/domain.md 9; the quirks read: docs/api.md).

Parse, check everything, then write in bulk: a file is imported whole or not at all. Where a file contradicts
itself but still says what happened (a score no result gives, a ranking its own games do not give), it is read
as it says and the reader lists a warning, so the TO can decide before anything is written.
"""
from __future__ import annotations

import json
from datetime import date
from functools import lru_cache
from typing import Optional


from ..core import results as result_rules
from ..core.identities import canonical, file_faction
from ..models import Tournament, User
from ..core.pairing import Format
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
    versions: corpPlayer, runnerPlayer and winner_id); the NRTM app writes an empty date and a bye's missing
    opponent as player 0. All of them come through."""
    doc = j.obj(doc, "the file")
    for key in ("name", "players", "rounds"):
        if key not in doc:
            raise FileError(f"the file has no {key!r}: is it an NRTM JSON export?")
    warnings: list[str] = []
    name = j.text(doc["name"], "name", 120, empty=False)
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
        pname = j.text(raw.get("name"), f"player {i} name", 100, empty=False)
        names.check(pname)
        ids.add(pid)
        corp_id = j.text(_cut100(raw.get("corpIdentity")), f"player {pname!r} corpIdentity", 100, null=True)
        runner_id = j.text(_cut100(raw.get("runnerIdentity")), f"player {pname!r} runnerIdentity", 100, null=True)
        pronouns = j.text(_cut(raw.get("pronouns"), 40), f"player {pname!r} pronouns", 40, null=True)
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
    plan.rounds = [RoundRow(number, True, _read_swiss_round(n, pairings, ids, fmt, warnings))
                   for number, (n, pairings) in enumerate(swiss, 1)]
    nrtm_cut.read_cut(plan, fmt, doc, cut, ids)
    return plan


def _organiser(doc: dict) -> dict:
    """The file's tournamentOrganiser (Cobra: nrdbId, nrdbUsername; SASS: name too), kept to write it back."""
    raw = doc.get("tournamentOrganiser")
    if raw is None:
        return {}
    raw = j.obj(raw, "tournamentOrganiser")
    nrdb_id = raw.get("nrdbId")
    return {"organiser_name": j.text(_cut(raw.get("name"), 80), "tournamentOrganiser name", 80, null=True) or "",
            "organiser_nrdb_username": j.text(_cut(raw.get("nrdbUsername"), 40), "tournamentOrganiser nrdbUsername",
                                              40, null=True) or "",
            "organiser_nrdb_id": j.integer(nrdb_id, "tournamentOrganiser nrdbId", 0, 2**31 - 1, null=True)}


def _pairing(p: dict, n: int, k: int) -> dict:
    """A pairing in the NRTM shape Cobra writes, whichever tool wrote it."""
    p = dict(p)
    if "table" not in p and "tableNumber" in p:
        p["table"] = p["tableNumber"]
    p.setdefault("table", k)
    if "player1" in p or "corpPlayer" not in p:
        return p
    # Aesop's Tables before 2024: {corpPlayer, runnerPlayer ("(BYE)"), corpScore "3", runnerScore "0"} and, in
    # the cut, {corpPlayer, runnerPlayer, winner_id, loser_id}
    where = f"round {n} table {j.brief(p['table'])}"
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


def _cut100(value):
    return _cut(value, 100)


def _cut(value, length: int):
    return value[:length] if isinstance(value, str) else value


def _points(raw: dict, where: str, fmt: Format):
    """A player's points in a swiss game: combinedScore, else the side scores (Aesop's Tables writes only those).
    More than a result gives is kept (with a warning, later), up to kept_points_limit."""
    points = raw.get("combinedScore")
    if points is None and (raw.get("corpScore") is not None or raw.get("runnerScore") is not None):
        points = (j.integer(raw.get("corpScore") or 0, f"{where} corpScore", 0, MAX_POINTS)
                  + j.integer(raw.get("runnerScore") or 0, f"{where} runnerScore", 0, MAX_POINTS))
    return j.integer(points, f"{where} combinedScore", 0, result_rules.kept_points_limit(fmt), null=True)


def _read_swiss_round(n: int, pairings: list, ids: set, fmt: Format, warnings: list) -> list[MatchRow]:
    matches, seen, tables = [], set(), set()
    for k, p in enumerate(pairings, 1):
        where = f"round {n} table {j.brief(p['table'])}"
        table = j.integer(p["table"], f"round {n} pairing {k} table", 1, 100000)
        if table in tables:
            raise FileError(f"round {n} has two games at table {table}")
        tables.add(table)
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
                games = (j.integer(raw["corpScore"], f"{where} {key} corpScore", 0, MAX_POINTS),
                         j.integer(raw["runnerScore"], f"{where} {key} runnerScore", 0, MAX_POINTS))
            points = _points(raw, f"{where} {key}", fmt)
            role = j.choice(raw.get("role"), f"{where} {key} role", ("corp", "runner"), null=True)
            sides.append((pid, role, points, games))
            bye_seat = 2 if key == "player2" else 1
        if not sides:
            raise FileError(f"{where} has no players")
        intentional = j.boolean(p.get("intentionalDraw", False), f"{where} intentionalDraw")
        matches.append(_swiss_match(where, table, sides, intentional, fmt, warnings, bye_seat))
    return matches


def _swiss_match(where: str, table: int, sides: list, intentional: bool, fmt: Format,
                 warnings: list, bye_seat: int = 1) -> MatchRow:
    """One swiss table. A bye keeps the seat the file gave its player (Cobra sometimes writes player2), so an
    export writes it back there."""
    if len(sides) == 1:
        pid, _, points, _ = sides[0]
        if points is not None and points != fmt.scoring.bye:
            warnings.append(f"{_title(where)}: a bye is worth {fmt.scoring.bye} points; the file gives {points}, "
                            f"and SASS counts it as a bye ({fmt.scoring.bye} points).")
            points = fmt.scoring.bye
        result = None if points is None else result_rules.BYE
        return MatchRow(table, True, result, False, [SeatRow(pid, bye_seat, None, points)])
    (a, role_a, pa, games_a), (b, role_b, pb, games_b) = sides
    if (pa is None) != (pb is None):
        raise FileError(f"{where} has a score for only one player")
    side_a = side_b = None
    if fmt is Format.SINGLE_SIDED:
        if role_a is None and role_b is None:
            raise FileError(f"{where}: neither player has a role (corp or runner)")
        side_a = role_a or ("runner" if role_b == "corp" else "corp")
        side_b = role_b or ("runner" if side_a == "corp" else "corp")
        if side_a == side_b:
            raise FileError(f"{where}: both players are {side_a}")
    result = None
    if games_a and games_b and not any(games_a + games_b) and (pa or pb):
        games_a = games_b = None  # old Cobra files: corpScore and runnerScore 0 beside the real combinedScore
    if pa is not None and games_a and games_b:
        result = _double_games_key(where, games_a, games_b, pa, pb, warnings)
    if pa is not None and result is None:
        result = _result_key(where, fmt, side_a, pa, pb, intentional, warnings)
    seats = [SeatRow(a, 1, side_a, pa), SeatRow(b, 2, side_b, pb)]
    return MatchRow(table, False, result, intentional, seats)


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

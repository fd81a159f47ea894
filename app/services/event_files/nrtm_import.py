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
from typing import Optional

from ...core.identities import canonical, file_faction
from ...models import MAX_INT, Player, Tournament, User, max_length
from ...core.pairing import Entrant, Format, Game, Side
from ...core.standings import compute_standings, counted_games
from . import event_writer
from . import jsonfile as j
from .event_writer import EventPlan, NameClash, PlayerRow, RoundRow
from . import nrtm_cut, nrtm_swiss
from .jsonfile import FileError


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
    plan.rounds = [RoundRow(number, True, nrtm_swiss.read_round(n, pairings, ids, fmt, warnings, names, totals))
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
    where = nrtm_swiss.place(n, k, p)
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


"""The penalty log and the deck checks in an event's backup, under the key "penalties" (optional on restore:
absent, the event has none). Players are named by their number in the file, accounts by the name the log showed
(never an account: a restore reaches no one's data); every value is checked as strictly as the rest of the file,
and a draw must pick, from its seed and inputs, the players it says it picked."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Hashable, Optional

import sqlalchemy as sa

from ...core import deck_checks as draw_rules
from ...core.deck_checks import Candidate, Pool
from ...core.pairing import Format
from ...core.penalties import NOTES_LENGTH, ROUND, Infraction, Kind, games
from ...core.results import BYE, ResultError, outcome
from ...extensions import db
from ...models import MAX_INT, DeckCheck, DeckCheckDraw, Penalty, Tournament, as_utc
from ...models.penalties import VOID_REASON_LENGTH
from ..event_files import jsonfile as j
from ..event_files.jsonfile import CONTROL, FileError

KEY = "penalties"
NAME_LENGTH = 254


@dataclass
class PenaltyRow:
    player: Hashable
    round: Optional[int]
    game: int
    infraction: str
    kind: str
    notes: str
    by: str
    at: datetime
    before: Optional[str]
    after: Optional[str]
    void: Optional[dict] = None  # {"by", "at", "reason"}: voided (a mistaken penalty); None while it stands


@dataclass
class DrawRow:
    round: Optional[int]
    seed: str
    pool: str
    top_tables: int
    count: int
    candidates: list  # [player key, table, times checked]
    picked: list  # player keys
    by: str
    at: datetime


@dataclass
class CheckRow:
    player: Hashable
    round: int
    draw: Optional[int]  # index into the draws, from 0
    by: str
    at: datetime


@dataclass
class Carried:
    log: list = field(default_factory=list)
    draws: list = field(default_factory=list)
    checks: list = field(default_factory=list)


def _time(moment: datetime) -> str:
    return as_utc(moment).isoformat(timespec="microseconds")


def dump(t: Tournament, number: dict) -> dict:
    """The event's penalties, draws and checks, players by their number in the file."""
    draws = db.session.scalars(sa.select(DeckCheckDraw).filter_by(tournament_id=t.id)
                               .order_by(DeckCheckDraw.id)).all()
    index = {d.id: i for i, d in enumerate(draws)}
    return {
        "log": [{"player": number[p.player_id], "round": p.round_number, "game": p.game,
                 "infraction": p.infraction, "kind": p.kind, "notes": p.notes, "by": p.recorded_by,
                 "at": _time(p.created_at), "before": p.result_before, "after": p.result_after,
                 **({} if p.voided_at is None else
                    {"void": {"by": p.voided_by or "", "at": _time(p.voided_at), "reason": p.void_reason}})}
                for p in db.session.scalars(sa.select(Penalty).filter_by(tournament_id=t.id).order_by(Penalty.id))],
        "draws": [{"round": d.round_number, "seed": d.seed, "pool": d.pool, "top_tables": d.top_tables,
                   "count": d.count, "by": d.drawn_by, "at": _time(d.created_at),
                   # a player removed since the draw is left out of its inputs only if they never were: a
                   # started event removes no one (services/players/players.py)
                   "candidates": [[number[pid], table, checked] for pid, table, checked in d.candidates
                                  if pid in number],
                   "picked": [number[pid] for pid in d.picked if pid in number]}
                  for d in draws],
        "checks": [{"player": number[c.player_id], "round": c.round_number, "draw": index.get(c.draw_id),
                    "by": c.checked_by, "at": _time(c.created_at)}
                   for c in db.session.scalars(sa.select(DeckCheck).filter_by(tournament_id=t.id)
                                               .order_by(DeckCheck.id))],
    }


def _notes(value, where: str) -> str:
    if not isinstance(value, str):
        raise FileError(f"{where} should be text")
    if CONTROL.search(value.replace("\n", "")):
        raise FileError(f"{where} contains control characters other than line breaks")
    if len(value) > NOTES_LENGTH:
        raise FileError(f"{where} is longer than {NOTES_LENGTH} characters")
    return value


def _result(value, where: str, fmt: Format) -> Optional[str]:
    key = j.text(value, where, 16, null=True)
    if key is None:
        return None
    if key == BYE:
        raise FileError(f"{where}: a penalty never gives or takes a bye")
    try:
        outcome(fmt, key)
    except ResultError as e:
        raise FileError(f"{where} {key!r}: {e}") from None
    return key


def _void(value, where: str) -> Optional[dict]:
    """A penalty's void: absent or null -> it stands."""
    if value is None:
        return None
    value = j.obj(value, where)
    reason = j.text(value.get("reason"), f"{where} reason", VOID_REASON_LENGTH, empty=False)
    return {"by": j.text(value.get("by", ""), f"{where} by", NAME_LENGTH),
            "at": j.iso_time(value.get("at"), f"{where} at"), "reason": reason}


def _player(value, where: str, ids: set):
    key = j.integer(value, where)
    if key not in ids:
        raise FileError(f"{where} names player {key}, who is not in the file's players")
    return key


def read(raw, ids: set, rounds: set, fmt: Format) -> Carried:
    """The file's "penalties" key checked: absent -> none."""
    if raw is None:
        return Carried()
    raw = j.obj(raw, KEY)
    carried = Carried()
    losses = set()
    for i, p in enumerate(j.array(raw.get("log", []), "penalties log"), 1):
        where = f"penalty {i}"
        p = j.obj(p, where)
        kind = Kind(j.choice(p.get("kind"), f"{where} kind", tuple(k.value for k in Kind)))
        number = j.integer(p.get("round"), f"{where} round", 1, MAX_INT, null=True)
        if number is not None and number not in rounds:
            raise FileError(f"{where} names round {number}, which is not in the file")
        game = j.integer(p.get("game", ROUND), f"{where} game", 0, 2)
        if game not in games(fmt, kind) and not (kind is not Kind.GAME_LOSS and game == ROUND):
            raise FileError(f"{where}: a {kind.label.lower()} in this format names game "
                            f"{' or '.join(map(str, games(fmt, kind)))}, not {game}")
        row = PenaltyRow(
            player=_player(p.get("player"), f"{where} player", ids), round=number, game=game,
            infraction=j.choice(p.get("infraction"), f"{where} infraction", tuple(x.value for x in Infraction)),
            kind=kind.value, notes=_notes(p.get("notes", ""), f"{where} notes"),
            by=j.text(p.get("by", ""), f"{where} by", NAME_LENGTH), at=j.iso_time(p.get("at"), f"{where} at"),
            before=_result(p.get("before"), f"{where} before", fmt),
            after=_result(p.get("after"), f"{where} after", fmt))
        row.void = _void(p.get("void"), f"{where} void")
        if row.void is not None and row.void["at"] < row.at:
            raise FileError(f"{where}: voided before it was recorded")
        if kind.loses:
            if number is None:
                raise FileError(f"{where}: a {kind.label.lower()} names its round")
            if row.void is None:  # a voided loss leaves room for the right one
                if (row.player, number, game) in losses:
                    raise FileError(f"{where}: the same loss is recorded twice")
                losses.add((row.player, number, game))
        elif row.after is not None:
            raise FileError(f"{where}: a {kind.label.lower()} changes no result")
        carried.log.append(row)
    for i, d in enumerate(j.array(raw.get("draws", []), "deck check draws"), 1):
        where = f"deck check draw {i}"
        d = j.obj(d, where)
        candidates, seen = [], set()
        for k, c in enumerate(j.array(d.get("candidates"), f"{where} candidates"), 1):
            c = j.array(c, f"{where} candidate {k}")
            if len(c) != 3:
                raise FileError(f"{where} candidate {k} should be [player, table, times checked]")
            key = _player(c[0], f"{where} candidate {k} player", ids)
            if key in seen:
                raise FileError(f"{where} names player {key} twice")
            seen.add(key)
            candidates.append([key, j.integer(c[1], f"{where} candidate {k} table", 1, MAX_INT, null=True),
                               j.integer(c[2], f"{where} candidate {k} times checked", 0, 10000)])
        row = DrawRow(
            round=j.integer(d.get("round"), f"{where} round", 1, MAX_INT, null=True),
            seed=j.text(d.get("seed"), f"{where} seed", 32, empty=False),
            pool=j.choice(d.get("pool"), f"{where} pool", tuple(p.value for p in Pool)),
            top_tables=j.integer(d.get("top_tables"), f"{where} top_tables", 1, draw_rules.MAX_TOP_TABLES),
            count=j.integer(d.get("count"), f"{where} count", 1, draw_rules.MAX_PICK),
            candidates=candidates,
            picked=[_player(x, f"{where} picked", ids) for x in j.array(d.get("picked"), f"{where} picked")],
            by=j.text(d.get("by", ""), f"{where} by", NAME_LENGTH), at=j.iso_time(d.get("at"), f"{where} at"))
        if row.round is not None and row.round not in rounds:
            raise FileError(f"{where} names round {row.round}, which is not in the file")
        # the seed must make the pick the file says it made (keys stand for ids: the pick orders by them alike)
        again = draw_rules.pick([Candidate(*c) for c in candidates], row.count, row.seed, Pool(row.pool),
                                row.top_tables)
        if again != row.picked:
            raise FileError(f"{where}: its seed does not pick the players it lists")
        carried.draws.append(row)
    checked = set()
    for i, c in enumerate(j.array(raw.get("checks", []), "deck checks"), 1):
        where = f"deck check {i}"
        c = j.obj(c, where)
        row = CheckRow(player=_player(c.get("player"), f"{where} player", ids),
                       round=j.integer(c.get("round"), f"{where} round", 0, MAX_INT),
                       draw=j.integer(c.get("draw"), f"{where} draw", 0, max(len(carried.draws) - 1, 0), null=True),
                       by=j.text(c.get("by", ""), f"{where} by", NAME_LENGTH),
                       at=j.iso_time(c.get("at"), f"{where} at"))
        if row.draw is not None and not carried.draws:
            raise FileError(f"{where} names a draw, and the file has none")
        if row.round and row.round not in rounds:
            raise FileError(f"{where} names round {row.round}, which is not in the file")
        if (row.player, row.round) in checked:
            raise FileError(f"{where}: player {row.player} is checked twice in one round")
        checked.add((row.player, row.round))
        carried.checks.append(row)
    return carried


def insert(carried: Optional[Carried], tid: int, player_id: dict) -> None:
    """The checked rows written for the new event (ids mapped from the file's numbers); no account named."""
    if carried is None:
        return
    if carried.log:
        db.session.execute(sa.insert(Penalty.__table__), [
            {"tournament_id": tid, "player_id": player_id[p.player], "round_number": p.round, "game": p.game,
             "infraction": p.infraction, "kind": p.kind, "notes": p.notes, "recorded_by_id": None,
             "recorded_by": p.by, "created_at": p.at, "result_before": p.before, "result_after": p.after,
             "voided_at": p.void["at"] if p.void else None, "voided_by_id": None,
             "voided_by": p.void["by"] if p.void else None, "void_reason": p.void["reason"] if p.void else None}
            for p in carried.log])
    draw_ids = []
    for d in carried.draws:  # one at a time: the checks name them by their new ids
        draw_ids.append(db.session.execute(sa.insert(DeckCheckDraw.__table__).values(
            tournament_id=tid, round_number=d.round, seed=d.seed, pool=d.pool, top_tables=d.top_tables,
            count=d.count, candidates=[[player_id[k], table, n] for k, table, n in d.candidates],
            picked=[player_id[k] for k in d.picked], drawn_by_id=None, drawn_by=d.by, created_at=d.at)
            .returning(DeckCheckDraw.__table__.c.id)).scalar_one())
    if carried.checks:
        db.session.execute(sa.insert(DeckCheck.__table__), [
            {"tournament_id": tid, "player_id": player_id[c.player], "round_number": c.round,
             "draw_id": None if c.draw is None else draw_ids[c.draw], "checked_by_id": None, "checked_by": c.by,
             "created_at": c.at}
            for c in carried.checks])

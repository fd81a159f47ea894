"""Check-in in a backup (app/services/event_files/backup.py, restore.py, event_writer.py) under the key "check_in": the
roll call's settings, every check-in and the waitlist in its order, players named by their number in the file. Absent
(a backup made before check-in existed): check-in off, nobody checked in, no waitlist.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Hashable, Optional

import sqlalchemy as sa

from ...core.check_in import NoShows
from ...extensions import db
from ...models import CheckIn, CheckInSettings, MAX_INT, Tournament, WaitlistEntry, as_utc
from ..event_files import jsonfile as j

KEY = "check_in"


def _time(moment: Optional[datetime]) -> Optional[str]:
    return None if moment is None else as_utc(moment).isoformat(timespec="microseconds")


def dump(t: Tournament, number: dict) -> dict:
    """The event's check-in state; `number`: player id -> their number in the file."""
    row = db.session.get(CheckInSettings, t.id)
    return {
        "settings": None if row is None else {"enabled": row.enabled, "round": row.round,
                                              "deadline": _time(row.deadline), "no_shows": row.no_shows,
                                              "waitlist": row.waitlist},
        "check_ins": [{"player": number[c.player_id], "round": c.round, "by_staff": c.by_staff, "at": _time(c.at)}
                      for c in db.session.scalars(sa.select(CheckIn).filter_by(tournament_id=t.id)
                                                  .order_by(CheckIn.round, CheckIn.id))],
        "waitlist": [{"player": number[w.player_id], "position": w.position, "promoted_at": _time(w.promoted_at)}
                     for w in db.session.scalars(sa.select(WaitlistEntry).filter_by(tournament_id=t.id)
                                                 .order_by(WaitlistEntry.position))],
    }


@dataclass
class Plan:
    settings: Optional[dict] = None  # CheckInSettings columns
    check_ins: list = field(default_factory=list)  # (player key, round, by_staff, at)
    waitlist: list = field(default_factory=list)  # (player key, position, promoted_at)


def read(raw, ids: set, dropped: dict[Hashable, bool]) -> Plan:
    """The "check_in" value checked as strictly as the rest of the file; `dropped`: player key -> dropped. A player
    still waiting must be dropped (that is what keeps them out of pairings)."""
    plan = Plan()
    if raw is None:
        return plan
    raw = j.obj(raw, KEY)
    s = raw.get("settings")
    if s is not None:
        s = j.obj(s, "check_in settings")
        deadline = s.get("deadline")
        plan.settings = {
            "enabled": j.boolean(s.get("enabled"), "check_in enabled"),
            "round": j.integer(s.get("round"), "check_in round", 1, 10000),
            "deadline": None if deadline is None else j.iso_time(deadline, "check_in deadline"),
            "no_shows": j.choice(s.get("no_shows"), "check_in no_shows", tuple(n.value for n in NoShows)),
            "waitlist": j.boolean(s.get("waitlist"), "check_in waitlist"),
        }
    seen = set()
    for i, c in enumerate(j.array(raw.get("check_ins", []), "check_ins"), 1):
        c = j.obj(c, f"check-in {i}")
        player = _player(c.get("player"), f"check-in {i} player", ids)
        number = j.integer(c.get("round"), f"check-in {i} round", 1, 10000)
        if (player, number) in seen:
            raise j.FileError(f"check-in {i}: that player is checked in twice for round {number}")
        seen.add((player, number))
        plan.check_ins.append((player, number, j.boolean(c.get("by_staff"), f"check-in {i} by_staff"),
                               j.iso_time(c.get("at"), f"check-in {i} at")))
    players, positions = set(), set()
    for i, w in enumerate(j.array(raw.get("waitlist", []), "waitlist"), 1):
        w = j.obj(w, f"waitlist entry {i}")
        player = _player(w.get("player"), f"waitlist entry {i} player", ids)
        position = j.integer(w.get("position"), f"waitlist entry {i} position", 1, MAX_INT)
        if player in players or position in positions:
            raise j.FileError(f"waitlist entry {i}: its player or its position appears twice")
        players.add(player)
        positions.add(position)
        promoted = w.get("promoted_at")
        promoted = None if promoted is None else j.iso_time(promoted, f"waitlist entry {i} promoted_at")
        if promoted is None and not dropped[player]:
            raise j.FileError(f"waitlist entry {i}: a player still waiting should be dropped")
        plan.waitlist.append((player, position, promoted))
    return plan


def _player(value, where: str, ids: set):
    key = j.integer(value, where)
    if key not in ids:
        raise j.FileError(f"{where} names no player of the file")
    return key


def write(tid: int, plan: Plan, player_id: dict) -> None:
    """The plan's rows for the new event `tid` (event_writer: in its transaction); `player_id`: key -> id."""
    if plan.settings is not None:
        db.session.execute(sa.insert(CheckInSettings.__table__), [{"tournament_id": tid, **plan.settings}])
    if plan.check_ins:
        db.session.execute(sa.insert(CheckIn.__table__), [
            {"tournament_id": tid, "player_id": player_id[p], "round": r, "by_staff": staff, "at": at}
            for p, r, staff, at in plan.check_ins])
    if plan.waitlist:
        db.session.execute(sa.insert(WaitlistEntry.__table__), [
            {"tournament_id": tid, "player_id": player_id[p], "position": pos, "promoted_at": promoted}
            for p, pos, promoted in plan.waitlist])

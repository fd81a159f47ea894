"""Players' handles in an online event: the jinteki.net username (asked at registration) and an optional Discord
handle, which pairings show beside the name so opponents find each other.

A jinteki.net username belongs to one player of an event (two entries naming one account is a typo or a
double entry); it is compared ignoring case, as a person reads it. Checked under the tournament lock by the
callers that write it (registration, the TO's form, the CSV import).
"""
from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from ...extensions import db
from ...models import Player, Tournament, max_length
from ...core.names import name_key

HANDLE_MAX = max_length(Player.jinteki_name)


@dataclass(frozen=True)
class Handle:
    jinteki: str
    discord: str

    def __bool__(self) -> bool:
        return bool(self.jinteki or self.discord)


def key(username: str) -> str:
    """A username as compared: case and surrounding spaces ignored."""
    return (username or "").strip().casefold()


def taken_by(t: Tournament, username: str, except_id: int | None = None) -> Player | None:
    """The other player of `t` who already gave this jinteki.net username; None when it is free (or empty)."""
    wanted = key(username)
    if not wanted:
        return None
    query = sa.select(Player).where(Player.tournament_id == t.id, sa.func.lower(Player.jinteki_name) == wanted)
    if except_id is not None:
        query = query.where(Player.id != except_id)
    found = db.session.scalars(query.limit(1)).first()
    if found is None and not wanted.isascii():  # lower() in SQL folds ASCII only on SQLite: compare here
        found = next((p for p in db.session.scalars(sa.select(Player).where(Player.tournament_id == t.id))
                      if key(p.jinteki_name) == wanted and p.id != except_id), None)
    return found


def taken_message(player: Player) -> str:
    return f"The jinteki.net username “{player.jinteki_name}” is already {player.name}'s in this event."


def of_event(t: Tournament) -> dict[int, Handle]:
    """Every player's handles by player id, for the pairings of an online event; {} for any other event."""
    if not t.online:
        return {}
    rows = db.session.execute(sa.select(Player.id, Player.jinteki_name, Player.discord)
                              .where(Player.tournament_id == t.id)
                              .where(sa.or_(Player.jinteki_name != "", Player.discord != "")))
    return {pid: Handle(j, d) for pid, j, d in rows}


def named(t: Tournament, name: str | None) -> Handle | None:
    """The handles of the player of `t` called `name` (names are unique per event), for a page that knows only
    the opponent's name; None outside online events or for nobody."""
    if not t.online or not name:
        return None
    row = db.session.execute(sa.select(Player.jinteki_name, Player.discord)
                             .where(Player.tournament_id == t.id, Player.name_key == name_key(name))).first()
    return Handle(*row) if row and (row[0] or row[1]) else None


def missing(t: Tournament) -> int:
    """Active players of an online event without a jinteki.net username (the TO's list says who)."""
    if not t.online:
        return 0
    return db.session.scalar(sa.select(sa.func.count()).where(
        Player.tournament_id == t.id, Player.dropped.is_(False), Player.jinteki_name == "")) or 0


class HandleRefused(ValueError):
    """A jinteki.net username refused, in words for the form; nothing was written."""


def check(t: Tournament, jinteki: str, *, required: bool, except_id: int | None = None) -> None:
    """Refuse a missing username where one is required (a player registering for an online event) and one that
    another player of the event already gave. The caller holds the tournament lock."""
    if not t.online:
        return
    if required and not (jinteki or "").strip():
        raise HandleRefused("Give your jinteki.net username: your opponents find you by it.")
    clash = taken_by(t, jinteki, except_id)
    if clash is not None:
        raise HandleRefused(taken_message(clash))


def import_problems(t: Tournament, rows) -> list[str]:
    """For a CSV import (app/services/players/player_import.py rows): usernames given twice in the file or already an
    entered player's, as "Row n: ..." lines."""
    if not t.online:
        return []
    seen: dict[str, int] = {}
    problems = []
    for row in rows:
        wanted = key(row.jinteki_name)
        if not wanted:
            continue
        clash = taken_by(t, row.jinteki_name)
        if clash is not None:
            problems.append(f"Row {row.line}: {taken_message(clash)}")
        elif wanted in seen:
            problems.append(f"Row {row.line}: the jinteki.net username “{row.jinteki_name}” is also on row "
                            f"{seen[wanted]}.")
        seen.setdefault(wanted, row.line)
    return problems

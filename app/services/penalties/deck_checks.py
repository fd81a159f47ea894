"""Random deck checks: a draw picks players (weighted away from those checked already, or from the top tables of
the current round) from a seed it keeps with its inputs, so the same pick can be made again from them
(app/core/deck_checks.py); staff open the picked players' lists and mark each one checked (who, when, round).
One check per player and round, whatever races (a unique constraint)."""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...core import deck_checks as rules
from ...core.deck_checks import Candidate, Pool
from ...extensions import db
from ...models import DeckCheck, DeckCheckDraw, Player, Round, Tournament, User, as_utc, utcnow
from ..event_files import backup
from ..locks import lock_tournament
from .record import NotFound, Refused, tables, user_name


@dataclass(frozen=True)
class CheckView:
    player_id: int
    player: str
    round_number: int  # 0: before round 1
    checked_by: str
    created_at: datetime


@dataclass(frozen=True)
class Picked:
    player_id: int
    name: str
    table: Optional[int]
    checked_before: list  # of CheckView: earlier checks (the flag)
    checked_now: Optional[CheckView]  # this round's check, once marked


@dataclass(frozen=True)
class DrawView:
    id: int
    round_number: int
    seed: str
    pool: Pool
    top_tables: int
    count: int
    drawn_by: str
    created_at: datetime
    picked: list  # of Picked, in the order drawn
    reproduced: bool  # the seed and the stored inputs give the same pick again


def current_round(t: Tournament) -> int:
    """The round a check happens in: the newest round (0 before round 1)."""
    return db.session.scalar(sa.select(sa.func.coalesce(sa.func.max(Round.number), 0))
                             .where(Round.tournament_id == t.id))


def candidates(t: Tournament, round_number: int) -> list[Candidate]:
    """Every active player with their table in the round and how many times their lists were checked."""
    seated = tables(t, round_number or None)
    checked = dict(db.session.execute(sa.select(DeckCheck.player_id, sa.func.count(DeckCheck.id))
                                      .where(DeckCheck.tournament_id == t.id).group_by(DeckCheck.player_id)).all())
    ids = db.session.scalars(sa.select(Player.id).where(Player.tournament_id == t.id, Player.dropped.is_(False))
                             .order_by(Player.id))
    return [Candidate(pid, seated.get(pid), checked.get(pid, 0)) for pid in ids]


def draw(t: Tournament, user: User, count: int, pool: Pool, top_tables: int = 4) -> DeckCheckDraw:
    """Draw `count` players for a check now, from a new seed; the draw keeps its seed, inputs and pick."""
    lock_tournament(t)
    round_number = current_round(t)
    field = candidates(t, round_number)
    seed = secrets.token_hex(8)
    picked = rules.pick(field, count, seed, pool, top_tables)
    if not picked:
        db.session.rollback()
        raise Refused("Nobody to pick: no active players" + (" at those tables." if pool is Pool.TOP else "."))
    row = DeckCheckDraw(tournament_id=t.id, round_number=round_number or None, seed=seed, pool=pool.value,
                        top_tables=top_tables, count=count, picked=picked,
                        candidates=[[c.player_id, c.table, c.checked] for c in field],
                        drawn_by_id=user.id, drawn_by=user_name(user), created_at=utcnow())
    db.session.add(row)
    db.session.commit()
    backup.follow(t)
    return row


def replay(row: DeckCheckDraw) -> list[int]:
    """The pick the draw's seed makes from its stored inputs (equal to the stored pick)."""
    field = [Candidate(pid, table, checked) for pid, table, checked in row.candidates]
    return rules.pick(field, row.count, row.seed, Pool(row.pool), row.top_tables)


def mark(t: Tournament, user: User, player_id: int, draw_id: Optional[int] = None) -> bool:
    """Mark the player's lists checked in the current round; False if they were already (nothing changed)."""
    lock_tournament(t)
    if db.session.scalar(sa.select(Player.id).where(Player.id == player_id, Player.tournament_id == t.id)) is None:
        db.session.rollback()
        raise NotFound("That player is not part of this event.")
    if draw_id is not None and db.session.scalar(sa.select(DeckCheckDraw.id).filter_by(
            id=draw_id, tournament_id=t.id)) is None:
        draw_id = None
    round_number = current_round(t)
    if db.session.scalar(sa.select(DeckCheck.id).filter_by(player_id=player_id, round_number=round_number)):
        db.session.rollback()
        return False
    try:
        db.session.add(DeckCheck(tournament_id=t.id, player_id=player_id, round_number=round_number,
                                 draw_id=draw_id, checked_by_id=user.id, checked_by=user_name(user),
                                 created_at=utcnow()))
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return False
    backup.follow(t)
    return True


def checks(t: Tournament) -> dict[int, list[CheckView]]:
    """Every check of the event by player id, oldest first."""
    by_player: dict[int, list[CheckView]] = {}
    for c, name in db.session.execute(
            sa.select(DeckCheck, Player.name).join(Player, Player.id == DeckCheck.player_id)
            .where(DeckCheck.tournament_id == t.id).order_by(DeckCheck.id)):
        by_player.setdefault(c.player_id, []).append(
            CheckView(c.player_id, name, c.round_number, c.checked_by, as_utc(c.created_at)))
    return by_player


def draws(t: Tournament, limit: int = 5) -> list[DrawView]:
    """The newest draws, newest first, each picked player flagged with their checks."""
    done = checks(t)
    names = dict(db.session.execute(sa.select(Player.id, Player.name).where(Player.tournament_id == t.id)).all())
    views = []
    for row in db.session.scalars(sa.select(DeckCheckDraw).where(DeckCheckDraw.tournament_id == t.id)
                                  .order_by(DeckCheckDraw.id.desc()).limit(limit)):
        number = row.round_number or 0
        seated = {pid: table for pid, table, _ in row.candidates}
        picked = []
        for pid in row.picked:
            if pid not in names:
                continue
            history = done.get(pid, [])
            now = next((c for c in history if c.round_number == number), None)
            before = [c for c in history if c is not now and c.created_at <= as_utc(row.created_at)]
            picked.append(Picked(pid, names[pid], seated.get(pid), before, now))
        views.append(DrawView(row.id, number, row.seed, Pool(row.pool), row.top_tables, row.count, row.drawn_by,
                              as_utc(row.created_at), picked, replay(row) == list(row.picked)))
    return views

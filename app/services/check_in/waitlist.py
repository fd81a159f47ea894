"""The waitlist: registrations beyond the cap wait in their order of arrival, dropped (the one mechanism that keeps a
player out of every pairing); a freed place before round 1 lets the next one in (core/check_in.py promotions).

Every change runs under the event's lock, so a registration, a drop and a promotion racing each other see one
another's rows: never more than the cap in, never a player let in twice. The conditional UPDATEs are the last word.
"""
from __future__ import annotations

from typing import Optional

import sqlalchemy as sa

from ...core import check_in as rules
from ...extensions import db
from ...models import CheckIn, Player, Tournament, WaitlistEntry, touch, utcnow
from ..players import players as roster
from ..locks import lock_tournament
from ..push import outbox as push_outbox
from . import settings

# A player still waiting for a place: state.entrants leaves them out (not paired, not in the standings, not in the
# NRTM file: they never played).
WAITING = sa.exists().where(WaitlistEntry.player_id == Player.id, WaitlistEntry.promoted_at.is_(None))


def waiting(t: Tournament) -> list[tuple[int, str]]:
    """(player id, name) of the players waiting, next first."""
    return db.session.execute(
        sa.select(Player.id, Player.name).join(WaitlistEntry, WaitlistEntry.player_id == Player.id)
        .where(WaitlistEntry.tournament_id == t.id, WaitlistEntry.promoted_at.is_(None))
        .order_by(WaitlistEntry.position)).all()


def waiting_count(t: Tournament) -> int:
    return db.session.scalar(sa.select(sa.func.count()).where(WaitlistEntry.tournament_id == t.id,
                                                              WaitlistEntry.promoted_at.is_(None)))


def public_counts(t: Tournament) -> tuple[int, int]:
    """(players, waiting) as the public sees the event, in one query: every player but those still waiting (the
    dropped count, they played), and the line's length."""
    waits = sa.case((WAITING, 1), else_=0)
    total, line = db.session.execute(sa.select(sa.func.count(Player.id), sa.func.sum(waits))
                                     .where(Player.tournament_id == t.id)).one()
    line = int(line or 0)
    return total - line, line


def entry_of(player: Player) -> Optional[WaitlistEntry]:
    return db.session.scalar(sa.select(WaitlistEntry).where(WaitlistEntry.player_id == player.id))


def is_waiting(player: Player) -> bool:
    found = entry_of(player)
    return found is not None and found.promoted_at is None


def position(t: Tournament, player: Player) -> Optional[int]:
    """1 for the next to be let in; None for a player not waiting."""
    return rules.waitlist_position([pid for pid, _ in waiting(t)], player.id)


def arrival(t: Tournament, keeps_waitlist: bool, started: bool) -> rules.Entry:
    """Where a new registration would go now (call under the lock): the waitlist only before round 1."""
    return rules.arrival(t.registration_cap, roster.active_count(t), waiting_count(t), keeps_waitlist and not started)


def enqueue(t: Tournament, player: Player) -> None:
    """Put a new (flushed, dropped) player at the end of the line; the caller holds the lock and commits."""
    last = db.session.scalar(sa.select(sa.func.max(WaitlistEntry.position))
                             .where(WaitlistEntry.tournament_id == t.id)) or 0
    db.session.add(WaitlistEntry(tournament_id=t.id, player_id=player.id, position=last + 1))


def let_in(t: Tournament, player_id: int) -> bool:
    """Stamp the entry promoted and clear the player's drop, each only if not done yet (their check-in, made while
    they waited, stays: check-ins are per player and round). The caller holds the lock and commits."""
    done = db.session.execute(sa.update(WaitlistEntry).where(WaitlistEntry.player_id == player_id,
                                                             WaitlistEntry.tournament_id == t.id,
                                                             WaitlistEntry.promoted_at.is_(None))
                              .values(promoted_at=utcnow()), execution_options={"synchronize_session": False})
    if not done.rowcount:
        return False
    db.session.execute(sa.update(Player).where(Player.id == player_id, Player.tournament_id == t.id)
                       .values(dropped=False, drop_reason=None), execution_options={"synchronize_session": False})
    push_outbox.queue(t.id, push_outbox.WAITLIST, player_id=player_id)
    return True


def fill(t: Tournament) -> list[str]:
    """Let the head of the waitlist into the places free now (before round 1 only); the names let in. While the
    roll call before round 1 runs, only waiting players who checked in take a place (in line order; the absent keep
    theirs in line). Takes the lock (the caller commits): call it after any change that may free a place: a drop, a
    removal, a raised cap, a waiting player's check-in."""
    t = lock_tournament(t)
    line = waiting(t)
    if not line:
        return []
    names = dict(line)
    started = roster.rounds_started(t)
    call = settings.roll_call(t)
    present = None
    if not started and call.takes_waitlist_check_ins(0):
        present = set(db.session.scalars(sa.select(CheckIn.player_id).where(CheckIn.tournament_id == t.id,
                                                                            CheckIn.round == call.round)))
    chosen = rules.promotions(t.registration_cap, roster.active_count(t), [pid for pid, _ in line], started,
                              present=present)
    came_in = [names[pid] for pid in chosen if let_in(t, pid)]
    if came_in:
        touch(db.session, [t.id])
        db.session.expire_all()
    return came_in


def leave(t: Tournament, player_id: int) -> bool:
    """A waiting player leaves the line from their phone: their entry goes, and with it their Player row (they never
    played: no seat, no result names them), so nobody takes their place and those behind move up (a place in line
    is counted among those waiting). Committed under the lock; False (nothing written) if they are not waiting any
    more (let in meanwhile: they drop like any player instead)."""
    t = lock_tournament(t)
    gone = db.session.execute(sa.delete(Player).where(Player.id == player_id, Player.tournament_id == t.id, WAITING),
                              execution_options={"synchronize_session": False})
    if not gone.rowcount:
        db.session.rollback()
        return False
    touch(db.session, [t.id])
    db.session.commit()
    return True


def organizer_admits(t: Tournament, player: Player) -> bool:
    """The TO's button: `admit` under the event's lock, committed."""
    t = lock_tournament(t)
    done = admit(t, player)
    db.session.commit()
    return done


def admit(t: Tournament, player: Player) -> bool:
    """The TO lets a waitlisted player in by hand, cap or not (a late entry after round 1 too); False if they were
    not waiting. The caller holds the lock and commits."""
    if not let_in(t, player.id):
        return False
    touch(db.session, [t.id])
    db.session.expire_all()
    return True

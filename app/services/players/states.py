"""Every player's state in an event (app/core/player_state.py), loaded in a few queries: what pages, phones, forms,
the API, exports, standings and statistics ask instead of reading `dropped` or the waitlist themselves."""
from __future__ import annotations

from datetime import datetime
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ...core import player_state as rules
from ...core.player_state import DropReason, Facts, PlayerState
from ...extensions import db
from ...models import (CheckIn, CheckInSettings, Penalty, Player, Round, Seat, Tournament, WaitlistEntry, as_utc,
                       utcnow)
from ...models.penalties import STANDING_DISQUALIFICATION
from ..check_in import settings


def _reason(value: Optional[str]) -> Optional[DropReason]:
    return DropReason(value) if value else None


def of_event(t: Tournament, now: Optional[datetime] = None) -> dict[int, PlayerState]:
    """Player id -> state, for every player of the event (waiting ones too)."""
    now = now or utcnow()
    call = settings.roll_call(t)
    latest = db.session.scalar(sa.select(sa.func.max(Round.number)).where(Round.tournament_id == t.id)) or 0
    running = call.running(latest)
    line = db.session.execute(sa.select(WaitlistEntry.player_id, WaitlistEntry.promoted_at)
                              .where(WaitlistEntry.tournament_id == t.id).order_by(WaitlistEntry.position)).all()
    waiting = [pid for pid, promoted in line if promoted is None]
    positions = {pid: i for i, pid in enumerate(waiting, 1)}
    promoted = {pid: as_utc(at) for pid, at in line if at is not None}
    seen = set(db.session.scalars(sa.select(CheckIn.player_id).where(
        CheckIn.tournament_id == t.id, CheckIn.round == call.round))) if call.enabled else set()
    disqualified = set(db.session.scalars(sa.select(Penalty.player_id).where(Penalty.tournament_id == t.id,
                                                                             STANDING_DISQUALIFICATION)))
    played = set(db.session.scalars(sa.select(Seat.player_id).join(Round, Round.id == Seat.round_id)
                                    .where(Round.tournament_id == t.id).distinct()))
    out = {}
    for pid, dropped, reason in db.session.execute(
            sa.select(Player.id, Player.dropped, Player.drop_reason).where(Player.tournament_id == t.id)):
        out[pid] = rules.state_of(Facts(
            dropped=dropped, drop_reason=_reason(reason), waiting_position=positions.get(pid),
            let_in=pid in promoted, disqualified=pid in disqualified, played=pid in played,
            roll_call_running=running, checked_in=pid in seen,
            roll_call_closed=call.closed(now, promoted.get(pid))))
    return out


def of_player(t: Tournament, player: Player, now: Optional[datetime] = None) -> PlayerState:
    """One player's state (a player page, a phone's action): the same rule, its facts read in one statement (every
    phone's changed check draws the page)."""
    ahead = aliased(WaitlistEntry)  # those waiting before them in line
    line_ahead = (sa.select(sa.func.count()).select_from(ahead).where(
        ahead.tournament_id == Player.tournament_id, ahead.promoted_at.is_(None),
        ahead.position < WaitlistEntry.position).correlate(Player, WaitlistEntry).scalar_subquery())
    row = db.session.execute(
        sa.select(Player.dropped, Player.drop_reason, WaitlistEntry.id, WaitlistEntry.promoted_at, line_ahead,
                  CheckInSettings.enabled, CheckInSettings.round, CheckInSettings.deadline, CheckInSettings.no_shows,
                  sa.select(sa.func.max(Round.number)).where(Round.tournament_id == Player.tournament_id)
                  .correlate(Player).scalar_subquery(),
                  sa.exists().where(CheckIn.player_id == Player.id, CheckIn.round == CheckInSettings.round),
                  sa.exists().where(Penalty.player_id == Player.id, STANDING_DISQUALIFICATION),
                  sa.exists().where(Seat.round_id == Round.id, Round.tournament_id == Player.tournament_id,
                                    Seat.player_id == Player.id))  # by the seats' (round, player) index
        .select_from(Player)
        .outerjoin(WaitlistEntry, WaitlistEntry.player_id == Player.id)
        .outerjoin(CheckInSettings, CheckInSettings.tournament_id == Player.tournament_id)
        .where(Player.id == player.id, Player.tournament_id == t.id)).one()
    (dropped, reason, entry, promoted_at, ahead, enabled, number, deadline, no_shows, latest, checked, dq,
     played) = row
    call = settings.read(enabled, number, deadline, no_shows)
    promoted_at = as_utc(promoted_at) if promoted_at is not None else None
    waiting = entry is not None and promoted_at is None
    return rules.state_of(Facts(
        dropped=dropped, drop_reason=_reason(reason), waiting_position=ahead + 1 if waiting else None,
        let_in=promoted_at is not None, disqualified=bool(dq), played=bool(played),
        roll_call_running=call.running(latest or 0), checked_in=call.enabled and bool(checked),
        roll_call_closed=call.closed(now or utcnow(), promoted_at)))


class PartOver(Exception):
    """A player's own link asked for what their state no longer allows (a disqualified player reports, confirms,
    disputes, drops, calls a judge or changes a decklist): refused, nothing changed; the message says why."""


# What a disqualified player's link is told when it asks for something (their page offers none of these).
_DISQUALIFIED = {
    "report": "You are disqualified from this event: your link no longer reports, confirms or disputes results. "
              "See the head judge.",
    "drop": "You are disqualified from this event: you are out of it already. See the head judge.",
    "judge": "You are disqualified from this event: your link no longer calls a judge. See the head judge in "
             "person.",
    "decklist": "You are disqualified from this event: your decklists no longer change. See the head judge.",
}


def refuse_if_disqualified(t: Tournament, player: Player, action: str,
                           state: Optional[PlayerState] = None) -> PlayerState:
    """The player's state (`state` when the caller has it); PartOver when they are disqualified: their part in the
    event is over, and their link does nothing more for `action` ("report", "drop", "judge", "decklist")."""
    state = state if state is not None else of_player(t, player)
    if state.disqualified:
        raise PartOver(_DISQUALIFIED[action])
    return state

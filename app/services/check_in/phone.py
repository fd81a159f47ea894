"""What a player's own page shows of check-in and the waitlist: their place in line, "you are in" once a place is
theirs, the check-in button while the roll call takes phones, and its outcome."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Optional, Sequence

import sqlalchemy as sa

from ...core import check_in as rules
from ...models import CheckIn, CheckInSettings, Player, Round, Tournament, WaitlistEntry, as_utc, utcnow
from ..prepared import Prepared
from . import settings, waitlist


@dataclass(frozen=True)
class PhoneView:
    state: rules.Phone
    position: Optional[int] = None  # WAITLIST: 1 is next
    promoted: bool = False  # let in from the waitlist, shown until round 1 is paired
    round: int = rules.FIRST_ROUND  # the roll call's round
    deadline: Optional[datetime] = None
    by_staff: bool = False  # DONE: ticked off by the staff
    waiting_check_in: rules.Phone = rules.Phone.NONE  # WAITLIST: their own check-in while they wait (OPEN, DONE...)

    @property
    def shown(self) -> bool:
        return self.state is not rules.Phone.NONE or self.promoted


# The page's whole check-in state (every player page reads it): the settings, the player's waitlist entry and their
# check-in at the running roll call, as `read` takes them. The player page's facts (services/players/player_page.py)
# read these columns in their own statement; `view` asks them alone, with the event's latest round.
STATE = (CheckInSettings.enabled, CheckInSettings.round, CheckInSettings.deadline, CheckInSettings.no_shows,
         WaitlistEntry.id, WaitlistEntry.promoted_at, CheckIn.id, CheckIn.by_staff)


def joined(select: sa.Select) -> sa.Select:
    """`select`, which reads Player and CheckInSettings (outer joined), with what else STATE reads joined."""
    return (select.outerjoin(WaitlistEntry, WaitlistEntry.player_id == Player.id)
            .outerjoin(CheckIn, sa.and_(CheckIn.player_id == Player.id, CheckIn.round == CheckInSettings.round,
                                        CheckInSettings.enabled)))


_STATE = Prepared("check_in_phone", joined(
    sa.select(*STATE, sa.select(sa.func.max(Round.number)).where(Round.tournament_id == sa.bindparam("tid"))
              .scalar_subquery())
    .select_from(Player)
    .outerjoin(CheckInSettings, CheckInSettings.tournament_id == Player.tournament_id))
    .where(Player.id == sa.bindparam("pid"), Player.tournament_id == sa.bindparam("tid")))


def view(t: Tournament, player: Player, now: Optional[datetime] = None) -> PhoneView:
    *state, latest = _STATE.execute({"tid": t.id, "pid": player.id}).one()
    return read(t, player, state, latest, now)


def read(t: Tournament, player: Player, state: Sequence, latest: Optional[int],
         now: Optional[datetime] = None) -> PhoneView:
    """The view from STATE's columns (`state`) and the number of the event's latest round (None: no round yet)."""
    enabled, number, deadline, no_shows, entry, promoted_at, mine, by_staff = state
    call = settings.read(enabled, number, deadline, no_shows)
    latest = latest or 0
    waiting = entry is not None and promoted_at is None
    shown = rules.phone(call, latest, now or utcnow(), waitlisted=waiting, dropped=player.dropped,
                        checked_in=mine is not None, promoted_at=as_utc(promoted_at) if entry is not None else None)
    now = now or utcnow()
    return PhoneView(shown, position=waitlist.position(t, player) if waiting else None,
                     promoted=entry is not None and not waiting and latest == 0 and not player.dropped,
                     round=call.round, deadline=call.deadline, by_staff=bool(by_staff),
                     waiting_check_in=rules.waiting_phone(call, latest, now, checked_in=mine is not None)
                     if waiting else rules.Phone.NONE)

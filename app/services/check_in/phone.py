"""What a player's own page shows of check-in and the waitlist: their place in line, "you are in" once a place is
theirs, the check-in button while the roll call takes phones, and its outcome."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Optional

from ...core import check_in as rules
from ...models import Player, Tournament, as_utc, utcnow
from . import roll_call, settings, waitlist


@dataclass(frozen=True)
class PhoneView:
    state: rules.Phone
    position: Optional[int] = None  # WAITLIST: 1 is next
    promoted: bool = False  # let in from the waitlist, shown until round 1 is paired
    round: int = rules.FIRST_ROUND  # the roll call's round
    deadline: Optional[datetime] = None
    by_staff: bool = False  # DONE: ticked off by the staff

    @property
    def shown(self) -> bool:
        return self.state is not rules.Phone.NONE or self.promoted


def view(t: Tournament, player: Player, now: Optional[datetime] = None) -> PhoneView:
    call = settings.roll_call(t)
    entry = waitlist.entry_of(player)
    waiting = entry is not None and entry.promoted_at is None
    latest = roll_call.latest_round(t)
    mine = roll_call.checked_in(t, player, call.round) if call.enabled else None
    state = rules.phone(call, latest, now or utcnow(), waitlisted=waiting, dropped=player.dropped,
                        checked_in=mine is not None,
                        promoted_at=as_utc(entry.promoted_at) if entry is not None else None)
    return PhoneView(state, position=waitlist.position(t, player) if waiting else None,
                     promoted=entry is not None and not waiting and latest == 0 and not player.dropped,
                     round=call.round, deadline=as_utc(call.deadline) if call.deadline else None,
                     by_staff=bool(mine and mine.by_staff))

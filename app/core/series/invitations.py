"""Invitations: the top N of the series' standings, or each event's winner, marked invited (docs/domain.md 14.3).

An invitation passes down: a player who holds one already (from another event of the series, or from elsewhere,
as the TO marks) or who declined it is passed over, and it goes to the next eligible player in the same order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Optional, Sequence


@dataclass(frozen=True)
class Invitation:
    player: Hashable
    event: Optional[Hashable]  # the event whose winner's invitation this is; None: from the standings
    passed_over: tuple  # players it passed before reaching this one, in order


def invitations(standings_order: Sequence[Hashable], top_n: int = 0,
                event_orders: Sequence[tuple[Hashable, Sequence[Hashable]]] = (),
                holds: Iterable[Hashable] = (), declined: Iterable[Hashable] = ()) -> list[Invitation]:
    """The invitations, event winners' first (events in the order given, each walked in its placing order), then
    the standings' top N (walked in standings order). Nobody gets two; whoever holds one from elsewhere or declined
    gets none, and the invitation passes to the next eligible player. An order running out leaves its invitation
    unissued."""
    holds, declined = set(holds), set(declined)
    invited: set = set()
    out: list[Invitation] = []

    def issue(order: Sequence[Hashable], event, start: int = 0) -> int:
        """Invite the first eligible player of `order` from `start`; the index after them (len(order): nobody)."""
        passed = []
        for i in range(start, len(order)):
            player = order[i]
            if player in invited or player in holds or player in declined:
                passed.append(player)
                continue
            invited.add(player)
            out.append(Invitation(player, event, tuple(passed)))
            return i + 1
        return len(order)

    for event, order in event_orders:
        issue(order, event)
    position = 0
    for _ in range(max(0, top_n)):
        before = len(out)
        position = issue(standings_order, None, position)
        if len(out) == before:
            break
    return out

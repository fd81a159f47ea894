"""How often a player's own page checks its parts, by the size of the event.

Every check that finds nothing new still reaches the app (a device's own answer is never shared by a proxy), so
an event's phones together ask the app players / interval times a second. Past a size the interval grows so that
they ask at most a set number a second: a hall of 10,000 phones at the 2 s of a club night would be 5,000 checks a
second, more than a small server answers beside everything else. A publish still makes every page ask at once
(its status poll, shared and cached, names the new round), so only an opponent's report waits longer to show.
At such a size "at once" is spread: the whole hall learns of a publish within the same status poll, and the app
answers a page's first check after it with every part drawn (several times a revalidated check's cost), so each
page asks at a moment drawn within a spread instead. A publish is a one-off: the spread lets the hall's first
checks after it come at twice the steady rate (the revalidated checks meanwhile are what the steady rate leaves
room for), so every page has its new table within about half an interval of the publish.
"""
from __future__ import annotations

import math
from typing import NamedTuple


class Pace(NamedTuple):
    interval_ms: int  # between a page's checks
    spread_ms: int  # a page's check after a publish comes within this (0: at once)


AFTER_PUBLISH = 2  # the hall's first checks after a publish, against the steady rate


def pace(players: int, floor_ms: int, checks_per_second: int) -> Pace:
    interval = check_interval_ms(players, floor_ms, checks_per_second)
    burst = check_interval_ms(players, floor_ms, AFTER_PUBLISH * checks_per_second)
    return Pace(interval, burst - floor_ms)


def check_interval_ms(players: int, floor_ms: int, checks_per_second: int) -> int:
    """The interval, in ms, for an event of `players` (those still playing): `floor_ms`, or longer so that their
    pages together ask at most `checks_per_second` (0: no ceiling)."""
    if checks_per_second <= 0:
        return floor_ms
    return max(floor_ms, math.ceil(players * 1000 / checks_per_second))

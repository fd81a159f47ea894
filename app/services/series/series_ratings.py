"""A series' ratings (docs/domain.md 15): every game of its events rated, each event one rating period, as its pages
show them. (What seeds an event by the ratings before it, from every event on the server:
app/services/server_ratings.py.)

Kept per the standings' versions (app/services/series/standings.py), and rated incrementally: the ratings after
each of the series' last KEEP_AFTER events are kept by a name of everything they were rated from (the series, and
every event up to it: its id, slug, version and its entries' series player keys), so a result in the current event
rates that event's games again from the ratings before it, not the series' 17,000 games. A change further back
(or a new grouping of the players) finds no kept ratings before it and rates from the first event; the answer is
the same either way (`core.rate_events`, tests/services/series/test_series_ratings.py).
"""
from __future__ import annotations

import hashlib
from typing import Optional

from ...core import ratings as core
from ...core.kept import Kept
from ...models import Series, Tournament
from .games import event_games, events_in_order
from .people import Roster
from .rating_games import rating_games
from .standings import Table, versions

KEEP_AFTER = 3  # the ratings after each of the series' last 3 events are kept (results come in there)

_RATINGS: Kept[core.Ratings] = Kept(64)
# a name of what was rated (`_names`) -> the ratings after that event; about 0.2 KB a rated player each (0.6 MB at
# 3,393 players), so 48 bound a worker's memory while keeping the last events of 16 such series
_AFTER: Kept[core.Ratings] = Kept(48)


def current(series: Series, table: Table) -> core.Ratings:
    """Every series player's rating after all of the series' games so far, kept by the versions `table` was built at."""
    return _RATINGS.get(table.versions or versions(series), lambda: rate(series, table.roster))


def rate(series: Series, roster: Roster) -> core.Ratings:
    """The ratings after every event, rated from the newest kept ratings whose events are all unchanged."""
    events = events_in_order(series)
    names = _names(series, events, roster)
    start: Optional[core.Ratings] = None
    done = len(events)
    while done and start is None:
        start = _AFTER.find(names[done - 1])
        if start is None:
            done -= 1
    after = core.rate_events((rating_games(event_games(t, roster)) for t in events[done:]), start=start)
    for i in range(max(done, len(events) - KEEP_AFTER), len(events)):
        _AFTER.keep(names[i], after[i - done])
    return after[-1] if after else start or core.Ratings(core.DEFAULT_MODEL)


def _names(series: Series, events: list[Tournament], roster: Roster) -> list[bytes]:
    """For each event, a name of everything the ratings after it depend on: the series, the model, and every event
    up to it (its id, slug and version, which any result bumps, and its entries' series player keys, which a new
    link may change)."""
    name = repr((series.id, core.DEFAULT_MODEL.value)).encode()
    out = []
    for t in events:
        keys = list(roster.event_keys.get(t.id, ()))
        name = hashlib.blake2b(name + repr((t.id, t.slug, t.version, keys)).encode(), digest_size=16).digest()
        out.append(name)
    return out


def shown(series: Series, table: Table) -> dict[str, int]:
    """What the standings show beside each rated player: the conservative value (unrated players: nothing)."""
    rated = current(series, table)
    return {key: rating.display for key, rating in rated.ratings.items()}


def forget_cached() -> None:
    _RATINGS.clear()
    _AFTER.clear()

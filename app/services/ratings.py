"""Ratings for an event's pairing (docs/domain.md 15): where they come from, and the strengths the engine takes.

An event by itself knows nothing about its players before round 1; a series (league, season, circuit) says who its
players are, and the server knows their games. The source (app/services/server_ratings.py: the games of every event
on the server before this one, each entry rated as its person, by NetrunnerDB account or a TO's confirmed match) is
wired here, by import, so pairing through the services alone (a script, the command line, no web page loaded) seeds
by it; others may be registered after it. A source, `fn(tournament)`, returns None (not an event it knows) or the
games before this event (`app.core.ratings.Game`, in time order, each event a period) and a map of this event's
player ids to their rating keys. `strengths_before` fits those games at once (app/core/rating_fit.py) and gives
every player of the event an exact integer strength; a player the map leaves out, or one never rated, takes the
newcomers' learnt mean (0, the founders' mean, until newcomers have played). With no source, or no source that
knows the event: None, and the engine pairs as without ratings.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Optional, Sequence

from ..core import rating_fit
from ..core import ratings as core
from ..core.kept import Kept
from ..models import Player, Tournament
from ..extensions import db
from . import server_ratings

RatingSource = Callable[[Tournament], Optional[tuple[Sequence[core.Game], dict[int, Hashable]]]]
RATING_SOURCES: list[RatingSource] = [server_ratings.games_before]  # always asked first


def register_rating_source(fn: RatingSource) -> RatingSource:
    """Add a source (usable as a decorator); the first source that knows an event is the one used."""
    if fn not in RATING_SOURCES:
        RATING_SOURCES.append(fn)
    return fn


def unregister_rating_source(fn: RatingSource) -> None:
    if fn in RATING_SOURCES:
        RATING_SOURCES.remove(fn)


# The fit of a list of games, kept by the games themselves: every round of an event (and the TO's notice before it)
# asks for the same games before it, and the server's whole history is fitted once, not once a round. Always from
# zero (not warm-started from another fit): every worker gets the same strengths, whatever it fitted before.
_FITTED: Kept[rating_fit.Fit] = Kept(16)


def fit_before(t: Tournament) -> Optional[tuple[rating_fit.Fit, dict[int, Hashable]]]:
    """The joint fit of the games from the first source that knows `t` (app/core/rating_fit.py), with its map of
    player ids to keys; None: no source."""
    for source in list(RATING_SOURCES):
        found = source(t)
        if found is not None:
            games, keys = tuple(found[0]), found[1]
            return _FITTED.get(games, lambda games=games: rating_fit.fit(games)), dict(keys)
    return None


@dataclass(frozen=True)
class Seeding:
    """What ratings give an event's pairing: every player's strength, and which players have a rating of their own
    (the others take the newcomers' prior)."""

    strengths: dict  # player id -> int
    rated: frozenset  # player ids with a rating from earlier games

    @property
    def seeds(self) -> bool:
        """Whether ratings can choose anything: at least one player has a rating (with none, every player is the
        mean and the pairing is the one without ratings)."""
        return bool(self.rated)


def seeding_before(t: Tournament) -> Optional[Seeding]:
    """Every player's strength for the engine (an int: 1000 x the fitted skill, an uncertain one pulled towards
    its prior; never seen: the newcomers' learnt mean) and who is rated; None without a source."""
    found = fit_before(t)
    if found is None:
        return None
    fitted, keys = found
    ids = db.session.scalars(db.select(Player.id).where(Player.tournament_id == t.id)).all()
    keyed = {pid: keys.get(pid, ("unrated", pid)) for pid in ids}
    return Seeding(fitted.strengths(keyed), frozenset(pid for pid, key in keyed.items() if key in fitted.skill))


def strengths_before(t: Tournament) -> Optional[dict[int, int]]:
    """Every player's strength for the engine, None without a source."""
    found = seeding_before(t)
    return None if found is None else found.strengths

"""What the TO sees of seeding by rating before pairing (docs/domain.md 15.2): whether it is on, how many of the
players to pair have a rating from the series' earlier events, who has none, and how many of those "Link all
identical names" would join to a player of the series."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...models import Player, Series, Tournament
from ...extensions import db
from .. import ratings
from ..players import states
from . import people
from .rating_source import series_of


@dataclass(frozen=True)
class Notice:
    series: Optional[Series]  # None: the event counts in no series (nothing to seed by)
    players: int  # the players the next round pairs
    unrated: tuple  # their names, without a rating (they count as a newcomer: the newcomers' learnt mean)
    linkable: int  # of those, entries an identical-name link would join to a player of the series
    links: int  # every link "Link all identical names" would make in the series

    @property
    def rated(self) -> int:
        return self.players - len(self.unrated)


def notice(t: Tournament) -> Optional[Notice]:
    """None unless the event seeds by rating."""
    if not t.seed_by_rating:
        return None
    series = series_of(t)
    pairable = sorted(pid for pid, state in states.of_event(t).items() if state.pairable)
    if series is None:
        return Notice(None, len(pairable), (), 0, 0)
    seeding = ratings.seeding_before(t)
    rated = seeding.rated if seeding is not None else frozenset()
    names = dict(db.session.execute(db.select(Player.id, Player.name).where(Player.tournament_id == t.id)).all())
    unrated = [pid for pid in pairable if pid not in rated]
    found = people.roster(series).people.identical
    joined = {link.player_id for link in found} | {link.target_player_id for link in found}
    return Notice(series, len(pairable), tuple(sorted((names[pid] for pid in unrated), key=str.casefold)),
                  sum(1 for pid in unrated if pid in joined), len(found))

"""Ratings from every event on the server, players by identity (docs/domain.md 15.2): a regular of the next town's
league is known here, not only the players of this event's own series.

An event of a series takes its ratings from the games of every event on the server before it (by date, then id),
whatever series they count in, or none. Each entry is rated as the person it is: its NetrunnerDB account's when it
is linked to one (in any event), else the person the TO confirmed it is in any series (a stored link, "Link all
identical names" included), else, in this event's series when it links identical names by itself, the one player
of its name there; else it stands alone. The grouping is app/core/series/people.py's, applied to every entry of
the server at once: a link that would join two accounts or two entries of one event is void, as in one series.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Hashable, Optional

import sqlalchemy as sa

from ..core import ratings as core
from ..core.series.people import Entry, Link, resolve
from ..extensions import db
from ..models import Player, SeriesLink, Tournament
from .series import people
from .series.games import DRAW, WIN, entry_games
from .series.rating_source import series_of

OUTCOME = {WIN: Fraction(1), DRAW: Fraction(1, 2)}  # anything else counted is a loss: 0


def games_before(t: Tournament) -> Optional[tuple[list[core.Game], dict[int, Hashable]]]:
    """An event of a series: the games of every event on the server before it, each side named by its person's
    key, and this event's entries' keys. None for an event of no series (nothing says who its players are)."""
    series = series_of(t)
    if series is None:
        return None
    events = db.session.scalars(
        sa.select(Tournament).where(sa.or_(Tournament.date < t.date,
                                           sa.and_(Tournament.date == t.date, Tournament.id < t.id)))
        .order_by(Tournament.date, Tournament.id)).all()
    key_of = identities([e.id for e in events] + [t.id], series)
    games = []
    for e in events:
        for _stage, _round, first, second, side, outcome, draw in entry_games(e):
            if second is None:
                continue
            games.append(core.Game(key_of[first], key_of[second], OUTCOME.get(outcome, Fraction(0)), side,
                                   e.id, draw))
    entries = db.session.scalars(sa.select(Player.id).where(Player.tournament_id == t.id)).all()
    return games, {pid: key_of[pid] for pid in entries}


def identities(event_ids: list[int], series) -> dict[int, str]:
    """Every entry of these events -> its person's key: accounts, every series' stored links, and the identical
    names `series` links by itself (when it does)."""
    rows = db.session.execute(sa.select(Player.id, Player.tournament_id, Player.name_key, Player.nrdb_account_id)
                              .where(Player.tournament_id.in_(event_ids))).all()
    links = [Link(pid, target, account) for pid, target, account in db.session.execute(
        sa.select(SeriesLink.player_id, SeriesLink.target_player_id, SeriesLink.target_account_id)
        .order_by(SeriesLink.id))]
    if series.link_identical:
        links += people.roster(series).people.identical
    found = resolve([Entry(pid, tid, key, account) for pid, tid, key, account in rows], links, suggest=False)
    return found.key_of

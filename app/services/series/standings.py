"""A series' standings across its events: each event's final placings (the existing standings and cut services say
them), the core's points and ranks, invitations; cached by the series' version and its events' versions, as the
public pages are. After a result the ranking starts from the last one this worker worked out: a player whose
results are unchanged keeps their row (and their Line, whose drawn row app/web/series_rows.py keeps)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Optional

import sqlalchemy as sa

from ...core.pairing.history import gc_paused
from ...core.kept import Kept
from ...core.series import EventResult, Invitation, invitations
from ...core.series.standings import Earlier, ranked as rank_from
from ...extensions import db
from ...models import Series, SeriesEvent, Tournament, utcnow
from .. import cut as cut_service
from .. import next_step, state
from ..swiss.summaries import round_summaries
from . import manage
from .people import Roster, decisions, forget_cached as forget_grouping, roster as load_roster


@dataclass(frozen=True)
class Placings:
    """An event's final order: the cut's placings first when it has a cut, then the swiss ranks (published
    rounds only). Before a published result the event places nobody; `field` counts its players all the same, and
    `started` says a round of it was published."""

    places: dict  # entry id -> placing (1: the winner)
    field: int
    started: bool
    finished: bool


def placings(t: Tournament) -> Placings:
    """Kept per event version (a finished event never changes) and day (an event without a cut is over once its
    day has passed): one result recomputes its own event only."""
    return _PLACINGS.get((t.id, t.slug, t.version, utcnow().date()), lambda: _placings(t))


def _placings(t: Tournament) -> Placings:
    cut = cut_service.load(t) if t.cut_kind else None
    if cut is not None:
        final = cut.final_standings()
        # over when its cut is decided (next_step.event_over asks the same of the stored bracket)
        # the field: who played (one out before round 1 is in no standings); a disqualified player played but
        # holds no placing (listed last, app/core/player_state.py)
        return Placings({r["player"]: r["rank"] for r in final if not r["disqualified"]}, len(final), True,
                        cut.bracket.is_complete())
    swiss = state.standings(t, published_only=True)
    if not any(s.rounds for s in swiss):
        # no published result yet: nobody placed, but the players are counted, and a published round means the
        # event is under way (not "not started")
        published = bool(round_summaries(t, published_only=True))
        return Placings({}, len(swiss), published, False)
    return Placings({s.player: s.rank for s in swiss if s.placed}, len(swiss), True, next_step.event_over(t))


_PLACINGS: Kept[Placings] = Kept(4096)


@dataclass(frozen=True)
class EventColumn:
    id: int
    row_id: int  # the SeriesEvent
    slug: str
    name: str
    date: date
    tier: str
    multiplier: Fraction
    field: int
    started: bool
    finished: bool


@dataclass(frozen=True)
class Result:
    event: int
    entry: int  # the entry's id in that event
    placing: int
    points: Fraction
    counted: bool


@dataclass(frozen=True)
class Line:
    rank: int
    key: str  # the series player (app/core/series/people.py)
    name: str
    account: Optional[str]  # NetrunnerDB username
    total: Fraction
    all_results: Fraction
    events: int
    wins: int
    results: tuple  # of Result, oldest event first
    invitation: Optional[Invitation]

    @property
    def best(self) -> int:
        """The best placing."""
        return min(r.placing for r in self.results)


@dataclass
class Table:
    events: list  # of EventColumn, oldest first
    lines: list  # of Line, ranked
    invitations: list  # of Invitation
    roster: Roster
    versions: tuple = ()  # versions(series) it was built at (what the series' ratings are kept by)

    def column(self, row_id: int) -> Optional[EventColumn]:
        return next((e for e in self.events if e.row_id == row_id), None)

    def column_of(self, event: int) -> Optional[EventColumn]:
        return next((e for e in self.events if e.id == event), None)

    def line(self, key: str) -> Optional[Line]:
        return next((line for line in self.lines if line.key == key), None)


_TABLES: Kept[Table] = Kept(64)


def versions(series: Series) -> tuple:
    """What names a series' standings: the series' own version and every event's (any result bumps it)."""
    events = db.session.execute(
        sa.select(Tournament.id, Tournament.version).join(SeriesEvent, SeriesEvent.tournament_id == Tournament.id)
        .where(SeriesEvent.series_id == series.id).order_by(Tournament.id)).all()
    version = db.session.scalar(sa.select(Series.version).where(Series.id == series.id))
    return (series.id, series.slug, version, tuple(tuple(e) for e in events))


def edition(series: Series) -> tuple:
    """What names the standings as shown: versions(series) and the day (an event without a cut is over once its day
    has passed: placings)."""
    return versions(series), utcnow().date()


def edition_name(series: Series, named: Optional[tuple] = None) -> str:
    """edition(series) (or `named`, read just before) as a short name of [0-9a-f] (what the shared pages are kept by,
    app/web/page_cache.py)."""
    return hashlib.blake2b(repr(named or edition(series)).encode(), digest_size=10).hexdigest()


def table(series: Series, named: Optional[tuple] = None) -> Table:
    """The standings, built once per edition(series): a result in one event works out that event's placings
    again (the others' are kept by their versions) and the series' arithmetic, not every event's standings.
    `named`: edition(series), read just before (a page asks it once)."""
    named = named or edition(series)
    return _TABLES.get(named, lambda: build(series, named[0]))


def forget_cached() -> None:
    """Empty the tables and placings kept (benchmarks measure a cold build)."""
    _TABLES.clear()
    _PLACINGS.clear()
    _RESULTS.clear()
    _EARLIER.clear()
    forget_grouping()


def build(series: Series, at: Optional[tuple] = None) -> Table:
    with gc_paused():  # thousands of small rows, all kept: a collection pass would find nothing
        return _build(series, at if at is not None else versions(series))


def _build(series: Series, at: tuple) -> Table:
    rules = manage.rules(series)
    tiers = {name.casefold(): m for name, m in manage.tiers(series).items()}
    roster = load_roster(series)
    key_of = roster.people.key_of
    columns, results, entries_of = [], {}, {}  # series player -> their EventResults, and the entries they are of
    event_orders = []
    for row in manage.events(series):
        t = row.tournament
        placed = placings(t)
        multiplier = tiers.get(row.tier.casefold(), Fraction(1)) if row.tier else Fraction(1)
        columns.append(EventColumn(t.id, row.id, t.slug, t.name, t.date, row.tier, multiplier, placed.field,
                                   placed.started, placed.finished))
        placed_results = _event_results(t, placed, multiplier)
        for pid, result in placed_results:
            key = key_of[pid]
            if key in results:
                results[key].append(result)
                entries_of[key].append(pid)
            else:
                results[key], entries_of[key] = [result], [pid]
        if placed.finished and placed_results:
            event_orders.append((t.id, [key_of[pid] for pid, _ in placed_results]))
    names = {k: roster.name(k) for k in results}
    earlier = _EARLIER.find(series.id)
    rows, ranking = rank_from(rules, {k: tuple(v) for k, v in results.items()},
                              {k: names[k].casefold() for k in names}, earlier.ranking if earlier else None)
    notes = decisions(series, roster)
    invited = invitations([r.player for r in rows], series.invite_top,
                          event_orders if series.invite_winners else (),
                          holds={k for k, d in notes.items() if d.holds_invitation},
                          declined={k for k, d in notes.items() if d.declined})
    by_player = {i.player: i for i in invited}
    kept_lines = earlier.lines if earlier else {}
    lines, made = [], {}
    for r in rows:
        entries = tuple(entries_of[r.player])
        name, account, invitation = names[r.player], roster.account(r.player), by_player.get(r.player)
        hit = kept_lines.get(r.player)
        if hit is not None and hit[0] is r and hit[1] == entries and (hit[2].name, hit[2].account,
                                                                          hit[2].invitation) == (name, account,
                                                                                                 invitation):
            line = hit[2]  # the same row as before, the same object: the pages' rows drawn before still hold
        else:
            line = Line(r.rank, r.player, name, account, r.total, r.all_results, r.events, r.wins,
                        tuple(Result(s.event, pid, s.placing, s.points, s.counted)
                              for pid, s in zip(entries, r.scores, strict=True)),
                        invitation)
        made[r.player] = (r, entries, line)
        lines.append(line)
    _EARLIER.keep(series.id, _Earlier(ranking, made))
    return Table(columns, lines, invited, roster, at)


def _event_results(t: Tournament, placed: Placings, multiplier: Fraction) -> tuple:
    """An event's (entry, EventResult) in placing order, the same objects while the event and its tier are unchanged
    (the ranking then knows its unchanged players at a glance)."""
    return _RESULTS.get((t.id, t.slug, t.version, utcnow().date(), multiplier), lambda: tuple(
        (pid, EventResult(t.id, placed.places[pid], placed.field, multiplier))
        for pid in sorted(placed.places, key=placed.places.__getitem__)))


_RESULTS: Kept[tuple] = Kept(1024)  # about 25 KB an event of 100: the 50 events of 20 such series


@dataclass(frozen=True)
class _Earlier:
    """A series' last standings worked out in this worker, for the next: the core's ranking, and each player's
    (ranked row, entries, Line)."""
    ranking: Earlier
    lines: dict


_EARLIER: Kept[_Earlier] = Kept(16)  # by series id; read only once made (threads may share one)

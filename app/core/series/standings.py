"""A series' standings: each player's events' points, the best N of them counted, ties broken as the TO chose.

docs/domain.md 14.2. A player's results are plain values (EventResult); the rows come back ranked, equal rows
(same total and every tie-break) sharing a rank.
"""
from __future__ import annotations

import math
import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Hashable, Mapping, Optional, Sequence

from .points import Rules, event_points
from .tie_breaks import Standing, named


@dataclass(frozen=True)
class EventResult:
    event: Hashable  # the event's id
    placing: int  # 1: the winner
    field: int  # players placed in the event
    multiplier: Fraction = Fraction(1)  # the event's tier


@dataclass(frozen=True)
class Score:
    event: Hashable
    placing: int
    field: int
    points: Fraction
    counted: bool  # among the best N


@dataclass(frozen=True)
class Row:
    rank: int
    player: Hashable
    total: Fraction  # the counted results
    all_results: Fraction  # every result
    events: int
    wins: int  # events won
    scores: tuple[Score, ...]  # in the order the results were given


def counted(points: Sequence[Fraction | int], best_n: Optional[int]) -> set[int]:
    """The indexes of the results that count: the best N by points (all when N is None); among equal points the
    earlier result counts, so the choice never depends on anything but the order given."""
    order = sorted(range(len(points)), key=lambda i: (-points[i], i))
    return set(order if best_n is None else order[:max(0, best_n)])


def standings(rules: Rules, results: Mapping[Hashable, Sequence[EventResult]],
              order_within: Optional[Mapping[Hashable, object]] = None) -> list[Row]:
    """Every player with at least one result, ranked. Players equal on the total and every tie-break share a rank;
    `order_within` (e.g. a folded name) orders them on the page, then the player's key."""
    return ranked(rules, results, order_within)[0]


@dataclass(frozen=True)
class Earlier:
    """What one ranking worked out, for the next (a series' standings after a result in one of its events): each
    player's results as given, their row and what they are ranked by, and the order. A player whose results are
    equal to the earlier ones is not worked out again; the answer is the same either way."""

    rules: Optional[Rules] = None
    worth: Mapping = dataclasses.field(default_factory=dict)  # (placing, field, multiplier) -> points
    scale: int = 1
    longest: int = 0
    # player -> (results, Row before its rank, sort key, ranked Row)
    players: Mapping = dataclasses.field(default_factory=dict)
    order: tuple = ()  # the players, ranked


def ranked(rules: Rules, results: Mapping[Hashable, Sequence[EventResult]],
           order_within: Optional[Mapping[Hashable, object]] = None,
           earlier: Optional[Earlier] = None) -> tuple[list[Row], Earlier]:
    """standings(), and what the next call may start from; `earlier` is only read (threads may share it)."""
    earlier = earlier if earlier is not None and earlier.rules == rules else Earlier()
    tie_breaks = named(rules.tie_breaks)
    within = order_within or {}
    given = {player: tuple(mine) for player, mine in results.items() if mine}
    kept = earlier.players
    fresh = {p for p, mine in given.items() if (hit := kept.get(p)) is None or hit[0] != mine}
    # each result's points worked out once per (placing, field, multiplier): a few hundred distinct among thousands
    # of results; then counted and added as whole numbers of 1/scale (exact), as Fractions cost most of the ranking
    worth = dict(earlier.worth)
    for key in {(r.placing, r.field, r.multiplier) for p in fresh for r in given[p]} - worth.keys():
        worth[key] = event_points(rules, *key)
    scale = math.lcm(*{f.denominator for f in worth.values()}) if worth else 1
    longest = max(map(len, given.values()), default=0)
    if (scale, longest) != (earlier.scale, earlier.longest):  # every sort key changes
        fresh, kept = set(given), {}
    whole_of = {key: f.numerator * (scale // f.denominator) for key, f in worth.items()}
    players: dict[Hashable, tuple] = {}
    for player in fresh:
        mine = given[player]
        keys = [(r.placing, r.field, r.multiplier) for r in mine]
        ints = [whole_of[k] for k in keys]
        chosen = counted(ints, rules.best_n)
        scores = tuple(Score(r.event, r.placing, r.field, worth[k], i in chosen)
                       for i, (r, k) in enumerate(zip(mine, keys, strict=True)))
        total, every = sum(ints[i] for i in chosen), sum(ints)
        row = Row(0, player, Fraction(total, scale), Fraction(every, scale), len(mine),
                  sum(1 for r in mine if r.placing == 1), scores)
        line = Standing(every, tuple(s.placing for s in scores), row.wins, row.events, longest)
        players[player] = (mine, row, (-total, *(tb.key(line) for tb in tie_breaks)), None)
    for player in given.keys() - fresh:
        players[player] = kept[player]
    # in the earlier order first: a sort of rows nearly in order costs little
    before = [p for p in earlier.order if p in given] if kept else []
    order = before + sorted(given.keys() - set(before), key=str)
    keyed = sorted(((players[p][2], str(within.get(p, "")), str(p), p) for p in order), key=lambda item: item[:3])
    out, previous, rank = [], None, 0
    for i, (key, _name, _player, player) in enumerate(keyed):
        rank = rank if previous == key else i + 1
        mine, row, strength, shown = players[player]
        if shown is None or shown.rank != rank:
            shown = Row(rank, row.player, row.total, row.all_results, row.events, row.wins, row.scores)
            players[player] = (mine, row, strength, shown)
        out.append(shown)
        previous = key
    return out, Earlier(rules, worth, scale, longest, players, tuple(p for *_, p in keyed))

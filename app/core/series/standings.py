"""A series' standings: each player's events' points, the best N of them counted, ties broken as the TO chose.

docs/domain.md 14.2. A player's results are plain values (EventResult); the rows come back ranked, equal rows
(same total and every tie-break) sharing a rank.
"""
from __future__ import annotations

import math
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
    tie_breaks = named(rules.tie_breaks)
    # each result's points worked out once per (placing, field, multiplier): a few hundred distinct among thousands
    # of results; then counted and added as whole numbers of 1/scale (exact), as Fractions cost most of the ranking
    distinct = {(r.placing, r.field, r.multiplier) for mine in results.values() for r in mine}
    worth = {key: event_points(rules, *key) for key in distinct}
    scale = math.lcm(*{f.denominator for f in worth.values()}) if worth else 1
    whole_of = {key: f.numerator * (scale // f.denominator) for key, f in worth.items()}
    rows, wholes = [], {}
    for player, mine in results.items():
        if not mine:
            continue
        keys = [(r.placing, r.field, r.multiplier) for r in mine]
        ints = [whole_of[k] for k in keys]
        chosen = counted(ints, rules.best_n)
        scores = tuple(Score(r.event, r.placing, r.field, worth[k], i in chosen)
                       for i, (r, k) in enumerate(zip(mine, keys, strict=True)))
        total, every = sum(ints[i] for i in chosen), sum(ints)
        wholes[player] = (total, every)
        rows.append(Row(0, player, Fraction(total, scale), Fraction(every, scale), len(mine),
                        sum(1 for r in mine if r.placing == 1), scores))
    longest = max((row.events for row in rows), default=0)

    def strength(row: Row) -> tuple:
        total, every = wholes[row.player]
        line = Standing(every, tuple(s.placing for s in row.scores), row.wins, row.events, longest)
        return (-total, *(tb.key(line) for tb in tie_breaks))

    within = order_within or {}
    keyed = sorted(((strength(row), str(within.get(row.player, "")), str(row.player), row) for row in rows),
                   key=lambda item: item[:3])
    ranked, previous = [], None
    for i, (key, _name, _player, row) in enumerate(keyed):
        rank = ranked[-1].rank if previous == key else i + 1
        ranked.append(Row(rank, row.player, row.total, row.all_results, row.events, row.wins, row.scores))
        previous = key
    return ranked

"""Exact swiss tiebreakers and the standings order they give: what plain pairing ranks by and standings show.

Three systems (docs/domain.md 7), all higher-is-better:

* ``netrunner`` (Cobra): SoS, ESoS.
* ``magic`` (Magic Tournament Rules, appendix C): OMW%, GW%, OGW%. The MTR floor "0.33" is taken literally as
  Fraction(33, 100), not 1/3, to stay faithful to the rules text.
* ``wow`` (World of Warcraft TCG / MANTIS): opponents' win-loss sum (each opponent floored at -3), the sum of the
  opponents' first tiebreak, the sum of the squares of the rounds the player lost.
"""
from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Optional, Sequence

from .formats import Format
from .history import Record
from .types import PlayerId

TIEBREAKERS: dict[str, tuple[str, ...]] = {
    "netrunner": ("SoS", "ESoS"),
    "magic": ("OMW%", "GW%", "OGW%"),
    "wow": ("Opp W-L", "Opp Opp W-L", "Loss rounds²"),
}

MTR_FLOOR = Fraction(33, 100)  # MTR: "If this number is lower than 0.33, use 0.33 instead."
WOW_OPPONENT_FLOOR = -3  # MANTIS: no single opponent contributes worse than -3


def default_tiebreakers(fmt: Format) -> str:
    """Netrunner events (single- and double-sided) use Cobra's SoS/ESoS; plain swiss uses the MTR."""
    return Format(fmt).tiebreakers


Column = tuple[list[int], int]  # one tiebreaker: a numerator per entrant over one common denominator


def _mean(column: Column, opponents: list[list[int]]) -> Column:
    """Exact mean of the column over each entrant's opponents (repeats count; 0 if none), again as a column.

    Sums of int numerators, no Fraction per game: mean_i = sum(x_o) / (den * k_i) = sum(x_o) * (m // k_i) / (den * m)
    with m the lcm of the opponent counts k (a handful of distinct values, so m stays small)."""
    values, den = column
    get = values.__getitem__
    m = lcm(*{len(o) for o in opponents if o})
    return [sum(map(get, o)) * (m // len(o)) if o else 0 for o in opponents], den * m


def _floored(pairs: list, common: int, floor: Fraction) -> list[int]:
    """max(floor, num/den) for each (num, den) as a numerator over `common` (a multiple of every den and of the
    floor's denominator); (0, 0) gives 0 (no rounds: not the floor)."""
    low = floor.numerator * (common // floor.denominator)
    return [max(low, num * (common // den)) if den else 0 for num, den in pairs]


def _netrunner(fmt: Format, recs: list[Record], opponents: list[list[int]]) -> list[Column]:
    # A bye counts as a round with its points; an opponent always has at least the round against us.
    den = lcm(*{r.rounds for r in recs if r.rounds})
    per_round = [r.points * (den // r.rounds) if r.rounds else 0 for r in recs], den
    sos = _mean(per_round, opponents)
    return [sos, _mean(sos, opponents)]


def _magic(fmt: Format, recs: list[Record], opponents: list[list[int]]) -> list[Column]:
    """MW% = points / (round points x rounds); GW% and OGW% need the games of each match, which only plain
    swiss records (elsewhere GW% is 0). A player with no rounds (or no opponents) gets 0, not the floor."""
    s = fmt.scoring
    mw_den = lcm(MTR_FLOOR.denominator, *{s.round_points * r.rounds for r in recs if r.rounds})
    mw = _floored([(r.points, s.round_points * r.rounds) for r in recs], mw_den, MTR_FLOOR)
    # a bye is in game_wins (Scoring.bye_game_wins)
    played = [r.game_wins + r.game_losses + r.game_draws for r in recs]
    gw_den = lcm(MTR_FLOOR.denominator, *{s.win * n for n in played if n})
    gw = _floored([(s.win * r.game_wins + s.tie * r.game_draws, s.win * n) for r, n in zip(recs, played, strict=True)],
                  gw_den, MTR_FLOOR)
    return [_mean((mw, mw_den), opponents), (gw, gw_den), _mean((gw, gw_den), opponents)]


def _wow(fmt: Format, recs: list[Record], opponents: list[list[int]]) -> list[Column]:
    own = [max(WOW_OPPONENT_FLOOR, r.wins - r.losses) for r in recs]
    first = [sum(map(own.__getitem__, o)) for o in opponents]
    second = [sum(map(first.__getitem__, o)) for o in opponents]
    return [(first, 1), (second, 1), ([sum(k * k for k in r.lost_rounds) for r in recs], 1)]


def _fractions(column: Column) -> list[Fraction]:
    """The column's exact values, one Fraction per distinct numerator."""
    nums, den = column
    exact = {n: Fraction(n, den) for n in set(nums)}
    return list(map(exact.__getitem__, nums))


_SYSTEMS = {"netrunner": _netrunner, "magic": _magic, "wow": _wow}


def ranking_keys(
    fmt: Format, ids: Sequence[PlayerId], records: Sequence[Record], system: Optional[str] = None,
) -> tuple[list[tuple], list[Column]]:
    """Each entrant's sort key (ascending = standings order): -points, the negated tiebreaker numerators over
    their common denominators (ints order exactly as the Fractions do), then the id's text; and the columns."""
    system = system or default_tiebreakers(fmt)
    if system not in _SYSTEMS:
        raise ValueError(f"unknown tiebreaker system {system!r}; choose one of {', '.join(TIEBREAKERS)}")
    index = {p: i for i, p in enumerate(ids)}.__getitem__
    opponents = [list(map(index, r.opponents)) for r in records]
    columns = _SYSTEMS[system](fmt, list(records), opponents)
    keys = list(zip([-r.points for r in records], *([-n for n in nums] for nums, _ in columns), map(str, ids),
                    strict=True))
    return keys, columns


def standings_order(
    fmt: Format, ids: Sequence[PlayerId], records: Sequence[Record], system: Optional[str] = None,
) -> tuple[list[int], list[tuple]]:
    """Indices into `ids` in standings order (points, the tiebreakers, then the id's text; the stable sort
    keeps entrant order among equal texts), and each entrant's exact tiebreakers (a tuple of Fractions, in the
    order of TIEBREAKERS[system])."""
    keys, columns = ranking_keys(fmt, ids, records, system)
    order = sorted(range(len(ids)), key=keys.__getitem__)
    return order, list(zip(*map(_fractions, columns), strict=True))

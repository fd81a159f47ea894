"""Swiss standings with exact tiebreakers, recomputed from the game history in time linear in the games.

Three tiebreaker systems (DOMAIN.md 4), all higher-is-better:

* ``netrunner`` (Cobra): SoS, ESoS.
* ``magic`` (Magic Tournament Rules, appendix C): OMW%, GW%, OGW%. The MTR floor "0.33" is taken literally as
  Fraction(33, 100), not 1/3, to stay faithful to the rules text.
* ``wow`` (World of Warcraft TCG / MANTIS): opponents' win-loss sum (each opponent floored at -3), the sum of the
  opponents' first tiebreak, the sum of the squares of the rounds the player lost.

Points always come from the games themselves; per-format constants come from ``pairing.formats.Scoring``.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Iterable, Optional, Sequence

from .pairing.formats import Format
from .pairing.history import History, Record, gc_paused
from .pairing.types import Entrant, Game, PlayerId

TIEBREAKERS: dict[str, tuple[str, ...]] = {
    "netrunner": ("SoS", "ESoS"),
    "magic": ("OMW%", "GW%", "OGW%"),
    "wow": ("Opp W-L", "Opp Opp W-L", "Loss rounds²"),
}

MTR_FLOOR = Fraction(33, 100)  # MTR: "If this number is lower than 0.33, use 0.33 instead."
WOW_OPPONENT_FLOOR = -3  # MANTIS: no single opponent contributes worse than -3


@dataclass
class Standing:
    rank: int
    player: PlayerId
    name: str
    points: int
    wins: int  # rounds won (byes count as wins), lost, tied
    losses: int
    ties: int
    byes: int
    rounds: int  # rounds played, byes included
    games: int  # real games (rounds without the byes)
    corp: int  # single-sided games played as Corp / Runner
    runner: int
    side_bias: int  # corp - runner
    tiebreakers: tuple  # of Fraction, in the order of TIEBREAKERS[system]
    dropped: bool = False

    @property
    def side_label(self) -> str:
        if self.side_bias > 0:
            return f"Corp +{self.side_bias}"
        if self.side_bias < 0:
            return f"Runner +{-self.side_bias}"
        return "Balanced"


def default_tiebreakers(fmt: Format) -> str:
    """Netrunner events (single- and double-sided) use Cobra's SoS/ESoS; plain swiss uses the MTR."""
    return "magic" if Format(fmt) is Format.PLAIN else "netrunner"


def recommended_rounds(n_players: int) -> int:
    """ceil(log2(n)): enough rounds that one undefeated player remains (0 for 0 or 1 players)."""
    return max(0, n_players - 1).bit_length()


Column = tuple[list[int], int]  # one tiebreaker: a numerator per entrant over one common denominator


def _mean(column: Column, opponents: list[list[int]]) -> Column:
    """Exact mean of the column over each entrant's opponents (repeats count; 0 if none), again as a column.

    Sums of int numerators, no Fraction per game: mean_i = sum(x_o) / (den * k_i) = sum(x_o) * (m // k_i) / (den * m)
    with m the lcm of the opponent counts k (a handful of distinct values, so m stays small)."""
    values, den = column
    get = values.__getitem__
    m = lcm(*{len(o) for o in opponents if o})
    return [sum(map(get, o)) * (m // len(o)) if o else 0 for o in opponents], den * m


def _floored(num: int, den: int, common: int, floor: Fraction) -> int:
    """max(floor, num/den) as a numerator over `common` (a multiple of den and of the floor's denominator)."""
    return max(floor.numerator * (common // floor.denominator), num * (common // den))


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
    mw = [_floored(r.points, s.round_points * r.rounds, mw_den, MTR_FLOOR) if r.rounds else 0 for r in recs]
    # a bye is in game_wins (Scoring.bye_game_wins)
    played = [r.game_wins + r.game_losses + r.game_draws for r in recs]
    gw_den = lcm(MTR_FLOOR.denominator, *{s.win * n for n in played if n})
    gw = [_floored(s.win * r.game_wins + s.tie * r.game_draws, s.win * n, gw_den, MTR_FLOOR) if n else 0
          for r, n in zip(recs, played)]
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


def compute_standings(
    fmt: Format,
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    *,
    tiebreakers: Optional[str] = None,
) -> list[Standing]:
    """Every entrant (dropped ones flagged, still ranked) sorted by points, then the tiebreakers, then id.

    Ranks are strict, 1..n. Byes are never opponents; dropped players still are.
    Raises ValueError for an unknown tiebreaker system or a game naming a player who is not an entrant.
    """
    fmt = Format(fmt)
    system = tiebreakers or default_tiebreakers(fmt)
    if system not in _SYSTEMS:
        raise ValueError(f"unknown tiebreaker system {system!r}; choose one of {', '.join(TIEBREAKERS)}")
    entrants = list(entrants)
    ids = [e.id for e in entrants]
    known = set(ids)
    if len(known) != len(ids):
        raise ValueError("duplicate entrant ids")
    with gc_paused():
        records = History(fmt, games, ids).records
        strangers = [p for p in records if p not in known] if len(records) != len(known) else []
        if strangers:
            raise ValueError("games name players who are not entrants: " + ", ".join(map(str, strangers)))
        recs = [records[p] for p in ids]
        index = {p: i for i, p in enumerate(ids)}.__getitem__
        opponents = [list(map(index, r.opponents)) for r in recs]
        columns = _SYSTEMS[system](fmt, recs, opponents)
        # Sort on ints: numerators over a common denominator order exactly as the Fractions do. The last key is
        # the id's text; the stable sort keeps entrant order among equal texts.
        keys = list(zip([-r.points for r in recs], *([-n for n in nums] for nums, _ in columns), map(str, ids)))
        order = sorted(range(len(ids)), key=keys.__getitem__)
        tbs = list(zip(*map(_fractions, columns)))
        rows = []
        for rank, i in enumerate(order, 1):
            e, r = entrants[i], recs[i]
            rows.append(Standing(
                rank=rank, player=e.id, name=e.label, points=r.points, wins=r.wins, losses=r.losses, ties=r.ties,
                byes=r.byes, rounds=r.rounds, games=r.games, corp=r.corp, runner=r.runner, side_bias=r.bias,
                tiebreakers=tbs[i], dropped=e.dropped,
            ))
    return rows

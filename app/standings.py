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

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Iterable, Optional, Sequence

from .pairing.formats import Format
from .pairing.history import History, Record
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


def _ratio(num: int, den: int) -> Fraction:
    return Fraction(num, den) if den else Fraction(0)


def _mean(values: dict, opponents: list) -> Fraction:
    """Exact mean of values[o] over the opponents (repeats count), 0 if none.

    Numerators are summed per denominator as ints first: few distinct denominators, so this stays cheap
    at 20,000 players."""
    if not opponents:
        return Fraction(0)
    by_den: dict[int, int] = defaultdict(int)
    for o in opponents:
        v = values[o]
        by_den[v.denominator] += v.numerator
    common = lcm(*by_den)
    return Fraction(sum(n * (common // d) for d, n in by_den.items()), common * len(opponents))


def _netrunner(fmt: Format, records: dict[PlayerId, Record]) -> dict[PlayerId, tuple]:
    # A bye counts as a round with its points; an opponent always has at least the round against us.
    per_round = {p: _ratio(r.points, r.rounds) for p, r in records.items()}
    sos = {p: _mean(per_round, r.opponents) for p, r in records.items()}
    return {p: (sos[p], _mean(sos, r.opponents)) for p, r in records.items()}


def _magic(fmt: Format, records: dict[PlayerId, Record]) -> dict[PlayerId, tuple]:
    """MW% = points / (round points x rounds); GW% and OGW% need the games of each match, which only plain
    swiss records (elsewhere GW% is 0). A player with no rounds (or no opponents) gets 0, not the floor."""
    s = fmt.scoring
    mw, gw = {}, {}
    for p, r in records.items():
        mw[p] = max(MTR_FLOOR, _ratio(r.points, s.round_points * r.rounds)) if r.rounds else Fraction(0)
        played = r.game_wins + r.game_losses + r.game_draws  # a bye is in game_wins (Scoring.bye_game_wins)
        game_points = s.win * r.game_wins + s.tie * r.game_draws
        gw[p] = max(MTR_FLOOR, _ratio(game_points, s.win * played)) if played else Fraction(0)
    return {p: (_mean(mw, r.opponents), gw[p], _mean(gw, r.opponents)) for p, r in records.items()}


def _wow(fmt: Format, records: dict[PlayerId, Record]) -> dict[PlayerId, tuple]:
    own = {p: max(WOW_OPPONENT_FLOOR, r.wins - r.losses) for p, r in records.items()}
    first = {p: sum(own[o] for o in r.opponents) for p, r in records.items()}
    return {
        p: (Fraction(first[p]), Fraction(sum(first[o] for o in r.opponents)),
            Fraction(sum(k * k for k in r.lost_rounds)))
        for p, r in records.items()
    }


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
    ids = [e.id for e in entrants]
    known = set(ids)
    if len(known) != len(ids):
        raise ValueError("duplicate entrant ids")
    records = History(fmt, games, ids).records
    strangers = [p for p in records if p not in known] if len(records) != len(known) else []
    if strangers:
        raise ValueError("games name players who are not entrants: " + ", ".join(map(str, strangers)))
    tbs = _SYSTEMS[system](fmt, records)

    rows = []
    for e in entrants:
        r = records[e.id]
        rows.append(Standing(
            rank=0, player=e.id, name=e.label, points=r.points, wins=r.wins, losses=r.losses, ties=r.ties,
            byes=r.byes, rounds=r.rounds, games=r.games, corp=r.corp, runner=r.runner, side_bias=r.bias,
            tiebreakers=tbs[e.id], dropped=e.dropped,
        ))
    rows.sort(key=lambda s: str(s.player))  # final key; the stable sort below keeps it among equals
    rows.sort(key=lambda s: (s.points, s.tiebreakers), reverse=True)
    for i, s in enumerate(rows, 1):
        s.rank = i
    return rows

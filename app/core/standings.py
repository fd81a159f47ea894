"""Swiss standings with exact tiebreakers, recomputed from the game history in time linear in the games.

The tiebreaker systems and the order they give live in the engine (``pairing.tiebreakers``), which plain
pairing ranks by; this module turns them into the rows that pages, exports and the API show.
Points always come from the games themselves; per-format constants come from ``pairing.formats.Scoring``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from .pairing.formats import Format
from .pairing.history import History, gc_paused
from .pairing.tiebreakers import TIEBREAKERS, default_tiebreakers, standings_order
from .pairing.types import Entrant, Game, PlayerId

__all__ = ["TIEBREAKERS", "Standing", "compute_standings", "counted_games", "default_tiebreakers",
           "recommended_rounds"]


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


def recommended_rounds(n_players: int) -> int:
    """ceil(log2(n)): enough rounds that one undefeated player remains (0 for 0 or 1 players)."""
    return max(0, n_players - 1).bit_length()


def counted_games(games: Iterable[Game], open_rounds: Iterable[int]) -> list[Game]:
    """The games the standings count: a bye (scored when the round is paired) counts once its round is
    complete, every table reported. Mid-round, the bye's player keeps the points they had before the round,
    like everyone else, as in Cobra (docs/domain.md 7)."""
    open_rounds = set(open_rounds)
    return [g for g in games if g.opponent is not None or g.round not in open_rounds]


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
        order, tbs = standings_order(fmt, ids, recs, tiebreakers)
        rows = []
        for rank, i in enumerate(order, 1):
            e, r = entrants[i], recs[i]
            rows.append(Standing(
                rank=rank, player=e.id, name=e.label, points=r.points, wins=r.wins, losses=r.losses, ties=r.ties,
                byes=r.byes, rounds=r.rounds, games=r.games, corp=r.corp, runner=r.runner, side_bias=r.bias,
                tiebreakers=tbs[i], dropped=e.dropped,
            ))
    return rows

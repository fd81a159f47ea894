"""Swiss standings with exact tiebreakers, recomputed from the game history in time linear in the games.

The tiebreaker systems and the order they give live in the engine (``pairing.tiebreakers``), which plain
pairing ranks by; this module turns them into the rows that pages, exports and the API show.
Points always come from the games themselves; per-format constants come from ``pairing.formats.Scoring``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Collection, Iterable, Mapping, Optional, Sequence

from .pairing.formats import Format
from .pairing.history import History, gc_paused
from .pairing.tiebreakers import TIEBREAKERS, default_tiebreakers, standings_order
from .pairing.types import Entrant, Game, PlayerId

__all__ = ["TIEBREAKERS", "Standing", "compute_standings", "counted_games", "default_tiebreakers",
           "recommended_rounds", "seeds_first", "RankChange", "rank_changes"]


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
    disqualified: bool = False  # listed after everyone who was not, holding no placing (docs/domain.md 7)

    @property
    def placed(self) -> bool:
        """Holds a placing: counted in "place N of M" (a disqualified player is listed last, without one)."""
        return not self.disqualified

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
    tie_order: Optional[Mapping[PlayerId, int]] = None,
    disqualified: Collection[PlayerId] = (),
    left_out: Collection[PlayerId] = (),
) -> list[Standing]:
    """Every entrant (dropped ones flagged, still ranked) sorted by points, then the tiebreakers, then id.

    `left_out` (players out before they ever played, app/core/player_state.py `did_not_play`) have no row: they are
    not in the event's results. `disqualified` players come after everyone else (in the order their games give
    among themselves), flagged: no placing ahead of anyone who played (docs/domain.md 7). Both still count as
    entrants for the others' tiebreakers (a disqualified player was a real opponent).

    `tie_order` (an imported file's swiss ranks, Player.file_rank) orders players equal on points and every
    tiebreaker before the id does, so an imported event keeps the file's order of its exact ties (docs/domain.md
    7); players it does not rank follow those it does.
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
        if tie_order:
            last = len(ids) + max(tie_order.values(), default=0)
            order.sort(key=lambda i: (-recs[i].points, tuple(-x for x in tbs[i]), tie_order.get(ids[i], last)))
        left_out, disqualified = set(left_out), set(disqualified)
        order = [i for i in order if ids[i] not in left_out]
        if disqualified:
            order.sort(key=lambda i: ids[i] in disqualified)  # stable: each part keeps its order
        rows = []
        for rank, i in enumerate(order, 1):
            e, r = entrants[i], recs[i]
            rows.append(Standing(
                rank=rank, player=e.id, name=e.label, points=r.points, wins=r.wins, losses=r.losses, ties=r.ties,
                byes=r.byes, rounds=r.rounds, games=r.games, corp=r.corp, runner=r.runner, side_bias=r.bias,
                tiebreakers=tbs[i], dropped=e.dropped, disqualified=e.id in disqualified,
            ))
    return rows


def seeds_first(rows: Sequence[Standing], seeds: Sequence[PlayerId]) -> list[Standing]:
    """The swiss standings once a cut exists (docs/domain.md 8): the cut's players first, in seed order, then
    everyone else in swiss order, ranked 1..n again. At the cut they are the same order (the seeds are the top
    of the standings, less anyone dropped or excluded); after the organizer confirms a swiss correction they
    stay the order the bracket was drawn with, so no page or export says otherwise. A disqualified player stays
    last, seed or not: no placing ahead of anyone who played."""
    at = {p: i for i, p in enumerate(seeds)}
    ordered = sorted(rows, key=lambda r: (2, r.rank) if r.disqualified else (0, at[r.player]) if r.player in at
                     else (1, r.rank))
    return [r if r.rank == rank else replace(r, rank=rank) for rank, r in enumerate(ordered, 1)]


@dataclass(frozen=True)
class RankChange:
    """One player's swiss line before and after a result change."""

    name: str
    rank: int
    new_rank: int
    points: int
    new_points: int
    seed: Optional[int]  # their seed in the cut, if they are in it


def rank_changes(before: Sequence[Standing], after: Sequence[Standing], seeds: Sequence[PlayerId]) -> list[RankChange]:
    """Who moves (rank or points) when `before` becomes `after` (both plain swiss order), seeds first."""
    seed_of = {p: i for i, p in enumerate(seeds, 1)}
    old = {r.player: r for r in before}
    changes = [RankChange(r.name, old[r.player].rank, r.rank, old[r.player].points, r.points, seed_of.get(r.player))
               for r in after if r.player in old and (old[r.player].rank, old[r.player].points) != (r.rank, r.points)]
    return sorted(changes, key=lambda c: (c.seed is None, c.seed or 0, c.new_rank))

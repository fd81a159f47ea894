"""Plain (Magic-style) swiss: the next round from the history, with swisspair's pods and its strictly
lexicographic down-pair cost (plain_cost.py), exact and fast.

The parts: the problem (plain_field.py), the fast exact solve top down (plain_solve.py) with its relaxation
(plain_relaxation.py) and exact blocks (plain_exact_block.py, plain_exact.py), and the networkx reference on the
whole field (plain_exact.py).

Hard rules: no rematch ever; the bye goes only to a player with the fewest byes (widened one bye at a time only
when no pairing exists otherwise); first-round byes as requested; dropped players are never paired. Power pairing
makes every player their own pod, in standings order (1-2, 3-4, ...).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Sequence

from .byes import bye_limits
from .formats import Format
from .history import History
from .plain_cost import LexCost
from .plain_exact import solve_reference
from .plain_field import Field, Infeasible
from .plain_solve import solve_fast
from .strength import seed_cells
from .tables import number_tables
from .tiebreakers import ranking_keys
from .types import Entrant, Game, PairingError, RoundPlan

__all__ = ["SOLVERS", "LexCost", "PlainRound", "pair_plain", "prepare"]

SOLVERS = ("auto", "fast", "networkx")


def pair_plain(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    round_number: int,
    seed,
    power_pairing: bool = False,
    solver: str = "auto",
    strengths=None,
) -> RoundPlan:
    """Pair the next plain-swiss round. Raises PairingError naming the players when no legal pairing exists.

    `solver`: "networkx" is the reference (complete graph, big-int weights); "fast"/"auto" is the exact fast
    path (plain_solve.py). Pairing.player is the higher-ranked player."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; choose one of {', '.join(SOLVERS)}")
    rng = random.Random(f"{seed}:{round_number}")
    field = prepare(entrants, games, round_number, rng)
    active, requested, ranked, points, byes, met = (
        field.active, field.requested, field.ranked, field.points, field.byes, field.met)
    index = {p: i for i, p in enumerate(ranked)}
    tiers = bye_limits(byes.values(), odd=len(ranked) % 2 == 1)
    unmatched: list = []
    for limit in tiers:
        problem = Field([points[p] for p in ranked], met, [byes[p] <= limit for p in ranked], power_pairing, rng)
        try:
            pairs, how = solve_fast(problem) if solver != "networkx" else (solve_reference(problem), "networkx")
            break
        except Infeasible as failure:
            unmatched = [ranked[i] for i in failure.unmatched if 0 <= i < problem.n]
    else:
        by_id = {e.id: e for e in active}
        raise PairingError(f"No legal pairing for round {round_number}", [by_id[p] for p in unmatched])

    if strengths is not None and not power_pairing:
        pairs = _seeded(problem, pairs, ranked, strengths, f"{seed}:{round_number}")
    games_out, bye_takers = [], []
    for u, v in pairs:
        u, v = min(u, v), max(u, v)
        if v == problem.n:
            bye_takers.append(ranked[u])
        else:
            games_out.append((ranked[u], ranked[v]))
    fixed = {e.id: e.fixed_table for e in active if e.fixed_table is not None}
    pairings = number_tables(
        games_out, requested + bye_takers, points, fixed,
        sort_key=lambda g: (-points[g[0]], -points[g[1]], index[g[0]]),
    )
    return RoundPlan(round=round_number, pairings=pairings, total_cost=problem.cost(pairs), notes=[how])


def _seeded(problem: Field, pairs, ranked: list, strengths, seed) -> list:
    """Games re-paired by strength inside their pod cells (strength.py); the bye stays. A pair's cost is its pods'
    down-pair type, so the lexicographic cost is unchanged (checked; should it differ, the engine's pairs stand).
    Power pairing has a pod per player: nothing to choose."""
    games = [(u, v) for u, v in pairs if problem.n not in (u, v)]
    rest = [(u, v) for u, v in pairs if problem.n in (u, v)]
    by_index = {i: strengths[p] for i, p in enumerate(ranked) if p in strengths}
    out = seed_cells(games, problem.pod.__getitem__, lambda u, v: v not in problem.met[u], by_index,
                     random.Random(f"{seed}:strength"))
    out += rest
    return out if problem.cost(out) == problem.cost(pairs) else pairs


@dataclass
class PlainRound:
    """One plain round's inputs once the history is folded: who is paired, in what order, who met whom."""

    active: list  # entrants not dropped
    requested: list  # ids with a requested (first-round) bye: not paired
    ranked: list  # the ids to pair, in standings order (a seeded coin deciding full ties)
    points: dict
    byes: dict
    met: list  # met[i]: indices into `ranked` of the players ranked[i] has played

    def down_pairs(self, pairs: Iterable[tuple], power: bool = False) -> LexCost:
        """The swisspair cost of any pairing of `ranked` ((id, id) pairs, (id, None) for the bye)."""
        index = {p: i for i, p in enumerate(self.ranked)}
        n = len(self.ranked)
        problem = Field([self.points[p] for p in self.ranked], self.met, [True] * n, power, random.Random(0))
        return problem.cost((index[u], n if v is None else index[v]) for u, v in pairs)


def prepare(entrants: Sequence[Entrant], games: Sequence[Game], round_number: int, rng: random.Random) -> PlainRound:
    """Fold the history and rank the players to pair (`rng` breaks full ties)."""
    active = [e for e in entrants if not e.dropped]
    requested = [e.id for e in active if e.asks_bye(round_number)]
    skip = {e.id for e in entrants if e.dropped or e.id in requested}
    ids = [e.id for e in entrants]
    records = History(Format.PLAIN, games, ids).records
    if len(records) != len(ids):
        known = set(ids)
        raise ValueError("games name players who are not entrants: " + ", ".join(str(p) for p in records
                                                                                 if p not in known))
    recs = [records[p] for p in ids]
    keys, _ = ranking_keys(Format.PLAIN, ids, recs)
    order = sorted((i for i, p in enumerate(ids) if p not in skip), key=keys.__getitem__)
    ranked = _rank([(ids[i], keys[i][:-1]) for i in order], rng)
    index = {p: i for i, p in enumerate(ranked)}
    # from the fold's opponent lists rather than the games again (half the work, deep into an event)
    met = [{index[o] for o in records[p].opponents if o in index} for p in ranked]
    return PlainRound(active, requested, ranked, {p: records[p].points for p in ranked},
                      {p: records[p].byes for p in ranked}, met)


def _rank(standings: list, rng: random.Random) -> list:
    """Standings order (points, then the MTR tiebreakers), a seeded coin deciding full ties (all of round 1).

    `standings`: (player, key of points and tiebreakers) in standings order."""
    group, last, number = {}, None, 0
    for player, key in standings:  # sorted: number the runs of equal points and tiebreakers
        if key != last:
            last, number = key, number + 1
        group[player] = (number, rng.random())
    return sorted(group, key=group.__getitem__)

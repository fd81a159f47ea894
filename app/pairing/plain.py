"""Plain (Magic-style) swiss: swisspair's pods and strictly lexicographic down-pair cost, exact and fast.

The cost. Pods are the groups of equal match points, pod 0 the highest; an odd field adds a phantom bye that lives
alone in a pod below the lowest. A pair from pods x < y is a down-pair of *type* (x, y); a same-pod pair is free.
Types are ranked by x ascending, then y descending (C(1,4) > C(1,3) > C(1,2) > C(2,4) > C(2,3) > C(3,4)), and any
number of down-pairs of lower types costs less than one of a higher type. So a pairing's cost is its vector of
type counts compared lexicographically (`LexCost`), which is exactly the order swisspair's recursive big numbers
C(x, y) encode; the networkx reference uses the equivalent weights B**rank (B = pairs + 1) as Python ints.
Hard rules: no rematch ever; the bye goes only to a player with the fewest byes (widened one bye at a time only
when no pairing exists otherwise); first-round byes as requested; dropped players are never paired.
Power pairing makes every player their own pod, in standings order (1-2, 3-4, ...).
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

import networkx as nx

from .byes import bye_limits
from .formats import Format
from .history import History
from .tables import number_tables
from .tiebreakers import standings_order
from .types import Entrant, Game, PairingError, RoundPlan

SOLVERS = ("auto", "fast", "networkx")


@dataclass(frozen=True, order=True)
class LexCost:
    """Exact plain-swiss cost: down-pair counts by type, most expensive type first; compares lexicographically.

    `key` holds ((-x, y), count) for every type (x, y) used, sorted descending, so plain tuple comparison is the
    swisspair order: the first differing type decides, and more of a more expensive type is worse."""

    key: tuple = ()

    @classmethod
    def of(cls, counts: dict) -> "LexCost":
        return cls(tuple(sorted((((-x, y), c) for (x, y), c in counts.items() if c), reverse=True)))

    @property
    def counts(self) -> dict:
        """{(higher pod, lower pod): number of down-pairs}, pods numbered from 0 (the top)."""
        return {(-nx_, y): c for (nx_, y), c in self.key}

    def __str__(self) -> str:
        return ", ".join(f"{c}x({-nx_},{y})" for (nx_, y), c in self.key) or "0"


class _Infeasible(Exception):
    def __init__(self, unmatched):
        self.unmatched = list(unmatched)


def pair_plain(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    round_number: int,
    seed,
    power_pairing: bool = False,
    solver: str = "auto",
) -> RoundPlan:
    """Pair the next plain-swiss round. Raises PairingError naming the players when no legal pairing exists.

    `solver`: "networkx" is the reference (complete graph, big-int weights); "fast"/"auto" is the exact fast
    path (see `_Field.solve_fast`). Pairing.player is the higher-ranked player."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; choose one of {', '.join(SOLVERS)}")
    rng = random.Random(f"{seed}:{round_number}")
    active = [e for e in entrants if not e.dropped]
    requested = [e.id for e in active if e.asks_bye(round_number)]
    skip = {e.id for e in entrants if e.dropped or e.id in requested}
    ids = [e.id for e in entrants]
    records = History(Format.PLAIN, games, ids).records
    if len(records) != len(ids):
        raise ValueError("games name players who are not entrants: "
                         + ", ".join(str(p) for p in records if p not in set(ids)))
    recs = [records[p] for p in ids]
    order, tiebreakers = standings_order(Format.PLAIN, ids, recs)
    standings = [(ids[i], recs[i].points, tiebreakers[i]) for i in order if ids[i] not in skip]
    ranked = _rank(standings, rng)
    points = {p: records[p].points for p in ranked}
    byes = {p: records[p].byes for p in ranked}
    index = {p: i for i, p in enumerate(ranked)}
    met: list[set] = [set() for _ in ranked]
    for g in games:
        if g.opponent is not None and g.player in index and g.opponent in index:
            met[index[g.player]].add(index[g.opponent])
            met[index[g.opponent]].add(index[g.player])
    tiers = bye_limits(byes.values(), odd=len(ranked) % 2 == 1)
    unmatched: list = []
    for limit in tiers:
        problem = _Field([points[p] for p in ranked], met, [byes[p] <= limit for p in ranked], power_pairing, rng)
        try:
            pairs, how = problem.solve_fast() if solver != "networkx" else (problem.solve_reference(), "networkx")
            break
        except _Infeasible as failure:
            unmatched = [ranked[i] for i in failure.unmatched if i < problem.n]
    else:
        by_id = {e.id: e for e in active}
        raise PairingError(f"No legal pairing for round {round_number}", [by_id[p] for p in unmatched])

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


def _rank(standings: list, rng: random.Random) -> list:
    """Standings order (points, then the MTR tiebreakers), a seeded coin deciding full ties (all of round 1).

    `standings`: (player, points, tiebreakers) in standings order."""
    group, last, number = {}, None, 0
    for player, points, tiebreakers in standings:  # sorted: number the runs of equal points and tiebreakers
        key = (points, *((t.numerator, t.denominator) for t in tiebreakers))  # ints compare faster
        if key != last:
            last, number = key, number + 1
        group[player] = (number, rng.random())
    return sorted(group, key=group.__getitem__)


class _Field:
    """One pairing problem: players 0..n-1 in standings order, node n the phantom bye when n is odd."""

    def __init__(self, points: list, met: list, eligible: list, power: bool, rng: random.Random):
        self.n = n = len(points)
        self.met = met  # met[i]: the players i has played
        self.eligible = eligible  # may take the bye
        if power:
            self.pod = list(range(n))
        else:
            levels = {pts: k for k, pts in enumerate(sorted(set(points), reverse=True))}
            self.pod = [levels[pts] for pts in points]
        self.npods = (self.pod[-1] + 1) if n else 0  # real pods; the bye pod is number npods
        self.bye = n if n % 2 else None
        order = list(range(n))
        rng.shuffle(order)
        self.pods: list[list[int]] = [[] for _ in range(self.npods)]  # each pod in seeded random order
        for i in order:
            self.pods[self.pod[i]].append(i)

    # ---------------------------------------------------------------- cost

    def pod_of(self, v: int) -> int:
        return self.npods if v == self.bye else self.pod[v]

    def cost(self, pairs: Iterable[tuple]) -> LexCost:
        counts: Counter = Counter()
        for u, v in pairs:
            x, y = sorted((self.pod_of(u), self.pod_of(v)))
            if x != y:
                counts[(x, y)] += 1
        return LexCost.of(counts)

    def allowed(self, u: int, v: int) -> bool:
        if u == self.bye or v == self.bye:
            return self.eligible[v if u == self.bye else u]
        return v not in self.met[u]

    # ---------------------------------------------------------------- exact matching (networkx, big ints)

    def _exact(self, nodes: list, edges: list, counted: Optional[set] = None) -> list:
        """Minimum-LexCost perfect matching of `edges` [(u, v, type or None)] by networkx with B**rank weights.

        Only types whose higher pod is in `counted` cost anything (all types when None). Raises _Infeasible."""
        types = sorted({t for _, _, t in edges if t and (counted is None or t[0] in counted)},
                       key=lambda t: (-t[0], t[1]))  # least expensive first
        base = len(nodes) // 2 + 1
        weight = {t: base**r for r, t in enumerate(types)}
        big = base ** len(types)
        graph = nx.Graph()
        graph.add_nodes_from(nodes)
        graph.add_weighted_edges_from((u, v, big - weight.get(t, 0)) for u, v, t in edges)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) < len(nodes):
            covered = {v for e in matching for v in e}
            raise _Infeasible(v for v in nodes if v not in covered)
        return [tuple(e) for e in matching]

    def _type(self, u: int, v: int) -> Optional[tuple]:
        x, y = sorted((self.pod_of(u), self.pod_of(v)))
        return (x, y) if x != y else None

    def solve_reference(self) -> list:
        """The reference: every legal edge, one networkx max-weight max-cardinality matching."""
        nodes = list(range(self.n)) + ([self.bye] if self.bye is not None else [])
        edges = [(u, v, self._type(u, v)) for u in nodes for v in nodes if u < v and self.allowed(u, v)]
        return self._exact(nodes, edges)

    # ---------------------------------------------------------------- fast exact path

    def relaxed_plan(self) -> tuple[Optional[int], list]:
        """The optimum with rematches ignored (a lower bound): the bye pod and the segments of the chain.

        Without rematches players of a pod differ only in bye eligibility. The bye goes to the lowest pod with an
        eligible player (any higher bye pair is a worse type of its stage); then, top down, a pod left odd sends
        one player to the next pod with a player left: each stage gets at most one down-pair, to the nearest
        possible pod, which nothing beats given the stages above. Returns the bye pod and the segments: maximal
        runs of pods [a, b] such that no pair of the chain crosses the boundary below b.
        """
        avail = [len(p) for p in self.pods]
        bye_pod = None
        if self.bye is not None:
            bye_pod = max(x for x in range(self.npods) if any(self.eligible[v] for v in self.pods[x]))
            avail[bye_pod] -= 1
        segments, start, carry = [], 0, False
        for x in range(self.npods):
            if carry and avail[x]:
                avail[x] -= 1
                carry = False
            if avail[x] % 2:
                carry = True
            crossing = carry or (bye_pod is not None and bye_pod <= x)
            if not crossing or x == self.npods - 1:
                segments.append((start, x))
                start = x + 1
        return bye_pod, segments

    def solve_fast(self) -> tuple[list, str]:
        """Exact: the relaxation's chain, certified segment by segment, exact networkx only where it fails.

        Why it is exact. Group types by their higher pod x ("stage x"); stage x comes before stage x+1 in the
        order, so for a boundary b the stages above b (the *prefix*) decide first. Cut lemma: let L be the optimum
        of a relaxation of the problem on pods a.. (so L <= every pairing) with no pair crossing b, and M a real
        pairing of pods a..b alone whose prefix equals L's. Any pairing's prefix is >= L's, and one with an equal
        prefix crosses b with no pair (each crossing pair is a prefix type that L does not use), so it splits at
        b; hence M plus an optimum of pods b+1.. is optimal (when pods b+1.. can be paired at all).
        Segments of the rematch-free chain (`relaxed_plan`) are first built greedily in seeded order with small
        repairs; one that reproduces its part of the chain is certified by the lemma with L = the relaxation.
        A segment that cannot is solved by networkx on H = its players plus "sinks": the nearest players below
        with their rematches ignored (each real partner below maps to a sink no lower, so this is a relaxation
        of the rest of the field) and the bye. If that optimum crosses no pair below H, its H part is real and
        the lemma applies; otherwise H takes in the next segment (the last pod ends this: H is the whole rest).
        If the rest below a cut turns out unpairable, the lemma's side condition failed: the block above the cut
        is taken back into H (up to the whole field, where networkx then names the players left unpaired).
        """
        if self.n == 0:
            return [], "fast"
        bye_pod, segments = self.relaxed_plan()
        blocks: list = []  # committed, top down: (first segment, last segment, pairs, solved by networkx)
        i = 0
        while i < len(segments):
            built = self._construct(segments[i], bye_pod)
            if built is not None:
                blocks.append((i, i, built, False))
                i += 1
                continue
            j = i
            while True:
                try:
                    solved, crossing = self._hybrid(segments[i][0], segments[j][1])
                except _Infeasible:  # the rest cannot be paired below the last cut: take the block above back
                    if blocks:
                        i = blocks.pop()[0]
                    elif j < len(segments) - 1:
                        j = len(segments) - 1  # no pairing at all: the exact whole field names who is left
                    else:
                        raise
                    continue
                if not crossing or j == len(segments) - 1:
                    break
                j += 1
            blocks.append((i, j, solved, True))
            i = j + 1
        hard = sum(last - first + 1 for first, last, _, exact in blocks if exact)
        how = f"fast: {len(segments) - hard} of {len(segments)} segments certified by the relaxation"
        return [p for block in blocks for p in block[2]], how + (f", {hard} solved exactly with networkx" if hard else "")

    def _construct(self, segment: tuple, bye_pod: Optional[int]) -> Optional[list]:
        """The segment's part of the relaxed chain with real players, or None when rematches get in the way."""
        met = self.met
        pairs: list = []
        carry = None  # the player floating down, and where its own pod's pairs sit in `pairs`
        src = (0, 0)
        for x in range(segment[0], segment[1] + 1):
            avail = list(self.pods[x])
            if x == bye_pod:
                taker = next((q for q in reversed(avail) if self.eligible[q]), None)
                if taker is None:
                    return None
                pairs.append((taker, self.bye))
                avail.remove(taker)
            if carry is not None and avail:
                partner = next((q for q in avail if q not in met[carry]), None)
                if partner is None:  # let someone else from the floater's pod float instead
                    for k in range(*src):
                        p, q = pairs[k]
                        for stay, go in ((p, q), (q, p)):
                            if stay not in met[carry]:
                                partner = next((r for r in avail if r not in met[go]), None)
                                if partner is not None:
                                    pairs[k] = (stay, carry)
                                    carry = go
                                    break
                        if partner is not None:
                            break
                    if partner is None:
                        return None
                pairs.append((carry, partner))
                avail.remove(partner)
                carry = None
            inner = _pair_within(avail, met)
            if inner is None:
                return None
            if inner[1] is not None:
                carry = inner[1]
                src = (len(pairs), len(pairs) + len(inner[0]))
            pairs += inner[0]
        return None if carry is not None else pairs

    def _hybrid(self, a: int, b: int) -> tuple[list, bool]:
        """Exact optimum of pods a..b plus relaxed sinks below (see solve_fast); returns (H's pairs, crosses?)."""
        group = [v for x in range(a, b + 1) for v in self.pods[x]]
        counted = set(range(a, b + 1))
        below = [v for x in range(b + 1, self.npods) for v in self.pods[x]]
        edges = [(u, v, self._type(u, v)) for k, u in enumerate(group) for v in group[k + 1:] if u not in self.met[v]]
        nodes = list(group)
        bye_inside = not below
        if self.bye is not None:
            nodes.append(self.bye)
            edges += [(u, self.bye, self._type(u, self.bye)) for u in group if self.eligible[u]]
        byesink = -1
        if below:
            if len(below) <= len(group) + 3:
                sinks = below
                if self.bye is not None:
                    edges += [(s, self.bye, None) for s in below if self.eligible[s]]
            else:
                extra = 1 if self.bye is not None and any(self.eligible[s] for s in below) else 0
                count = len(group) + (extra + (self.bye is not None)) % 2  # an even number of nodes
                sinks = below[:count]
                if extra:
                    nodes.append(byesink)
                    edges += [(byesink, self.bye, None)] + [(byesink, s, None) for s in sinks]
            nodes += sinks
            edges += [(u, s, self._type(u, s)) for u in group for s in sinks]
            edges += [(s, t, None) for k, s in enumerate(sinks) for t in sinks[k + 1:]]
        matched = self._exact(nodes, edges, counted)
        inside = set(group)
        if bye_inside and self.bye is not None:
            inside.add(self.bye)
        mine = [(u, v) for u, v in matched if u in inside or v in inside]
        crossing = any(not (u in inside and v in inside) for u, v in mine)
        return mine, crossing


def _pair_within(players: list, met: list) -> Optional[tuple[list, Optional[int]]]:
    """Pair a pod (seeded order) with no rematch, leaving one player iff the count is odd; None if stuck.

    Greedy: each player takes the latest waiting player they have not met. Leftovers that met each other are
    repaired by a swap with an existing pair (u-p, w-q instead of p-q), which nearly always exists when a pod is
    larger than the number of rounds; when it does not, the caller solves exactly."""
    pairs: list = []
    waiting: list = []
    for v in players:
        mv = met[v]
        for k in range(len(waiting) - 1, -1, -1):
            if waiting[k] not in mv:
                pairs.append((waiting.pop(k), v))
                break
        else:
            waiting.append(v)
    while len(waiting) > 1:
        u = waiting.pop()
        hit = next(((k, idx, stay_u, stay_w) for k, w in enumerate(waiting) for idx, (p, q) in enumerate(pairs)
                    for stay_u, stay_w in ((p, q), (q, p)) if stay_u not in met[u] and stay_w not in met[w]), None)
        if hit is None:
            return None
        k, idx, stay_u, stay_w = hit
        pairs[idx] = (stay_u, u)
        pairs.append((stay_w, waiting.pop(k)))
    return pairs, (waiting[0] if waiting else None)

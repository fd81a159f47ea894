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
from .lex_matching import NotPerfect, lex_matching
from .tables import number_tables
from .tiebreakers import ranking_keys
from .types import Entrant, Game, PairingError, RoundPlan

SOLVERS = ("auto", "fast", "networkx")
WHOLE_REST = 10_000  # an exact block that failed once takes in every player below it if they have this few legal pairs
SLOT_MARGIN = 8  # an exact block cuts a pod to slots when it has this many players more than twice the slots


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
    field = prepare(entrants, games, round_number, rng)
    active, requested, ranked, points, byes, met = (
        field.active, field.requested, field.ranked, field.points, field.byes, field.met)
    index = {p: i for i, p in enumerate(ranked)}
    tiers = bye_limits(byes.values(), odd=len(ranked) % 2 == 1)
    unmatched: list = []
    for limit in tiers:
        problem = _Field([points[p] for p in ranked], met, [byes[p] <= limit for p in ranked], power_pairing, rng)
        try:
            pairs, how = problem.solve_fast() if solver != "networkx" else (problem.solve_reference(), "networkx")
            break
        except _Infeasible as failure:
            unmatched = [ranked[i] for i in failure.unmatched if 0 <= i < problem.n]
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
        problem = _Field([self.points[p] for p in self.ranked], self.met, [True] * n, power, random.Random(0))
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
    met: list[set] = [set() for _ in ranked]
    for g in games:
        if g.opponent is not None and g.player in index and g.opponent in index:
            met[index[g.player]].add(index[g.opponent])
            met[index[g.opponent]].add(index[g.player])
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
        self.max_met = max(map(len, met), default=0)
        self.big_int_solves = 0  # exact blocks whose decided types outgrew rustworkx's weights (networkx solved them)
        self.bye_pods = sorted({self.pod[i] for i in range(n) if eligible[i]})  # pods with a possible bye-taker

    # ---------------------------------------------------------------- cost

    def pod_of(self, v: int) -> int:
        return self.npods if v == self.bye else self.pod[v]

    def cost(self, pairs: Iterable[tuple]) -> LexCost:
        counts: Counter = Counter()
        for u, v in pairs:
            x, y = self.pod_of(u), self.pod_of(v)
            if x != y:
                counts[(x, y) if x < y else (y, x)] += 1
        return LexCost.of(counts)

    def allowed(self, u: int, v: int) -> bool:
        if u == self.bye or v == self.bye:
            return self.eligible[v if u == self.bye else u]
        return v not in self.met[u]

    # ---------------------------------------------------------------- exact matching

    def _exact(self, nodes: list, edges: list, counted: Optional[set] = None, reference: bool = False) -> list:
        """Minimum-LexCost perfect matching of `edges` [(u, v, type or None)]: rustworkx a chunk of types at a time
        (`lex_matching`), or, for the reference (and should the decided types outgrow 128-bit weights), networkx
        with B**rank Python-int weights. Only types whose higher pod is in `counted` cost anything (all types when
        None). Raises _Infeasible."""
        if counted is not None:
            edges = [(u, v, t if t and t[0] in counted else None) for u, v, t in edges]
        if not reference:
            try:
                found = lex_matching(nodes, edges, self.pod_of)
            except NotPerfect as failure:
                raise _Infeasible(failure.unmatched) from None
            if found is not None:
                return found
            self.big_int_solves += 1
        types = sorted({t for _, _, t in edges if t}, key=lambda t: (-t[0], t[1]))  # least expensive first
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
        return self._exact(nodes, edges, reference=True)

    # ---------------------------------------------------------------- fast exact path

    def solve_fast(self) -> tuple[list, str]:
        """Exact: the relaxation's chain built segment by segment, a small exact solve only where it fails.

        Why it is exact. Group types by their higher pod x ("stage x"); stage x comes before stage x+1 in the
        order, so we certify the stages top down: a block of pods [top, b] is committed only with a proof that
        no pairing agreeing with the committed blocks above it has a smaller cost on stages top..b.
        Pairings that agree on the stages above `top` take the same number of players out of each pod below
        (those counts are types of the stages above) and the bye or not, though maybe other players.
        (i) Built blocks. The relaxation without rematches (`_segment`) depends on those counts only, so it is
        a lower bound for all of them. A run of its segments built with real players (`_construct`) ends at a
        boundary nothing crosses and reproduces its stages exactly: any pairing with the same prefix splits
        there too. The run must reach below every pod that lost players to an exact block above (the "zone"):
        below it everyone's remaining problem is the same.
        (ii) Exact blocks, where a segment cannot be built. Nothing below `top` is taken then. An exact solve of
        H = pods top..b plus "sinks": the nearest players below with their rematches ignored (each real
        partner below maps to a sink no lower, so H relaxes the rest of the field) and the bye; only stages
        top..b count; a big pod of the block enters H as a few slots (`_exact_block` says why that is exact,
        and H is solved again without slots if their optimum cannot be made real). Pairs of H that reach a sink are made real with untaken players of the sink's pod (same
        types); the players they take form the zone that the next built run must cover. If they cannot be made
        real, or the run below fails, H grows down to the failing segment (or, when the players below have few
        legal pairs left, `WHOLE_REST`, to the whole rest at once). If H has no perfect matching at all,
        the committed block above could not be completed: it is taken back and solved together with H.
        Each round trip grows H or moves up, so this ends (at worst with an exact solve of the whole field, which
        then names the players left unpaired).
        """
        if self.n == 0:
            return [], "fast"
        self.avail = [len(p) for p in self.pods]
        self.taken: set = set()
        self.bye_free = self.bye is not None
        blocks: list = []  # committed, top down
        top, zone, grow = 0, -1, None  # grow: (top, b) of an exact block to solve next
        retry = False  # the exact block to solve next replaces one that failed (grew, or was taken back)
        while top < self.npods or grow:
            if grow is None:
                run, b, failed = [], top, None
                while b < self.npods and (b == top or b <= zone):
                    end, bye_pod = self._segment(b)
                    built = self._construct((b, end), bye_pod)
                    if built is None:
                        failed = end
                        break
                    run += built
                    b = end + 1
                if failed is None:
                    blocks.append(_Block(top, b - 1, run, (), False, zone, self.bye_free))
                    top, zone = b, -1
                    continue
                if zone >= top:  # the run below an exact block failed: take that block back, solve it larger
                    block = self._undo(blocks)
                    grow, retry = (block.top, failed), True
                else:
                    grow, retry = (top, failed), False
            a, b = grow[:2]
            if retry and b < self.npods - 1 and self._legal_pairs(a) <= WHOLE_REST:  # grow to the rest at once
                b = self.npods - 1
            compress = len(grow) < 3  # (a, b, False): the compressed H could not be made real
            try:
                made = self._exact_block(a, b, compress)
            except _Infeasible as failure:  # nothing completes what is committed above: take it back
                if blocks:
                    while True:  # back to a block whose top had nothing taken
                        block = self._undo(blocks)
                        if block.zone < block.top or not blocks:
                            break
                    grow = (block.top, b)
                    retry = True
                elif b < self.npods - 1:
                    grow = (a, self.npods - 1)  # no pairing at all: the exact whole field names who is left
                elif compress and self.last_slots:
                    grow = (a, b, False)  # name real players, not slots
                else:
                    raise _Infeasible(failure.unmatched) from None
                continue
            if made is None:  # H's optimum cannot be made real: without slots, or H takes in the next segment
                grow = (a, b, False) if compress and self.last_slots else (a, self._segment(b + 1)[0])
                retry = True
                continue
            real, taken, bye_used = made
            blocks.append(_Block(a, b, real, taken, True, -1, self.bye_free, self.last_size))
            self._take(taken)
            self.bye_free = self.bye_free and not bye_used
            zone = max((self.pod[t] for t in taken), default=-1)
            top, grow = b + 1, None
        exact = [blk for blk in blocks if blk.exact]
        hard = sum(blk.bottom - blk.top + 1 for blk in exact)
        how = f"fast: {self.npods - hard} of {self.npods} pods built on the relaxation"
        if exact:
            how += f", {hard} in {len(exact)} exact block(s) of at most {max(blk.size for blk in exact)} nodes"
        if self.big_int_solves:
            how += f", {self.big_int_solves} solved by networkx"
        return [p for blk in blocks for p in blk.pairs], how

    def _legal_pairs(self, a: int) -> int:
        """How many pairs of the untaken players from pod a down have not met."""
        rest = {v for x in range(a, self.npods) for v in self.pods[x] if v not in self.taken}
        met = sum(len(self.met[v] & rest) if len(self.met[v]) < len(rest) else len(rest & self.met[v])
                  for v in rest)
        return len(rest) * (len(rest) - 1) // 2 - met // 2

    def _undo(self, blocks: list) -> "_Block":
        """Take back the last committed block: its players are free again."""
        block = blocks.pop()
        for t in block.taken:
            self.taken.discard(t)
            self.avail[self.pod[t]] += 1
        self.bye_free = block.bye_free
        return block

    def _take(self, players) -> None:
        for t in players:
            self.taken.add(t)
            self.avail[self.pod[t]] -= 1

    def _bye_pod(self) -> Optional[int]:
        """The relaxation's bye pod: the lowest pod with an untaken player and a player who may take the bye
        (whoever else agrees above may have taken other players, so any eligible player counts)."""
        if not self.bye_free:
            return None
        return next((x for x in reversed(self.bye_pods) if self.avail[x]), None)

    def _segment(self, start: int) -> tuple[int, Optional[int]]:
        """The relaxation's segment from pod `start` (nothing crossing above it): its last pod, and the bye pod.

        Without rematches the players of a pod differ only in bye eligibility. The bye goes to the lowest pod
        with an eligible player (any higher bye pair is a worse type of its stage); then, top down, a pod left
        odd sends one player to the next pod with a player left: each stage gets at most one down-pair, to the
        nearest possible pod, which nothing beats given the stages above. A segment ends at the first
        boundary that no pair of this chain crosses (the bye crosses every boundary below its pod)."""
        bye_pod = self._bye_pod()
        last = self.npods - 1
        if self.bye_free and (bye_pod is None or bye_pod < start):
            return last, bye_pod  # the bye has nowhere to go: the build fails and the exact block says so
        carry = False
        for x in range(start, last + 1):
            avail = self.avail[x] - (x == bye_pod)
            if carry and avail:
                avail -= 1
                carry = False
            if avail % 2:
                carry = True
            if not carry and (bye_pod is None or x < bye_pod):
                return x, bye_pod
        return last, bye_pod

    def _construct(self, segment: tuple, bye_pod: Optional[int]) -> Optional[list]:
        """The segment's part of the relaxed chain with real untaken players, or None when rematches (or the
        players taken above) get in the way."""
        met, taken = self.met, self.taken
        pairs: list = []
        carry = None  # the player floating down, and where its own pod's pairs sit in `pairs`
        src = (0, 0)
        placed = False
        for x in range(segment[0], segment[1] + 1):
            avail = [v for v in self.pods[x] if v not in taken] if taken else list(self.pods[x])
            if x == bye_pod:
                taker = next((q for q in reversed(avail) if self.eligible[q]), None)
                if taker is None:
                    return None
                pairs.append((taker, self.bye))
                avail.remove(taker)
                placed = True
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
        if carry is not None or (self.bye_free and not placed and segment[1] == self.npods - 1):
            return None
        return pairs

    def _exact_block(self, a: int, b: int, compress: bool) -> Optional[tuple[list, list, bool]]:
        """Solve H for pods a..b (see solve_fast) and make its optimum real: (the block's pairs, the players
        below it takes, whether it takes the bye), or None when that fails. Nothing at or below a is taken.

        H's nodes: the group (pods a..b; a pod much larger than the number of rounds is cut to `slots`
        stand-ins, see below), the bye if free, and sinks: the nearest players below with their rematches
        ignored (each real partner below maps to a sink no lower, so H relaxes the rest of the field). Only
        stages a..b count. Slots: with the rematches of a big pod y ignored, its players are interchangeable,
        and in an optimum two of them never pair out of y with partners p, q that may meet (both above y or
        both below: y-y plus p-q is cheaper), so those partners pairwise met, or are the bye and players
        who may not take it: at most r + 2 above and r + 2 below (r: most opponents anyone met). 2r + 4
        slots (the pod's parity) therefore reach H's optimum of the relaxation, and the rest of y pairs at
        home. Made real: every stand-in (slot or sink) becomes an unused player of its pod whom the partner
        has not met, and each cut pod's remaining players pair among themselves."""
        keep = 2 * self.max_met + 4
        group: list = []
        stand: dict = {}  # stand-in node -> the pod it stands for (slots and sinks)
        cut = [x for x in range(a, b + 1) if compress and len(self.pods[x]) > 2 * keep + SLOT_MARGIN]
        for x in range(a, b + 1):
            pod = self.pods[x]
            if x in cut:
                slots = pod[: keep + (len(pod) - keep) % 2]
                stand.update((v, x) for v in slots)
                group += slots
            else:
                group += pod
        self.last_slots = bool(stand)
        bye = self.bye if self.bye_free else None
        eligible_pod = set(self.bye_pods)
        met = self.met

        def may_bye(v):
            return stand[v] in eligible_pod if v in stand else self.eligible[v]

        edges = [(u, v, self._type(u, v)) for k, u in enumerate(group) for v in group[k + 1:]
                 if u in stand or v in stand or u not in met[v]]
        nodes = list(group)
        if bye is not None:
            nodes.append(bye)
            edges += [(u, bye, self._type(u, bye)) for u in group if may_bye(u)]
        below: list = []  # the nearest players below, a few more than the group (all of them if that is all)
        for x in range(b + 1, self.npods):
            below += self.pods[x]
            if len(below) > len(group) + 3:
                break
        byesink = -1
        if below:
            if len(below) <= len(group) + 3:
                sinks = below
                if bye is not None:
                    edges += [(s, bye, None) for s in below if self.eligible[s]]
            else:
                extra = 1 if bye is not None and self.bye_pods and self.bye_pods[-1] > b else 0
                count = len(group) + (extra + (bye is not None)) % 2  # an even number of nodes
                sinks = below[:count]
                if extra:
                    nodes.append(byesink)
                    edges += [(byesink, bye, None)] + [(byesink, s, None) for s in sinks]
            stand.update((s, self.pod[s]) for s in sinks)
            nodes += sinks
            edges += [(u, s, self._type(u, s)) for u in group for s in sinks]
            edges += [(s, t, None) for k, s in enumerate(sinks) for t in sinks[k + 1:]]
        self.last_size = len(nodes)
        matched = self._exact(nodes, edges, set(range(a, b + 1)))
        # make it real
        inside = set(range(a, b + 1))
        used: set = set()
        real, taken, bye_used = [], [], False

        def pool(x, partner=None):
            """Unused untaken players of pod x that `partner` (a real player, or the bye) may meet."""
            out = [v for v in self.pods[x] if v not in used and v not in self.taken
                   and (partner is None or (self.eligible[v] if partner == bye else v not in met[partner]))]
            if self.bye_free and x > b:
                out.sort(key=self.eligible.__getitem__)  # spare the players who may take the bye
            return out

        for u, v in matched:
            if byesink in (u, v) or (u in stand and v in stand and stand[u] == stand[v]):
                continue  # a stand-in pair of one pod: pairs at home (or below, later)
            pod_u = stand.get(u, self.pod_of(u))
            pod_v = stand.get(v, self.pod_of(v))
            if pod_u not in inside and pod_v not in inside:
                continue  # below the block (sinks, the bye among them): the rest of the field decides
            fixed = [w for w in (u, v) if w not in stand]
            if len(fixed) == 2:
                pair = (u, v)
            elif len(fixed) == 1:
                other = v if fixed[0] == u else u
                found = pool(stand[other], fixed[0])
                if not found:
                    return None
                pair = (fixed[0], found[0])
            else:
                pair = next(((p, q) for p in pool(pod_u) for q in pool(pod_v, p)[:1]), None)
                if pair is None:
                    return None
            used.update(pair)
            real.append(pair)
            bye_used = bye_used or (bye is not None and bye in pair)
            taken += [w for w in pair if w != bye and self.pod[w] > b]
        for x in cut:
            inner = _pair_within([v for v in self.pods[x] if v not in used], met)
            if inner is None or inner[1] is not None:
                return None
            real += inner[0]
        return real, taken, bye_used


@dataclass
class _Block:
    """Pods top..bottom committed: their pairs, the players below they took, how, and the state before."""

    top: int
    bottom: int
    pairs: list
    taken: Sequence
    exact: bool
    zone: int  # the zone when the block was committed (a built block then covered it)
    bye_free: bool  # before the block
    size: int = 0


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

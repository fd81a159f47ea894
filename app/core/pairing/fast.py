"""The fast exact matcher: a class-level LP bound, realised with actual players, proven optimal when it meets.

Players of one class (same cost to everybody) are interchangeable except for pairs that met before. So:
1. Class LP: x_cd = number of pairs between classes c and d (c = d allowed), degree constraints
   sum_d x_cd + 2 x_cc = n_c, plus odd-set cuts x(delta(S)) >= 1 for unions S of classes holding an odd
   number of players (found by separation; HiGHS re-solves warm as cuts are added). Any perfect matching
   satisfies all of them, so the LP value is a lower bound. The bound is taken from the dual solution, rounded
   to integers and repaired until it is feasible in exact integer arithmetic: LB = sum n_c u_c + sum z_S is
   then proven, floats or not. Costs of any size: the LP sees them shifted below 2**PRECISION_BITS, and
   further passes on the exact reduced costs the earlier duals leave recover the bits the shift dropped.
2. The LP's integer part is realised with shuffled players; a pair that met before is swapped with another
   pair of the same class, which keeps every cost. Leftovers (fractional parts, unresolved conflicts) are
   matched exactly with rustworkx.
3. cost <= ceil(LB) (costs are integers) proves the matching optimal. If not, more LP passes; then the LP is
   solved again with the players of small classes (where earlier meetings bite) as classes of their own.
4. Still a gap: the pairs whose reduced cost is below the gap (no other pair can be in a cheaper matching) are
   solved exactly, if there are at most EDGE_BUDGET of them; a field whose full graph fits in the budget has
   kept that much aside and is solved exactly on it.
The steps come in a fixed order and each asks the work budget (work.py: counted operations) first; the first that
does not fit ends the search with the best matching found and its proven lower bound. Before any of them, every
round is paired within classes (leftovers greedily among their neighbours), whatever its budget: that is the
answer, with no bound, when the budget cannot even price the class table (or the field has more than
LP_CLASS_LIMIT classes).
"""
from __future__ import annotations

import math
import random
from collections import defaultdict
from fractions import Fraction
from itertools import combinations, product

import numpy as np

from .class_lp import ClassLP
from .exact import MatchResult, NoPerfectMatching, _exact, _match_edges, _Problem
from .realise import finish, realise
from .work import PLAYER_UNITS, PRICE_UNITS, OutOfBudget, Work

FULL_GRAPH_LIMIT = 1500  # above this many nodes the complete graph is never built
SMALL_FIELD = 12  # below this the class machinery is not worth it: solve the full graph
LP_CLASS_LIMIT = 1200  # classes the LP takes (K^2/2 variables)
EDGE_BUDGET = 1_000_000  # candidate pairs the gap-closing search may build (the full graph of ~1,400)
SPLITS = (0, 6)  # classes this small become single players in the LP, in successive attempts
REFINE_PASSES = 4  # extra LP passes on the reduced costs when the bound misses


def solve_fast(problem: _Problem, rng: random.Random, work: Work | None = None) -> MatchResult:
    """The best matching found within `work`'s budget, with its proven lower bound (certified when they meet).

    A fixed sequence of steps, each asking the budget for its work first; the first one that does not fit ends
    the search, so a bigger budget runs the same steps and more of them, and keeps the best pairing found: it
    never pairs worse. The first pairing (within classes) is made whatever the budget. A field whose full
    graph fits in the budget keeps that much aside for it and is always solved exactly."""
    work = work or Work()
    n = len(problem.nodes)
    if n <= SMALL_FIELD:
        return _exact(problem, problem.nodes, "rustworkx", rng, work)
    full = work.match_units(n, n * (n - 1) // 2)
    reserve = full if n <= FULL_GRAPH_LIMIT and full <= work.budget else 0
    search = _Search(problem, rng, work)
    work.budget -= reserve  # kept aside for the full graph
    try:
        search.run()
    except OutOfBudget:
        pass
    finally:
        work.budget += reserve
    if search.proven():
        return MatchResult(*search.found(), True, search.bound, "fast", search.notes)
    gap = None if search.bound is None else search.found()[1] - math.ceil(search.bound)
    if reserve:
        exact = _exact(problem, problem.nodes, "rustworkx", rng, work)
        exact.lower_bound = search.bound
        exact.notes = search.notes + [f"fast: gap {gap} above the bound; solved the full graph"]
        return exact
    why = "the last-resort CPU cap ran out (pairing again may pair differently)" if work.timed_out \
        else "the work budget ran out"
    if gap is None:
        search.notes.append(f"fast: not proven optimal ({why}); cost {search.total}, no lower bound")
    else:
        search.notes.append(f"fast: not proven optimal ({why}); cost {search.total}, lower bound {search.bound} "
                            f"(gap <= {gap})")
    return MatchResult(*search.found(), False, search.bound, "fast", search.notes)


class _Search:
    """The steps of the fast matcher, in their fixed order; `pairs`/`total` the best found, `bound` the best
    proven lower bound. Any step may raise OutOfBudget, which ends the search with what it has."""

    def __init__(self, problem: _Problem, rng: random.Random, work: Work):
        self.problem, self.rng, self.work = problem, rng, work
        self.pairs: list | None = None
        self.total: int | None = None
        self.bound: Fraction | None = None
        self.best_lp: tuple | None = None
        self.notes: list[str] = []
        self.optimal = False

    def found(self) -> tuple[list, int]:
        """The best pairing and its cost: `run` makes its first pairing whatever the budget (`work.must`)."""
        assert self.pairs is not None and self.total is not None
        return self.pairs, self.total

    def proven(self) -> bool:
        return self.optimal or (self.bound is not None and self.found()[1] <= math.ceil(self.bound))

    def _offer(self, pairs: list, total: int) -> None:
        if self.bound is not None and total < self.bound:
            raise AssertionError("matching below its proven lower bound")  # would be a bug in the bound
        if self.total is None or total < self.total:
            self.pairs, self.total = pairs, total

    def _raise_bound(self, bound, lp=None, groups=None) -> None:
        if lp is not None and (self.best_lp is None or bound > self.best_lp[0].lower_bound):
            self.best_lp = (lp, groups)  # the LP whose reduced costs prove the most
        if self.bound is None or bound > self.bound:
            self.bound = bound
        if self.total is not None and self.total < self.bound:
            raise AssertionError("matching below its proven lower bound")

    def run(self) -> None:
        problem, rng, work = self.problem, self.rng, self.work
        members: dict = defaultdict(list)
        for v in problem.nodes:
            members[problem.cls[v]].append(v)
        classes = list(members.values())
        with work.must():  # every round's first pairing: within classes, leftovers among their neighbours
            within = {(i, i): len(g) // 2 for i, g in enumerate(classes)
                      if len(g) >= 2 and problem.class_cost(problem.cls[g[0]], problem.cls[g[0]]) is not None}
            pairs, residual = realise(problem, classes, within, rng, work)
            self._offer(*finish(problem, pairs, residual, rng, work))
        self.first_units = work.spent
        self.notes.append(f"fast: {len(classes)} classes, first paired within them ({work.spent:,} units)")
        if len(classes) > LP_CLASS_LIMIT:
            self.notes.append("fast: class LP not applicable (too many classes)")
            return
        sizes = [len(g) for g in classes]
        for split in SPLITS:  # whole classes first; if that proves nothing, small classes as single players
            if split and min(sizes) > split:
                break  # no small class: the same LP again would prove nothing new
            groups, cost = _groups(problem, split, work)
            if not split:
                half = _half_min_bound(cost, groups)
                if half is not None:
                    self._raise_bound(half)
                if self.proven():
                    return
            self._lp(groups, cost)
            if self.proven():
                return
        if self.best_lp is not None:
            self.pairs, self.total = _below_the_gap(problem, self.best_lp, *self.found(), rng, work)
            self.optimal = True  # no matching cheaper than this one exists
            self.notes.append("fast: solved exactly on the pairs that could close the gap")

    def _lp(self, groups: list, cost: list) -> None:
        """The class LP's passes: each realised (when it finished) and offered, its bound raised."""
        problem, rng, work = self.problem, self.rng, self.work
        counts = np.array([len(g) for g in groups], dtype=np.int64)
        lp = ClassLP(cost, counts, work)
        if not lp.solve():
            self.notes.append("fast: class LP infeasible")
            return
        refines, strengthened = 0, False
        for attempt in range(2 * REFINE_PASSES + 2):
            if attempt:  # the bound missed: recover the bits a shift dropped, else look harder for cuts
                if lp.shift and refines < REFINE_PASSES:
                    refines += 1
                    done = lp.refine(2 * self.found()[1] - lp.lb2)
                elif not strengthened:
                    strengthened, refines = True, 0
                    done = lp.strengthen()
                else:
                    return
                if not done:
                    return
            self._raise_bound(lp.lower_bound, lp, groups)
            if self.proven():  # a better bound alone may prove the best found
                self.notes.append(f"fast: {len(groups)} classes, {len(lp.cuts)} odd-set cuts (LP pass {attempt + 1})")
                return
            if not lp.complete:
                raise OutOfBudget  # a pass cut short by the budget: its bound counts, its solution is not one
            pairs, residual = realise(problem, groups, lp.integer_part(), rng, work)
            pairs, total = finish(problem, pairs, residual, rng, work, _near(lp, groups, work))
            self._offer(pairs, total)
            self.notes.append(f"fast: {len(groups)} classes, {len(lp.cuts)} odd-set cuts, "
                              f"{len(residual)} players solved exactly"
                              + (f" (LP pass {attempt + 1})" if attempt else ""))
            if self.proven():
                return


def _below_the_gap(problem: _Problem, best_lp, pairs: list, total: int, rng: random.Random, work: Work):
    """Exact search among the pairs that could be in a cheaper matching, when there are few enough of them.

    With verified duals every pair e has a reduced cost rc(e) >= 0, and a perfect matching costs at least
    LB + rc(e) for each of its pairs. So a matching cheaper than `total` uses only pairs with rc < total - LB:
    the best perfect matching on those (if any is cheaper) is optimal, and otherwise `pairs` is.
    Returns (pairs, total) proven optimal; OutOfBudget when the candidate pairs exceed EDGE_BUDGET or the work
    left."""
    lp, groups = best_lp
    limit = 2 * total - lp.lb2  # in the doubled units of lp.rc2
    sizes = [len(g) for g in groups]
    k = len(groups)
    work.need(k * k // 20)
    work.spend(k * k // 20)
    gi, hi = np.nonzero(np.triu(lp.allowed) & (lp.rc2 < limit).astype(bool))
    close = list(zip(gi.tolist(), hi.tolist(), strict=True))
    candidates = sum(sizes[g] * sizes[h] if g != h else sizes[g] * (sizes[g] - 1) // 2 for g, h in close)
    if candidates > EDGE_BUDGET:
        raise OutOfBudget
    work.need(work.match_units(len(problem.nodes), candidates))
    order = list(problem.nodes)
    rng.shuffle(order)
    index = {v: i for i, v in enumerate(order)}
    members = [[index[v] for v in grp] for grp in groups]
    edges = []
    for g, h in close:
        for i, j in combinations(members[g], 2) if g == h else product(members[g], members[h]):
            a, b = order[i], order[j]
            cost = lp.cost[g][h]
            if b in problem.special.get(a, ()):  # met before: the real cost, and its own reduced cost
                real = problem.cost(a, b)
                if real is None or lp.rc2[g, h] + 2 * (real - cost) >= limit:
                    continue
                cost = real
            edges.append((i, j, cost))
    try:
        found = _match_edges(problem, order, edges, "rustworkx", work)
    except NoPerfectMatching:
        return pairs, total  # no perfect matching of cheap pairs: nothing beats `pairs`
    return (found.pairs, found.total_cost) if found.total_cost < total else (pairs, total)


def _near(lp: ClassLP, groups: list, work: Work):
    """Each player's group and the group pairs ranked by this pass's reduced costs, for realise.finish."""
    work.need(PLAYER_UNITS * len(lp.counts) + lp.k * lp.k // 50)
    work.spend(PLAYER_UNITS * len(lp.counts) + lp.k * lp.k // 50)
    group_of = {v: g for g, members in enumerate(groups) for v in members}
    rank = np.where(lp.allowed, lp.rc2.astype(float), np.inf)
    return group_of, rank


def _groups(problem: _Problem, split: int, work: Work):
    """The LP's classes: players of one class, except that a class of at most `split` players is split into
    single players, whose costs among themselves are then exact (history included). Small classes are where
    earlier meetings bite; big ones always have somebody else to swap in. Pricing every pair of groups is
    counted against `work` before it starts."""
    members: dict = defaultdict(list)
    for v in problem.nodes:
        members[problem.cls[v]].append(v)
    groups = []
    for mem in members.values():
        groups.extend([[v] for v in mem] if len(mem) <= split else [mem])
    k = len(groups)
    work.need(PRICE_UNITS * k * (k + 1) // 2)
    work.spend(PRICE_UNITS * k * (k + 1) // 2)
    cost: list[list[int | None]] = [[None] * k for _ in range(k)]
    cls = [problem.cls[g[0]] for g in groups]
    price = problem.price
    for x, g in enumerate(groups):  # symmetric: each pair of groups priced once
        row = cost[x]
        single = len(g) == 1
        for y in range(x, k):
            h = groups[y]
            if single and len(h) == 1:
                value = None if g[0] == h[0] else problem.cost(g[0], h[0])
            else:
                value = price(cls[x], cls[y])
            row[y] = cost[y][x] = value
    return groups, cost


def _half_min_bound(cost: list, groups: list):
    """A bound that needs no LP: every player's pair costs at least the cheapest pair its class may form, and
    each pair is two players' halves (u_c = that cost / 2 is a feasible dual). None when some class has no
    possible partner."""
    total = 0
    for x, row in enumerate(cost):
        options = [c for y, c in enumerate(row) if c is not None and (y != x or len(groups[x]) >= 2)]
        if not options:
            return None
        total += len(groups[x]) * min(options)
    return Fraction(total, 2)

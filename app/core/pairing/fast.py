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
4. Still a gap: fields up to FULL_GRAPH_LIMIT are re-solved exactly on the full graph. Larger ones are
   solved exactly on the pairs whose reduced cost is below the gap (no other pair can be in a cheaper
   matching), if there are at most EDGE_BUDGET of them.
Every step starts only if the work budget (work.py: counted operations) allows it; when it is spent, the best
matching found comes back uncertified with its proven lower bound (as do fields of more than LP_CLASS_LIMIT
classes, paired within classes).
"""
from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from itertools import combinations, product

import numpy as np

from .class_lp import ClassLP
from .exact import MatchResult, NoPerfectMatching, _exact, _match_edges, _Problem
from .realise import finish, finish_pairs, realise
from .work import EDGE_UNITS, Work

FULL_GRAPH_LIMIT = 1500  # above this many nodes the complete graph is never built
SMALL_FIELD = 12  # below this the class machinery is not worth it: solve the full graph
LP_CLASS_LIMIT = 1200  # classes the LP takes (K^2/2 variables)
EDGE_BUDGET = 1_000_000  # candidate pairs the gap-closing search may build (the full graph of ~1,400)
SPLITS = (0, 6)  # classes this small become single players in the LP, in successive attempts
REFINE_PASSES = 4  # extra LP passes on the reduced costs when the bound misses
LP_SOLVES_AFFORDED = 3  # a new LP starts only if the budget still holds this many solves of it


def solve_fast(problem: _Problem, rng: random.Random, work: Work | None = None) -> MatchResult:
    """The best matching found within `work`'s budget, with its proven lower bound (certified when they meet)."""
    work = work or Work()
    n = len(problem.nodes)
    if n <= SMALL_FIELD:
        return _exact(problem, problem.nodes, "rustworkx", rng)
    best, bound, best_lp, notes = None, None, None, []
    sizes = Counter(problem.cls.values()).values()
    for split in SPLITS:  # whole classes first; if that proves nothing, small classes as single players
        if split:
            k = sum(size if size <= split else 1 for size in sizes)
            if min(sizes) > split or not work.affords(LP_SOLVES_AFFORDED * k * k // 2):
                break  # no small class (the same LP again would prove nothing new), or no budget for its LP
        groups, cost = _groups(problem, split)
        counts = np.array([len(g) for g in groups], dtype=np.int64)
        if len(groups) > LP_CLASS_LIMIT:
            if best:
                break
            return _fallback(problem, rng, "class LP not applicable (too many classes)", work)
        lp = ClassLP(cost, counts, work)
        if not lp.solve():
            return _fallback(problem, rng, "class LP infeasible", work)
        refines, strengthened = 0, False
        for attempt in range(2 * REFINE_PASSES + 2):
            if attempt:  # the bound missed: recover the bits a shift dropped, else look harder for cuts
                if work.exhausted:
                    break
                if lp.shift and refines < REFINE_PASSES:
                    refines += 1
                    done = lp.refine(2 * best[1] - lp.lb2)
                elif not strengthened:
                    strengthened, refines = True, 0
                    done = lp.strengthen()
                else:
                    break
                if not done:
                    break
            improved = bound is None or lp.lower_bound > bound
            if improved:
                bound, best_lp = lp.lower_bound, (lp, groups)
            if best is not None and best[1] <= math.ceil(bound):  # a better bound alone may prove the best found
                notes.append(f"fast: {len(groups)} classes, {len(lp.cuts)} odd-set cuts (LP pass {attempt + 1})")
                return MatchResult(best[0], best[1], True, bound, "fast", notes)
            pairs, residual = realise(problem, groups, lp.integer_part(), rng)
            if best is not None and not work.affords(EDGE_UNITS * finish_pairs(len(residual))):
                continue  # finishing this pass's leftovers exactly is beyond the budget: keep the best found
            pairs, total = finish(problem, pairs, residual, rng, work, _near(lp, groups))
            if total < lp.lower_bound:
                raise AssertionError("matching below its proven lower bound")  # would be a bug in the bound
            notes.append(f"fast: {len(groups)} classes, {len(lp.cuts)} odd-set cuts, "
                         f"{len(residual)} players solved exactly" + (f" (LP pass {attempt + 1})" if attempt else ""))
            if best is None or total < best[1]:
                best = (pairs, total)
            if best[1] <= math.ceil(bound):
                return MatchResult(best[0], best[1], True, bound, "fast", notes)
    pairs, total = best
    gap = total - math.ceil(bound)
    if n <= FULL_GRAPH_LIMIT and work.affords(EDGE_UNITS * n * (n - 1) // 2):
        exact = _exact(problem, problem.nodes, "rustworkx", rng, work)
        exact.lower_bound = bound
        exact.notes = notes + [f"fast: gap {gap} above the bound; solved the full graph"]
        return exact
    exact = _below_the_gap(problem, best_lp, pairs, total, rng, work)
    if exact is not None:
        notes.append(f"fast: gap {gap} above the bound; solved exactly on the pairs that could close it")
        return MatchResult(exact[0], exact[1], True, bound, "fast", notes)
    why = "the safety net of CPU time ran out" if work.timed_out else "the work budget ran out"
    notes.append(f"fast: not proven optimal ({why}); cost {total}, lower bound {bound} (gap <= {gap})")
    return MatchResult(pairs, total, False, bound, "fast", notes)


def _below_the_gap(problem: _Problem, best_lp, pairs: list, total: int, rng: random.Random, work: Work):
    """Exact search among the pairs that could be in a cheaper matching, when there are few enough of them.

    With verified duals every pair e has a reduced cost rc(e) >= 0, and a perfect matching costs at least
    LB + rc(e) for each of its pairs. So a matching cheaper than `total` uses only pairs with rc < total - LB:
    the best perfect matching on those (if any is cheaper) is optimal, and otherwise `pairs` is.
    Returns (pairs, total) proven optimal, or None when the candidate pairs exceed EDGE_BUDGET or the work left."""
    lp, groups = best_lp
    limit = 2 * total - lp.lb2  # in the doubled units of lp.rc2
    sizes = [len(g) for g in groups]
    k = len(groups)
    close = [(g, h) for g in range(k) for h in range(g, k) if lp.allowed[g, h] and lp.rc2[g, h] < limit]
    candidates = sum(sizes[g] * sizes[h] if g != h else sizes[g] * (sizes[g] - 1) // 2 for g, h in close)
    if candidates > EDGE_BUDGET or not work.affords(EDGE_UNITS * candidates):
        return None
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


def _near(lp: ClassLP, groups: list):
    """Each player's group and the group pairs ranked by this pass's reduced costs, for realise.finish."""
    group_of = {v: g for g, members in enumerate(groups) for v in members}
    rank = np.where(lp.allowed, lp.rc2.astype(float), np.inf)
    return group_of, rank


def _groups(problem: _Problem, split: int):
    """The LP's classes: players of one class, except that a class of at most `split` players is split into
    single players, whose costs among themselves are then exact (history included). Small classes are where
    earlier meetings bite; big ones always have somebody else to swap in."""
    members: dict = defaultdict(list)
    for v in problem.nodes:
        members[problem.cls[v]].append(v)
    groups = []
    for mem in members.values():
        groups.extend([[v] for v in mem] if len(mem) <= split else [mem])
    k = len(groups)
    cost = [[None] * k for _ in range(k)]
    cls = [problem.cls[g[0]] for g in groups]
    for x, g in enumerate(groups):  # symmetric: each pair of groups priced once
        row = cost[x]
        for y in range(x, k):
            h = groups[y]
            if len(g) == 1 and len(h) == 1:
                value = None if g[0] == h[0] else problem.cost(g[0], h[0])
            else:
                value = problem.class_cost(cls[x], cls[y])
            row[y] = cost[y][x] = value
    return groups, cost


def _fallback(problem: _Problem, rng: random.Random, why: str, work: Work) -> MatchResult:
    """The full graph when it is small enough; else pairs within classes, leftovers exact, uncertified."""
    if len(problem.nodes) <= FULL_GRAPH_LIMIT:
        result = _exact(problem, problem.nodes, "rustworkx", rng)
        result.notes.append(f"fast: {why}; solved the full graph")
        return result
    groups, _ = _groups(problem, 0)
    within = {(i, i): len(g) // 2 for i, g in enumerate(groups) if len(g) >= 2}
    pairs, residual = realise(problem, groups, within, rng)
    pairs, total = finish(problem, pairs, residual, rng, work)
    return MatchResult(pairs, total, False, None, "fast", [f"fast: {why}; paired within classes, not proven optimal"])

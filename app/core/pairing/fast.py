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
   matching), if there are at most EDGE_BUDGET of them; otherwise they come back uncertified with the gap
   (as do fields of more than LP_CLASS_LIMIT classes). No benchmark history comes near either limit.
"""
from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from itertools import combinations, product
from fractions import Fraction

import numpy as np

from .exact import MatchResult, NoPerfectMatching, _exact, _match_edges, _Problem

FULL_GRAPH_LIMIT = 1500  # above this many nodes the complete graph is never built
SMALL_FIELD = 12  # below this the class machinery is not worth it: solve the full graph
LP_CLASS_LIMIT = 1200  # classes the LP takes (K^2/2 variables)

EPS = 1e-6
INF = 2**62
MAX_CUT_ROUNDS = 30
STALL_ROUNDS = 8
STRONG_CUT_ROUNDS = 300  # when the bound misses: cut rounds are cheap with HiGHS warm, so look much harder
STRONG_STALL_ROUNDS = 60
SWAP_TRIES = 40
EDGE_BUDGET = 1_000_000  # candidate pairs the gap-closing search may build (the full graph of ~1,400)
SPLITS = (0, 6)  # classes this small become single players in the LP, in successive attempts
PRECISION_BITS = 40  # costs handed to the floating-point LP are shifted below 2**40 (floats hold them exactly)
REFINE_PASSES = 4  # extra LP passes on the reduced costs when the bound misses


def solve_fast(problem: _Problem, rng: random.Random) -> MatchResult:
    n = len(problem.nodes)
    if n <= SMALL_FIELD:
        return _exact(problem, problem.nodes, "rustworkx", rng)
    best, bound, best_lp, notes = None, None, None, []
    smallest = min(Counter(problem.cls.values()).values())
    for split in SPLITS:  # whole classes first; if that proves nothing, small classes as single players
        if split and smallest > split:
            break  # no small class: the same LP again would prove nothing new
        groups, cost = _groups(problem, split)
        counts = np.array([len(g) for g in groups], dtype=np.int64)
        if len(groups) > LP_CLASS_LIMIT:
            if best:
                break
            return _fallback(problem, rng, "class LP not applicable (too many classes)")
        lp = _ClassLP(cost, counts)
        if not lp.solve():
            return _fallback(problem, rng, "class LP infeasible")
        refines, strengthened = 0, False
        for attempt in range(2 * REFINE_PASSES + 2):
            if attempt:  # the bound missed: recover the bits a shift dropped, else look harder for cuts
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
            if bound is None or lp.lower_bound > bound:
                bound, best_lp = lp.lower_bound, (lp, groups)
            pairs, residual = _realise(problem, groups, lp.integer_part(), rng)
            pairs, total = _finish(problem, pairs, residual, rng)
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
    if n <= FULL_GRAPH_LIMIT:
        exact = _exact(problem, problem.nodes, "rustworkx", rng)
        exact.lower_bound = bound
        exact.notes = notes + [f"fast: gap {gap} above the bound; solved the full graph"]
        return exact
    exact = _below_the_gap(problem, best_lp, pairs, total, rng)
    if exact is not None:
        notes.append(f"fast: gap {gap} above the bound; solved exactly on the pairs that could close it")
        return MatchResult(exact[0], exact[1], True, bound, "fast", notes)
    notes.append(f"fast: not proven optimal; cost {total}, lower bound {bound} (gap <= {gap})")
    return MatchResult(pairs, total, False, bound, "fast", notes)


def _below_the_gap(problem: _Problem, best_lp, pairs: list, total: int, rng: random.Random):
    """Exact search among the pairs that could be in a cheaper matching, when there are few enough of them.

    With verified duals every pair e has a reduced cost rc(e) >= 0, and a perfect matching costs at least
    LB + rc(e) for each of its pairs. So a matching cheaper than `total` uses only pairs with rc < total - LB:
    the best perfect matching on those (if any is cheaper) is optimal, and otherwise `pairs` is.
    Returns (pairs, total) proven optimal, or None when the candidate pairs exceed EDGE_BUDGET."""
    lp, groups = best_lp
    limit = 2 * total - lp.lb2  # in the doubled units of lp.rc2
    sizes = [len(g) for g in groups]
    k = len(groups)
    close = [(g, h) for g in range(k) for h in range(g, k) if lp.allowed[g, h] and lp.rc2[g, h] < limit]
    if sum(sizes[g] * sizes[h] if g != h else sizes[g] * (sizes[g] - 1) // 2 for g, h in close) > EDGE_BUDGET:
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
        found = _match_edges(problem, order, edges, "rustworkx")
    except NoPerfectMatching:
        return pairs, total  # no perfect matching of cheap pairs: nothing beats `pairs`
    return (found.pairs, found.total_cost) if found.total_cost < total else (pairs, total)


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
    cost = []
    for g in groups:
        row = []
        for h in groups:
            if len(g) == 1 and len(h) == 1:
                row.append(None if g[0] == h[0] else problem.cost(g[0], h[0]))
            else:
                row.append(problem.class_cost(problem.cls[g[0]], problem.cls[h[0]]))
        cost.append(row)
    return groups, cost


def _fallback(problem: _Problem, rng: random.Random, why: str) -> MatchResult:
    """The full graph when it is small enough; else pairs within classes, leftovers exact, uncertified."""
    if len(problem.nodes) <= FULL_GRAPH_LIMIT:
        result = _exact(problem, problem.nodes, "rustworkx", rng)
        result.notes.append(f"fast: {why}; solved the full graph")
        return result
    groups, _ = _groups(problem, 0)
    within = {(i, i): len(g) // 2 for i, g in enumerate(groups) if len(g) >= 2}
    pairs, residual = _realise(problem, groups, within, rng)
    pairs, total = _finish(problem, pairs, residual, rng)
    return MatchResult(pairs, total, False, None, "fast", [f"fast: {why}; paired within classes, not proven optimal"])


class _ClassLP:
    """min sum C_cd x_cd over class pairs; degree constraints; odd-set cuts added by separation.

    Solved in passes, each one exact whatever the size of the costs: a pass hands HiGHS the current reduced
    costs shifted right until they fit in PRECISION_BITS (floats hold them exactly), rounds the duals to
    integers and repairs them until they are feasible in exact integer arithmetic, then subtracts them (shifted
    back) from the reduced costs. The sum of the passes' duals stays feasible for the true costs, so LB, the sum
    of the passes' dual objectives, is a proven lower bound at any magnitude; a later pass (`refine`) works on
    what the earlier ones left, so each pass adds about PRECISION_BITS bits of precision."""

    def __init__(self, cost, counts):
        self.k = k = len(counts)
        self.counts = counts
        self.cost = cost
        self.vars = [
            (i, j)
            for i in range(k)
            for j in range(i, k)
            if cost[i][j] is not None and (i != j or counts[i] >= 2)
        ]
        self.vi = np.array([v[0] for v in self.vars], dtype=np.int64)
        self.vj = np.array([v[1] for v in self.vars], dtype=np.int64)
        doubled = [2 * cost[i][j] for i, j in self.vars]
        self.wide = max(doubled, default=0) >= 2**52  # int64 arithmetic would not be safe: Python ints
        values = np.empty(len(doubled), dtype=object if self.wide else np.int64)
        values[:] = doubled
        self.allowed = np.zeros((k, k), dtype=bool)
        self.allowed[self.vi, self.vj] = self.allowed[self.vj, self.vi] = True
        # rc2[c, d]: a lower bound on the doubled reduced cost of a (c, d) pair (exact unless clipped by `refine`)
        self.rc2 = np.zeros((k, k), dtype=values.dtype)
        self.rc2[self.vi, self.vj] = values
        self.rc2[self.vj, self.vi] = values
        self.d2 = self.rc2.copy()
        self.lb2 = 0  # the proven bound, doubled
        self.cuts: list = []  # frozensets of class indices with an odd number of players
        self.x = None
        self.lower_bound = None
        self.highs = None

    def solve(self) -> bool:
        if not self.vars:
            return False
        if self.k == 1:  # one class (a first round): everybody pairs within it, nothing to optimise
            self.x = np.array([self.counts[0] / 2])
            self.lb2 = int(self.counts[0]) * self.cost[0][0]  # dual u = C/2 on the only class
            self.rc2[:] = 0
            self.lower_bound = Fraction(self.lb2, 2)
            self.shift = 0
            return True
        return self._pass(None)

    def refine(self, gap2: int) -> bool:
        """One more pass on the reduced costs, clipped above `gap2` (doubled): a pair whose reduced cost
        exceeds the gap is in no cheaper matching, and lowering a cost keeps every dual feasible. No new cuts:
        the earlier cuts' duals are folded into the costs, so only precision is gained here."""
        if self.k == 1:
            return False
        return self._pass(2 * gap2 + 2, rounds=1, stall=1)

    def strengthen(self) -> bool:
        """Start the bound again from the true costs with a far larger budget of odd-set cuts (the earlier cuts
        stay): for a field whose first LP stopped while still fractional."""
        if self.k == 1:
            return False
        self.rc2, self.lb2 = self.d2.copy(), 0
        return self._pass(None, rounds=STRONG_CUT_ROUNDS, stall=STRONG_STALL_ROUNDS)

    def _pass(self, cap, rounds=MAX_CUT_ROUNDS, stall=STALL_ROUNDS) -> bool:
        import highspy

        k, vi, vj = self.k, self.vi, self.vj
        rv = self.rc2[vi, vj]
        if cap is not None and cap < rv.max():
            rv = np.minimum(rv, cap)
        self.shift = shift = max(0, int(rv.max()).bit_length() - PRECISION_BITS)
        if self.wide:
            ci = np.array([int(v) >> shift for v in rv], dtype=np.int64)
        else:
            ci = rv >> shift
        c = ci.astype(float)
        h = self.highs
        nv = len(self.vars)
        if h is None:
            h = self.highs = highspy.Highs()
            h.setOptionValue("output_flag", False)
            h.addCols(nv, c, np.zeros(nv), np.full(nv, highspy.kHighsInf), 0,
                      np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
            loop = vi == vj
            rows = np.concatenate([vi, vj[~loop]])
            cols = np.concatenate([np.arange(nv), np.arange(nv)[~loop]])
            vals = np.concatenate([np.where(loop, 2.0, 1.0), np.ones(int((~loop).sum()))])
            order = np.argsort(rows, kind="stable")
            starts = np.searchsorted(rows[order], np.arange(k)).astype(np.int32)
            b = self.counts.astype(float)
            h.addRows(k, b, b, len(order), starts, cols[order].astype(np.int32), vals[order])
            self._add_cuts(self.cuts)
        else:
            h.changeColsCost(nv, np.arange(nv, dtype=np.int32), c)
        stalled, best_obj = 0, -math.inf
        for rnd in range(rounds):
            h.run()
            if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
                return False
            sol = h.getSolution()
            self.x = np.array(sol.col_value)
            obj = float(c @ self.x)
            stalled = stalled + 1 if obj <= best_obj + EPS * max(1.0, abs(best_obj)) else 0
            best_obj = max(best_obj, obj)
            if rnd == rounds - 1 or stalled >= stall:  # cuts that only shuffle equal optima: stop
                break
            new = self._violated(vi, vj)
            if not new:
                break
            self._add_cuts(new)
            self.cuts.extend(new)
        duals = np.array(sol.row_dual)
        self._take_duals(duals[:k], duals[k:], ci, shift)
        return True

    def _add_cuts(self, cuts: list) -> None:
        if not cuts:
            return
        starts, index = [], []
        for cut in cuts:
            starts.append(len(index))
            inside = np.zeros(self.k, dtype=bool)
            inside[list(cut)] = True
            index.extend(np.nonzero(inside[self.vi] ^ inside[self.vj])[0].tolist())
        n = len(cuts)
        self.highs.addRows(n, np.ones(n), np.full(n, 1e30), len(index), np.array(starts, np.int32),
                           np.array(index, np.int32), np.ones(len(index)))

    def _take_duals(self, u, z, ci, shift) -> None:
        """Round the duals to integers, repair them to exact feasibility against this pass's costs `ci`, and
        add them (shifted back) to the bound; the reduced costs drop by as much."""
        k = self.k
        d = np.full((k, k), INF, dtype=np.int64)
        d[self.vi, self.vj] = ci
        d[self.vj, self.vi] = ci
        uu = np.round(u).astype(np.int64)
        zz = np.maximum(np.round(z), 0).astype(np.int64)
        if len(zz):
            member = np.zeros((k, len(zz)), dtype=np.int64)
            for s, cut in enumerate(self.cuts):
                member[list(cut), s] = 1
            w = member @ zz
            cross = w[:, None] + w[None, :] - 2 * ((member * zz) @ member.T)
        else:
            cross = np.zeros((k, k), dtype=np.int64)
        for i in range(k):  # lowering u_i only loosens the others: one pass makes every constraint hold
            limit = d[i] - uu - cross[i]
            limit[i] = (d[i, i] - cross[i, i]) // 2
            uu[i] = min(uu[i], limit.min())
        used = uu[:, None] + uu[None, :] + cross
        assert np.all((d - used)[self.allowed] >= 0), "dual repair failed"
        if self.wide:
            used = used.astype(object) * (1 << shift)
        else:
            used = used << shift
        self.rc2 = np.where(self.allowed, self.rc2 - used, self.rc2)
        gained = sum(int(n) * int(v) for n, v in zip(self.counts, uu)) + int(zz.sum())
        self.lb2 += gained << shift
        self.lower_bound = Fraction(self.lb2, 2)

    def _violated(self, vi, vj) -> list:
        """Odd unions of classes that the fractional solution leaves with less than one crossing pair."""
        found, seen = [], set(self.cuts)
        for threshold in (EPS, 0.5 - EPS, 0.5 + EPS, 1 - EPS, 1 + EPS):
            parent = list(range(self.k))

            def root(a):
                while parent[a] != a:
                    parent[a] = parent[parent[a]]
                    a = parent[a]
                return a

            for t in np.nonzero(self.x > threshold)[0]:
                parent[root(vi[t])] = root(vj[t])
            comps: dict = defaultdict(list)
            for a in range(self.k):
                comps[root(a)].append(a)
            for comp in comps.values():
                s = frozenset(comp)
                if s in seen or int(self.counts[comp].sum()) % 2 == 0 or len(s) == self.k:
                    continue
                inside = np.isin(vi, comp) ^ np.isin(vj, comp)
                if self.x[inside].sum() < 1 - EPS:
                    found.append(s)
                    seen.add(s)
        return found

    def integer_part(self) -> dict:
        """Class-pair counts to realise in bulk: the LP's values if integral, else floor - 1."""
        x = self.x
        integral = np.all(np.abs(x - np.round(x)) < EPS)
        counts = np.round(x) if integral else np.maximum(np.floor(x + EPS) - 1, 0)
        return {self.vars[t]: int(counts[t]) for t in np.nonzero(counts > 0)[0]}


def _realise(problem: _Problem, groups: list, bulk: dict, rng: random.Random):
    """Pairs of actual players for the group-pair counts; swaps avoid earlier opponents. Returns leftovers too."""
    pools = []
    for group in groups:
        pool = list(group)
        rng.shuffle(pool)
        pools.append(pool)
    pairs: list = []
    for (i, j), count in sorted(bulk.items()):
        if i == j:
            taken = pools[i][-2 * count:]
            pairs.extend(zip(taken[:count], taken[count:]))
            del pools[i][-2 * count:]
        else:
            pairs.extend(zip(pools[i][-count:], pools[j][-count:]))
            del pools[i][-count:], pools[j][-count:]
    residual = [v for pool in pools for v in pool]
    special = problem.special
    if not special:
        return pairs, residual
    where = {}
    by_class: dict = defaultdict(list)
    for p, (a, b) in enumerate(pairs):
        where[a] = where[b] = p
        by_class[problem.cls[a]].append(a)
        by_class[problem.cls[b]].append(b)
    alive = [True] * len(pairs)

    def met(a, b):
        return b in special.get(a, ())

    for p in range(len(pairs)):
        a, b = pairs[p]
        if not met(a, b):
            continue
        fixed = False
        for _ in range(SWAP_TRIES):
            pivot, other = (a, b) if rng.random() < 0.5 else (b, a)
            same = by_class[problem.cls[pivot]]
            x = same[rng.randrange(len(same))]
            q = where[x]
            if q == p or not alive[q]:
                continue
            y = pairs[q][1] if pairs[q][0] == x else pairs[q][0]
            if met(pivot, y) or met(x, other):
                continue
            pairs[p], pairs[q] = (pivot, y), (x, other)
            where[y], where[other] = p, q
            fixed = True
            break
        if not fixed:
            alive[p] = False
            residual.extend(pairs[p])
    return [pq for p, pq in enumerate(pairs) if alive[p]], residual


def _finish(problem: _Problem, pairs: list, residual: list, rng: random.Random):
    """Match the leftovers exactly; if they cannot be matched alone, release more bulk pairs and retry."""
    pairs = list(pairs)
    residual = list(residual)
    while True:
        try:
            part = _exact(problem, residual, "rustworkx", rng) if residual else None
            break
        except NoPerfectMatching:
            if not pairs:
                raise
            rng.shuffle(pairs)
            release = max(len(residual), 8)
            for a, b in pairs[:release]:
                residual.extend((a, b))
            del pairs[:release]
    cls = problem.cls  # bulk pairs never met before: their cost is their classes' cost
    total = sum(n * problem.class_cost(*key) for key, n in Counter((cls[a], cls[b]) for a, b in pairs).items())
    if part is not None:
        pairs.extend(part.pairs)
        total += part.total_cost
    return pairs, total

"""The class-level LP of the fast matcher, solved to a bound that is proven in exact integer arithmetic.

Players of one class cost the same to everybody, so x_cd counts the pairs between classes c and d (c = d allowed)
under degree constraints sum_d x_cd + 2 x_cc = n_c, plus odd-set cuts x(delta(S)) >= 1 for unions S of classes
holding an odd number of players (found by separation; HiGHS re-solves warm as cuts are added). Any perfect
matching satisfies all of them, so the LP value bounds every matching from below; the bound is taken from the
duals, rounded to integers and repaired until feasible exactly (app/core/pairing/fast.py uses it).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

EPS = 1e-6
INF = 2**62
MAX_CUT_ROUNDS = 30
STALL_ROUNDS = 8
STRONG_CUT_ROUNDS = 300  # when the bound misses: cut rounds are cheap with HiGHS warm, so look much harder
STRONG_STALL_ROUNDS = 60
FIRST_PASS_UNITS = 200_000  # work after which the first pass stops adding cuts (a constant, not a share of the budget)
PRIMAL, DUAL = 4, 1  # HiGHS simplex_strategy values
PRECISION_BITS = 40  # costs handed to the floating-point LP are shifted below 2**40 (floats hold them exactly)


def _quiet_highs(highspy):
    """A HiGHS instance that prints nothing: highspy.Highs()'s constructor (its callback set-up) writes the
    banner to the process's stdout before any option can be set, so the compiled core class is built instead
    (the engine uses no callbacks) and silenced before its first call."""
    h = getattr(highspy, "_Highs", highspy.Highs)()
    h.setOptionValue("output_flag", False)
    return h


class ClassLP:
    """min sum C_cd x_cd over class pairs; degree constraints; odd-set cuts added by separation.

    Solved in passes, each one exact whatever the size of the costs: a pass hands HiGHS the current reduced
    costs shifted right until they fit in PRECISION_BITS (floats hold them exactly), rounds the duals to
    integers and repairs them until they are feasible in exact integer arithmetic, then subtracts them (shifted
    back) from the reduced costs. The sum of the passes' duals stays feasible for the true costs, so LB, the sum
    of the passes' dual objectives, is a proven lower bound at any magnitude; a later pass (`refine`) works on
    what the earlier ones left, so each pass adds about PRECISION_BITS bits of precision."""

    def __init__(self, cost, counts, work=None):
        self.work = work  # a work.Work: each HiGHS solve spends units by its simplex iterations
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
        """The first pass: cut rounds until the LP stalls or it has spent FIRST_PASS_UNITS (a constant, so that
        the budget only ever cuts the search short). False when the LP is infeasible; OutOfBudget when not even
        its first solve fits."""
        if not self.vars:
            return False
        if self.k == 1:  # one class (a first round): everybody pairs within it, nothing to optimise
            self.x = np.array([self.counts[0] / 2])
            self.lb2 = int(self.counts[0]) * self.cost[0][0]  # dual u = C/2 on the only class
            self.rc2[:] = 0
            self.lower_bound = Fraction(self.lb2, 2)
            self.shift = 0
            self.complete = True
            return True
        return self._pass(None, allowance=FIRST_PASS_UNITS)

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

    def _separation_units(self) -> int:
        return 10 * self.k + len(self.vars) // 20

    def _pass(self, cap, rounds=MAX_CUT_ROUNDS, stall=STALL_ROUNDS, allowance=None) -> bool:
        """One pass of cut rounds. Each HiGHS solve may take only the simplex iterations the work budget has
        left; a pass cut short by the budget (`complete` False) still leaves a proven bound (any duals, repaired,
        give one), but no solution to realise. False when the LP is infeasible."""
        import highspy

        work = self.work
        k, vi, vj = self.k, self.vi, self.vj
        nv = len(self.vars)
        if work is not None:
            work.need(self._build_units() if self.highs is None else nv)
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
        if h is None:
            if work is not None:
                work.spend(self._build_units())
            h = self.highs = _quiet_highs(highspy)
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
            if work is not None:
                work.spend(nv)
            h.changeColsCost(nv, np.arange(nv, dtype=np.int32), c)
            h.setOptionValue("simplex_strategy", PRIMAL)  # new costs, same constraints: the basis stays feasible
        start = work.spent if work is not None else 0
        stalled, best_obj = 0, -math.inf
        duals, complete = None, True
        for rnd in range(rounds):
            if work is not None:
                limit = work.iterations_left(nv, self._dual_units())
                if limit < 0:
                    complete = False
                    break
                h.setOptionValue("simplex_iteration_limit", int(min(limit, 2**31 - 1)))
            h.run()
            h.setOptionValue("simplex_strategy", DUAL)  # after new cuts the basis is dual feasible
            if work is not None:  # a solve costs its start-up and simplex iterations (counted, so reproducible)
                work.spend_lp(nv, h.getInfo().simplex_iteration_count)
            status = h.getModelStatus()
            if status == highspy.HighsModelStatus.kIterationLimit:  # cut short: its duals still give a bound
                duals, complete = np.nan_to_num(np.array(h.getSolution().row_dual)), False
                break
            if status != highspy.HighsModelStatus.kOptimal:
                return False
            sol = h.getSolution()
            self.x = np.array(sol.col_value)
            duals = np.array(sol.row_dual)
            obj = float(c @ self.x)
            stalled = stalled + 1 if obj <= best_obj + EPS * max(1.0, abs(best_obj)) else 0
            best_obj = max(best_obj, obj)
            if allowance is not None and work is not None and work.spent - start > allowance:
                break  # the first pass leaves the rest to realising its bound and improving it
            if rnd == rounds - 1 or stalled >= stall:  # cuts that only shuffle equal optima: stop
                break
            if work is not None:
                if not work.affords(self._separation_units() + work.run_units(nv) + self._dual_units()):
                    complete = False
                    break
                work.spend(self._separation_units())
            new = self._violated(vi, vj)
            if not new:
                break
            self._add_cuts(new)
            self.cuts.extend(new)
        if duals is None:  # not even one solve fitted
            from .work import OutOfBudget

            raise OutOfBudget
        if work is not None:
            work.spend(self._dual_units())
        self.complete = complete
        if not complete:
            self.x = None
        self._take_duals(duals[:k], duals[k:], ci, shift)
        return True

    def _dual_units(self) -> int:
        """Taking the duals at the end of a pass: k x k arrays, one product per cut with a dual (at most all)."""
        return self.k * self.k * (len(self.cuts) + 60) // 2000

    def _build_units(self) -> int:
        return 2 * len(self.vars)

    def _add_cuts(self, cuts: list) -> None:
        if not cuts:
            return
        starts: list[int] = []
        index: list[int] = []
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
        active = np.nonzero(zz)[0]  # only the cuts with a dual cross any pair's cost
        if len(active):
            member = np.zeros((k, len(active)), dtype=np.int64)
            for col, s in enumerate(active):
                member[list(self.cuts[s]), col] = 1
            za = zz[active]
            w = member @ za
            cross = w[:, None] + w[None, :] - 2 * ((member * za) @ member.T)
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
        gained = sum(int(n) * int(v) for n, v in zip(self.counts, uu, strict=True)) + int(zz.sum())
        self.lb2 += gained << shift
        self.lower_bound = Fraction(self.lb2, 2)

    def _violated(self, vi, vj) -> list:
        """Odd unions of classes that the fractional solution leaves with less than one crossing pair: the
        components of the pairs above each threshold, every component's crossing weight summed at once."""
        found, seen = [], set(self.cuts)
        k = self.k
        for threshold in (EPS, 0.5 - EPS, 0.5 + EPS, 1 - EPS, 1 + EPS):
            parent = list(range(k))

            def root(a, parent=parent):
                while parent[a] != a:
                    parent[a] = parent[parent[a]]
                    a = parent[a]
                return a

            for t in np.nonzero(self.x > threshold)[0]:
                parent[root(vi[t])] = root(vj[t])
            label = np.array([root(a) for a in range(k)], dtype=np.int64)
            players = np.bincount(label, weights=self.counts, minlength=k)
            size = np.bincount(label, minlength=k)
            li, lj = label[vi], label[vj]
            cross = li != lj
            weight = (np.bincount(li[cross], weights=self.x[cross], minlength=k)
                      + np.bincount(lj[cross], weights=self.x[cross], minlength=k))
            odd = (size > 0) & (size < k) & (players.astype(np.int64) % 2 == 1) & (weight < 1 - EPS)
            for r in np.nonzero(odd)[0]:
                cut = frozenset(np.nonzero(label == r)[0].tolist())
                if cut not in seen:
                    found.append(cut)
                    seen.add(cut)
        return found

    def integer_part(self) -> dict:
        """Class-pair counts to realise in bulk: the LP's values if integral, else floor - 1."""
        x = self.x
        integral = np.all(np.abs(x - np.round(x)) < EPS)
        counts = np.round(x) if integral else np.maximum(np.floor(x + EPS) - 1, 0)
        return {self.vars[t]: int(counts[t]) for t in np.nonzero(counts > 0)[0]}

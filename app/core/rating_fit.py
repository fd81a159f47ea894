"""Seeding strengths from one joint fit of every earlier game (docs/domain.md 15.1), not from period-by-period
updates: a rating updated event by event never revises what an old evening said once later games showed who the
opponents really were; a fit of all the games at once does. What it gained in a changing club is in
docs/benchmarks.md ("The churn league").

The model: Bradley-Terry in log-odds, P(first scores) = logistic(skill_first - skill_second + edge x side), `side`
+1 when the first player was the Corp, -1 the Runner, 0 unsided; a tie is half a win and half a loss. Priors: the
players of the first period (the founders) N(0, PRIOR_SD^2); everyone seen later (a newcomer) N(m, PRIOR_SD^2), the
newcomers' mean m learnt from how they did (m ~ N(0, 1)), so a newcomer starts where newcomers actually are, not at
the club's mean; the Corp's edge ~ N(0, 1). The answer is the maximum a posteriori: each skill is pulled towards
its prior mean by as much as its games leave it uncertain, so a player with few games moves less (the uncertainty
the seeding uses). A player never seen is at m.

Solved by Newton's method on the exact gradient and Hessian, each step by conjugate gradients on the Hessian as a
sum over games (never a players x players matrix: the cost grows with the games, not the square of the players).
Byes and intentional draws are not games of skill: skipped, as in app/core/ratings.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable, Mapping, Optional

import numpy as np

from .ratings import Game, _side

PRIOR_SD = 1.0  # the spread of skill, in log-odds (a standard normal club)
NEWCOMER_SD = 1.0  # the prior on the newcomers' mean m
EDGE_SD = 1.0  # the prior on the Corp's edge
SCALE = 1000  # strengths are round(SCALE x skill): exact ints for the pairing engine
_TOL = 1e-9


@dataclass(frozen=True)
class Fit:
    """Every player's skill in log-odds, the newcomers' mean and the Corp's edge."""

    skill: Mapping = field(default_factory=dict)  # key -> float
    newcomer: float = 0.0  # where a player never seen is
    edge: float = 0.0  # the Corp's edge in log-odds

    def __getitem__(self, key: Hashable) -> float:
        return float(self.skill.get(key, self.newcomer))

    def strengths(self, keys: Mapping) -> dict:
        """player id -> round(SCALE x skill) of its key (never seen: the newcomers' mean)."""
        return {pid: round(SCALE * self[key]) for pid, key in keys.items()}


def fit(games: Iterable[Game], *, start: Optional[Fit] = None, prior_sd: float = PRIOR_SD,
        max_steps: int = 50) -> Fit:
    """The MAP fit of `games` (time order: the first period's players are the founders). `start`: an earlier fit to
    start Newton from (the answer is the same, to the tolerance; it only saves steps)."""
    counted = [g for g in games if g.counted]
    if not counted:
        return Fit()
    index: dict = {}
    founders = counted[0].period
    new_flags = []
    for g in counted:
        for p in (g.first, g.second):
            if p not in index:
                index[p] = len(index)
                new_flags.append(0.0 if (founders is not None and g.period == founders) or g is counted[0] else 1.0)
    players = list(index)
    n = len(players)
    i = np.fromiter((index[g.first] for g in counted), dtype=np.int64, count=len(counted))
    j = np.fromiter((index[g.second] for g in counted), dtype=np.int64, count=len(counted))
    y = np.fromiter((float(g.outcome) for g in counted), dtype=float, count=len(counted))
    s = np.fromiter((_side(g) for g in counted), dtype=float, count=len(counted))
    new = np.array(new_flags)
    pv = 1 / prior_sd ** 2
    x = np.zeros(n + 2)  # skills, then m, then the edge
    if start is not None:
        x[:n] = [start.skill.get(p, start.newcomer if new[k] else 0.0) for k, p in enumerate(players)]
        x[n], x[n + 1] = start.newcomer, start.edge

    def gradient(x, p):
        r = y - p
        g = np.zeros(n + 2)
        g[:n] = np.bincount(i, r, n) - np.bincount(j, r, n) - pv * (x[:n] - new * x[n])
        g[n] = pv * np.dot(new, x[:n] - x[n]) - x[n] / NEWCOMER_SD ** 2
        g[n + 1] = np.dot(r, s) - x[n + 1] / EDGE_SD ** 2
        return g

    def hessian_times(q, v):
        d = q * (v[i] - v[j] + s * v[n + 1])
        out = np.empty(n + 2)
        out[:n] = np.bincount(i, d, n) - np.bincount(j, d, n) + pv * (v[:n] - new * v[n])
        out[n] = -pv * np.dot(new, v[:n]) + (pv * new.sum() + 1 / NEWCOMER_SD ** 2) * v[n]
        out[n + 1] = np.dot(d, s) + v[n + 1] / EDGE_SD ** 2
        return out

    for _ in range(max_steps):
        p = 1 / (1 + np.exp(-(x[i] - x[j] + s * x[n + 1])))
        q = p * (1 - p)
        g = gradient(x, p)
        diag = np.empty(n + 2)
        diag[:n] = np.bincount(i, q, n) + np.bincount(j, q, n) + pv
        diag[n] = pv * new.sum() + 1 / NEWCOMER_SD ** 2
        diag[n + 1] = np.dot(q, s * s) + 1 / EDGE_SD ** 2
        step = _conjugate_gradients(lambda v, q=q: hessian_times(q, v), g, diag)
        largest = np.abs(step).max()
        x += step if largest <= 1 else step / largest  # a long first step is cut: the loss is convex, not quadratic
        if largest < _TOL:
            break
    return Fit(dict(zip(players, x[:n].tolist(), strict=True)), float(x[n]), float(x[n + 1]))


def _conjugate_gradients(times, b, diag, tol=1e-12, limit=500):
    """Solve H z = b (H symmetric positive definite, given as `times`), preconditioned by its diagonal."""
    z = np.zeros_like(b)
    r = b.copy()
    u = r / diag
    d = u.copy()
    ru = np.dot(r, u)
    stop = tol * np.dot(b, b)
    for _ in range(limit):
        if np.dot(r, r) <= stop:
            break
        hd = times(d)
        a = ru / np.dot(d, hd)
        z += a * d
        r -= a * hd
        u = r / diag
        ru, ru_old = np.dot(r, u), ru
        d = u + (ru / ru_old) * d
    return z

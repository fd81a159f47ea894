"""The churn league's levers, a bounded exploration beside `make bench-ranking` (not a make target): which change
to the ratings, or to how the seeding uses them, would bring seeding by rating ahead of SASS without it?

`python -m bench.bench_churn_levers VARIANTS FIRST..LAST [JOBS]`, e.g. `sass,rules,joint 0..200 2`: the churn
league of bench_ranking_series.py (same schedules, skills and luck per season), the measured last 8 events, each
variant's Spearman and top-8 recall per season and the pre-event strengths' Spearman among the attendees; paired
differences against the first variant named (and against `rules`), SE = sd / sqrt(seasons). Variants:

- sass: no rating.
- rules: the app's rules (`app.core.ratings.strengths` of the default model, period by period): sass-rating.
- joint, joint-d0.95: a joint Bradley-Terry maximum a posteriori fit of every earlier game before each event:
  founders' skills N(0, 1), newcomers' N(m, 1) with the newcomers' mean m learnt (N(0, 1) prior on it), a shared
  Corp edge, older games weighted decay^(events ago) (1 or 0.95) for the drift; an unseen player gets m.
- rules-r1: the app's rules, but the ratings seed round 1 only (later rounds pair as without them).
- oracle: the week's true skills as strengths: the most any rating could give through this seeding rule.
"""
import statistics
import sys
import time
from multiprocessing import Pool

import numpy as np

from app.core import rating_fit as F
from app.core import ratings as R
from app.core.pairing import Entrant, Format, pair_round

from . import bench_ranking_series as S
from .bench_ranking import PAIRERS, _mean_se


def joint_fit(history, now, decay=1.0, prior_sd=1.0, new_sd=1.0, m_sd=1.0, iters=30):
    """MAP Bradley-Terry over all earlier games: theta_i ~ N(0, prior_sd^2) for founders (first period),
    N(m, new_sd^2) for newcomers, m ~ N(0, m_sd^2), shared corp edge h ~ N(0, 1); games weighted decay^(age)."""
    games = [g for g in history if g.counted]
    if not games:
        return None
    first = {}
    for g in games:
        for p in (g.first, g.second):
            first.setdefault(p, g.period)
    p0 = min(first.values())
    players = list(first)
    idx = {p: k for k, p in enumerate(players)}
    n = len(players)
    new = np.array([first[p] != p0 for p in players], dtype=float)
    i = np.array([idx[g.first] for g in games])
    j = np.array([idx[g.second] for g in games])
    y = np.array([float(g.outcome) for g in games])
    side = np.array([R._side(g) for g in games], dtype=float)
    w = np.array([decay ** (now - g.period) for g in games])
    # params: theta (n), m, h
    th = np.zeros(n)
    m = 0.0
    h = 0.0
    pv = np.where(new > 0, 1 / new_sd ** 2, 1 / prior_sd ** 2)
    for _ in range(iters):
        z = th[i] - th[j] + side * h
        p = 1 / (1 + np.exp(-z))
        r = w * (y - p)
        q = w * p * (1 - p)
        N = n + 2
        grad = np.zeros(N)
        H = np.zeros((N, N))
        np.add.at(grad, i, r)
        np.add.at(grad, j, -r)
        grad[n + 1] = np.sum(r * side)
        mu0 = new * m
        grad[:n] -= pv * (th - mu0)
        grad[n] = np.sum(new * pv * (th - m)) - m / m_sd ** 2
        grad[n + 1] -= h
        np.add.at(H, (i, i), q)
        np.add.at(H, (j, j), q)
        np.add.at(H, (i, j), -q)
        np.add.at(H, (j, i), -q)
        np.add.at(H[:n, n + 1], i, q * side)
        np.add.at(H[:n, n + 1], j, -q * side)
        H[n + 1, :n] = H[:n, n + 1]
        H[n + 1, n + 1] = np.sum(q * side * side) + 1
        H[np.arange(n), np.arange(n)] += pv
        H[:n, n] = -new * pv
        H[n, :n] = -new * pv
        H[n, n] = np.sum(new * pv) + 1 / m_sd ** 2
        step = np.linalg.solve(H, grad)
        th += step[:n]
        m += step[n]
        h += step[n + 1]
        if np.abs(step).max() < 1e-8:
            break
    return {p: th[idx[p]] for p in players}, m


def make_strengths(kind, opts, state, history, att, e):
    keys = dict(enumerate(att))
    if kind == "rules":
        return R.strengths(state, keys) if state.ratings else None
    if kind == "oracle":
        return None
    if kind == "joint":
        fit = joint_fit(history, e, **opts)
        if fit is None:
            return None
        th, m = fit
        return {k: round(1000 * th.get(p, m)) for k, p in keys.items()}
    if kind == "fit":  # the app's fit (app/core/rating_fit.py)
        if not history:
            return None
        return F.fit(history, prior_sd=opts.get("sd", 1.0)).strengths(keys)
    raise ValueError(kind)


def rated_pairer(strengths, rounds_used, live=None):
    """`live(games so far)`: strengths again before every round from the event's games so far too."""
    def pair(players, games, rnd, rng, skill=None):
        entrants = [Entrant(id=p.pid, name=str(p.pid)) for p in players]
        st = strengths if (strengths and (rounds_used is None or rnd in rounds_used)) else None
        if live is not None and games:
            st = live(games)
        plan = pair_round(Format.SINGLE_SIDED, entrants, games, round_number=rnd, seed=rng.randrange(1 << 30),
                          strengths=st)
        pairs, bye = [], None
        for t in plan.pairings:
            if t.is_bye:
                bye = t.player
            else:
                pairs.append((t.corp, t.runner))
        return pairs, bye
    return pair


def season(args):
    variant, seed = args
    kind, opts, rounds_used = variant
    events, newcomers = S.league_schedule(seed)
    rows, pre = [], []
    state = R.Ratings(R.DEFAULT_MODEL) if kind != "none" else None
    history = []
    for e, (att, skill, rounds, es, club) in enumerate(events):
        measured = e >= S.LEAGUE_EVENTS - S.LEAGUE_LAST
        if kind == "none":
            if not measured:
                continue
            pairer = PAIRERS["sass"]
        else:
            strengths = make_strengths(kind, opts, state, history, att, e)
            if kind == "oracle":  # true skill this week: the most any rating could give
                strengths = {k: round(1000 * x) for k, x in enumerate(skill)}
            if measured and strengths:
                pre.append(S._spearman(strengths, dict(enumerate(skill))))
            live = None
            if opts.get("live"):
                def live(games, att=att, e=e, history=history):
                    found = F.fit(history + S._league_games(att, games, e), prior_sd=opts.get("sd", 1.0))
                    return found.strengths(dict(enumerate(att)))
            pairer = rated_pairer(strengths, rounds_used, live)
        st, games = S._play_league(pairer, skill, rounds, es)
        if measured:
            rows.append(S._figures(es, st, games, skill, 0))
        if kind != "none":
            period = S._league_games(att, games, e)
            history.extend(period)
            state = R.rate_period(state, period)
    return [statistics.mean(r[k] for r in rows) for k in range(2)], (statistics.mean(pre) if pre else None)


def run(variants, seasons, jobs):
    with Pool(jobs) as pool:
        res = {}
        for name, v in variants.items():
            t = time.time()
            res[name] = pool.map(season, [(v, s) for s in seasons], chunksize=2)
            print(f"# {name}: {time.time() - t:.0f}s", flush=True)
    base = list(variants)[0]  # the first named: usually sass
    print(f"seasons {seasons[0]}..{seasons[-1]} ({len(seasons)})")
    for name in variants:
        pre = [p for _, p in res[name] if p is not None]
        sp = statistics.mean(r[0][0] for r in res[name])
        t8 = statistics.mean(r[0][1] for r in res[name])
        line = f"{name:28s} sp {sp:.4f} top8 {t8:.3f} pre {statistics.mean(pre) if pre else float('nan'):.4f}"
        if name != base:
            d0 = _mean_se([a[0][0] - b[0][0] for a, b in zip(res[name], res[base])])
            d1 = _mean_se([a[0][1] - b[0][1] for a, b in zip(res[name], res[base])])
            line += f" | vs {base}: sp {d0[0]:+.4f} ({d0[1]:.4f}) top8 {d1[0]:+.3f} ({d1[1]:.3f})"
            if "rules" in res and name != "rules":
                d2 = _mean_se([a[0][0] - b[0][0] for a, b in zip(res[name], res["rules"])])
                line += f" | vs rules: sp {d2[0]:+.4f} ({d2[1]:.4f})"
        print(line, flush=True)
    return res


VARIANTS = {
    "sass": ("none", {}, None),
    "rules": ("rules", {}, None),
    "joint": ("joint", {}, None),
    "joint-d0.95": ("joint", {"decay": 0.95}, None),
    "rules-r1": ("rules", {}, {1}),
    "oracle": ("oracle", {}, None),
    "fit": ("fit", {}, None),
    "fit-live": ("fit", {"live": True}, None),
    "fit-sd0.8": ("fit", {"sd": 0.8}, None),
    "fit-sd1.25": ("fit", {"sd": 1.25}, None),
}

if __name__ == "__main__":
    first, last = map(int, sys.argv[2].split(".."))
    run({n: VARIANTS[n] for n in sys.argv[1].split(",")}, list(range(first, last)),
        int(sys.argv[3]) if len(sys.argv) > 3 else 1)

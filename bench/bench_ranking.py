"""Ranking accuracy of single-sided swiss: SASS's engine against the peers' pairing rules on the same events.

`python -m bench.bench_ranking [--events N] [--jobs J] [--quick]` (default 2,000 events per field size, 28 x 6 and
60 x 7; --quick 40). `--series N`: simulated series instead, seeding by rating against the peers
(bench_ranking_series.py).

Each event draws true skills from a standard normal; a game is tied with probability 2 %, otherwise the Corp wins
with probability 1 / (1 + exp(-(skill_corp - skill_runner))). The results come from their own random stream seeded
by the event, so every pairer meets the same players and the same luck. Pairers:

- sass: the engine (`app.core.pairing.pair_round`, single-sided, defaults).
- deployed: the deployed SASS web app's rule: score cost (d+1)d/6 over the points difference d, side cost 8**post
  when the pairing does not reduce the larger |bias| (post = the larger |bias| after the game), bye cost as a game
  against a player 9 points below 0, a second game only on the opposite sides.
- article: the SASS article's rule: 2 * T(points difference / 3) (T the triangular number) plus 8**min(|a|, |b|)
  when both biases have the same sign; the Corp is the one with the lower bias; a rematch on the opposite sides only
  if it worsens no non-zero bias.
- cobra: Cobra's single-sided strategy: (points difference)^2 + 5 for a rematch + 50**k (k the surplus games of the
  Corp as Corp or of the Runner as Runner); an edge costing 100 or more is forbidden; bye cost (points + 1)^2.

The peers' costs are scaled to integers (exact) and solved as a maximum-cardinality maximum-weight matching
(networkx) on a shuffled full graph. Final standings for every pairer: points, then SoS and ESoS computed by
`app.core.standings`, then a seeded random order that is the same for every pairer. Figures per event: Spearman of
the standings against true skill, true top-8 players in the swiss top 8, rematches, players sent home with uneven
sides (|corp - runner| > games % 2); the same two figures again for the order by points alone (ties by the same
coin), the order the peers' own simulators report. Differences are paired per event: SASS minus each peer, mean
and SE = sd / sqrt(n).

References, not peers, to show how much any pairing rule can move these figures:
- random: a random legal pairing (no rematch, the lower bias plays Corp), no swiss at all.
- oracle-close / oracle-far: SASS's own pairing, then, among the games of each (Corp class, Runner class) cell
  (class = points and bias, so every reassignment costs exactly the same), the players re-paired by their *true*
  skill: closest skills together, or strongest against weakest. No real pairer can know skill better: this is the
  most the choice among equal-cost pairings can give.
- estimate-close / estimate-far: the same re-pairing by what the event knows: each player's Bradley-Terry
  estimate from the games so far (maximum a posteriori under the simulation's own standard normal prior).
- rating-far-0.5 / rating-far-0.8: the same strongest-against-weakest re-pairing by a prior rating the event would
  have to be given (as chess's Dutch system is): true skill blurred by noise so that the rating correlates 0.5 or
  0.8 with it. What a rating of that quality would be worth.
"""
from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
from dataclasses import dataclass, field
from multiprocessing import Pool

import networkx as nx
import numpy as np

from app.core.pairing import Entrant, Format, Game, Side, pair_round
from app.core.standings import compute_standings

TIE_P = 0.02
CUT = 8
FIELDS = ((28, 6), (60, 7))
BYE = -1


@dataclass
class Player:
    pid: int
    score: int = 0
    bias: int = 0  # corp games - runner games
    games: int = 0
    had_bye: bool = False
    corped_vs: set = field(default_factory=set)


def _side_lock(a: Player, b: Player):
    """Who must be Corp in a second game: None (free), a, b, or False (they met on both sides)."""
    a_c, b_c = b.pid in a.corped_vs, a.pid in b.corped_vs
    if a_c and b_c:
        return False
    if a_c:
        return b
    if b_c:
        return a
    return None


def _match(players, edge, bye, rng):
    """Minimum-cost perfect pairing (one bye if odd): edge(a, b) -> (cost, corp, runner) or None; bye(p) -> cost."""
    order = list(players)
    rng.shuffle(order)
    costs, meta = [], {}
    for a, b in itertools.combinations(order, 2):
        e = edge(a, b)
        if e is not None:
            costs.append((a.pid, b.pid, e[0]))
            meta[frozenset((a.pid, b.pid))] = (e[1].pid, e[2].pid)
    if len(order) % 2:
        costs += [(p.pid, BYE, c) for p in order if (c := bye(p)) is not None]
    top = max((c for *_, c in costs), default=0) + 1
    g = nx.Graph()
    g.add_weighted_edges_from((u, v, top - c) for u, v, c in costs)
    pairs, bye_pid = [], None
    for u, v in nx.max_weight_matching(g, maxcardinality=True):
        if BYE in (u, v):
            bye_pid = u if v == BYE else v
        else:
            pairs.append(meta[frozenset((u, v))])
    if 2 * len(pairs) + (bye_pid is not None) != len(order):
        raise RuntimeError("no complete pairing")
    return pairs, bye_pid


def deployed(players, games, rnd, rng, skill=None):
    def side(bc, br):  # times 6, like the score cost
        init, post = max(abs(bc), abs(br)), max(abs(bc + 1), abs(br - 1))
        return 6 * 8 ** post if post >= init else 0

    def edge(a, b):
        lock = _side_lock(a, b)
        if lock is False:
            return None
        d = abs(a.score - b.score)
        sc = (d + 1) * d
        ca, cb = side(a.bias, b.bias), side(b.bias, a.bias)
        if lock is a or (lock is None and (ca < cb or (ca == cb and rng.random() > 0.5))):
            return sc + ca, a, b
        return sc + cb, b, a

    return _match(players, edge, lambda p: None if p.had_bye else (p.score + 10) * (p.score + 9), rng)


def article(players, games, rnd, rng, skill=None):
    def edge(a, b):  # 18 * (2 T(d / 3) + side) = 2 d (d + 3) + 18 side
        lock = _side_lock(a, b)
        if lock is False:
            return None
        d = abs(a.score - b.score)
        side = 8 ** min(abs(a.bias), abs(b.bias)) if a.bias * b.bias > 0 else 0
        if lock is None:
            if a.bias == b.bias:
                c, r = (a, b) if rng.random() < 0.5 else (b, a)
            else:
                c, r = (b, a) if a.bias > b.bias else (a, b)
        else:
            c, r = (a, b) if lock is a else (b, a)
            if (c.bias > 0) or (r.bias < 0):  # the forced sides would worsen a non-zero bias
                return None
        return 2 * d * (d + 3) + 18 * side, c, r

    return _match(players, edge, lambda p: None if p.had_bye else 2 * (p.score + 3) * (p.score + 6), rng)


def cobra(players, games, rnd, rng, skill=None):
    def edge(a, b):
        if b.pid in a.corped_vs and a.pid in b.corped_vs:
            return None
        base = (a.score - b.score) ** 2 + (5 if b.pid in a.corped_vs or a.pid in b.corped_vs else 0)
        best = None
        for c, r in ((a, b), (b, a)):
            if r.pid in c.corped_vs:
                continue
            cost = base + 50 ** max(c.bias, -r.bias, 0)
            if best is None or cost < best[0]:
                best = (cost, c, r)
        return best if best is not None and best[0] < 100 else None

    return _match(players, edge, lambda p: None if p.had_bye else (p.score + 1) ** 2, rng)


def sass(players, games, rnd, rng, skill=None):
    entrants = [Entrant(id=p.pid, name=str(p.pid)) for p in players]
    plan = pair_round(Format.SINGLE_SIDED, entrants, games, round_number=rnd, seed=rng.randrange(1 << 30))
    pairs, bye = [], None
    for t in plan.pairings:
        if t.is_bye:
            bye = t.player
        else:
            pairs.append((t.corp, t.runner))
    return pairs, bye


def random_legal(players, games, rnd, rng, skill=None):
    def edge(a, b):
        if b.pid in a.corped_vs or a.pid in b.corped_vs:
            return None
        return (rng.randrange(1000),) + ((a, b) if a.bias < b.bias else (b, a))

    return _match(players, edge, lambda p: None if p.had_bye else 0, rng)


def _estimate(n: int, games) -> list[float]:
    """Bradley-Terry skills, maximum a posteriori under a standard normal prior (Newton steps; a tie is half a
    win). The prior is the simulation's own, so no estimate from these games can be better informed."""
    theta = np.zeros(n)
    played = [g for g in games if g.opponent is not None]
    if not played:
        return list(theta)
    i = np.array([g.player for g in played])
    j = np.array([g.opponent for g in played])
    y = np.array([(g.player_points > g.opponent_points) + 0.5 * (g.player_points == g.opponent_points)
                  for g in played], dtype=float)
    for _ in range(25):
        p = 1 / (1 + np.exp(-(theta[i] - theta[j])))
        grad = -theta.copy()
        np.add.at(grad, i, y - p)
        np.add.at(grad, j, p - y)
        w = p * (1 - p)
        hess = np.eye(n)
        np.add.at(hess, (i, i), w)
        np.add.at(hess, (j, j), w)
        np.add.at(hess, (i, j), -w)
        np.add.at(hess, (j, i), -w)
        step = np.linalg.solve(hess, grad)
        theta += step
        if np.abs(step).max() < 1e-9:
            break
    return list(theta)


def _rating(true_skill, rho: float) -> list[float]:
    """A prior rating correlating `rho` with true skill; its noise is seeded by the event's skills, so it is the
    same in every round of the event and independent of the pairing's own random stream."""
    noise = random.Random(repr(true_skill[:2]))
    return [rho * s + math.sqrt(1 - rho * rho) * noise.gauss(0, 1) for s in true_skill]


def _oracle(closest: bool, estimated: bool = False, rho: float | None = None):
    """SASS's pairing re-paired inside each (Corp class, Runner class) cell by true skill, by the estimate from
    the games so far, or by a prior rating of correlation `rho` (see the docstring)."""

    def pair(players, games, rnd, rng, true_skill):
        if estimated:
            skill = _estimate(len(players), games)
        elif rho is not None:
            skill = _rating(true_skill, rho)
        else:
            skill = true_skill
        pairs, bye = sass(players, games, rnd, rng)
        by_id = {p.pid: p for p in players}
        cells: dict = {}
        for c, r in pairs:
            key = ((by_id[c].score, by_id[c].bias), (by_id[r].score, by_id[r].bias))
            cells.setdefault(key, []).append((c, r))
        out = []
        for cell in cells.values():
            corps, runners = [c for c, _ in cell], [r for _, r in cell]
            g = nx.Graph()
            for c in corps:
                for r in runners:
                    if r in by_id[c].corped_vs or c in by_id[r].corped_vs:
                        continue  # a rematch would cost more: not an equal-cost choice
                    gap = abs(skill[c] - skill[r])
                    g.add_edge(("c", c), ("r", r), weight=-gap if closest else gap)
            mate = nx.max_weight_matching(g, maxcardinality=True)
            if len(mate) < len(cell):
                out.extend(cell)  # keep the engine's games
                continue
            for u, v in mate:
                (_, c), (_, r) = (u, v) if u[0] == "c" else (v, u)
                out.append((c, r))
        return out, bye

    return pair


PAIRERS = {"sass": sass, "deployed": deployed, "article": article, "cobra": cobra}
PEERS = [name for name in PAIRERS if name != "sass"]
REFERENCES = {"random": random_legal, "oracle-close": _oracle(True), "oracle-far": _oracle(False),
              "estimate-close": _oracle(True, estimated=True), "estimate-far": _oracle(False, estimated=True),
              "rating-far-0.5": _oracle(False, rho=0.5), "rating-far-0.8": _oracle(False, rho=0.8)}
ALL = {**PAIRERS, **REFERENCES}


def play(name, n, rounds, seed):
    """The event under one pairer, yielded after each round: (skill, players, games, rematches so far)."""
    rng = random.Random(seed)
    skill = [rng.gauss(0, 1) for _ in range(n)]
    yield from _play(ALL[name], skill, rounds, seed)


def _play(pairer, skill, rounds, seed):
    """An event of players 0..n-1 with these true skills under `pairer`, yielded after each round."""
    n = len(skill)
    pair_rng = random.Random(seed * 31 + 3)
    luck = random.Random(seed * 7 + 1)
    st = {i: Player(i) for i in range(n)}
    games: list[Game] = []
    rematches = 0
    for rnd in range(1, rounds + 1):
        pairs, bye = pairer(list(st.values()), games, rnd, pair_rng, skill)
        for c, r in pairs:
            a, b = st[c], st[r]
            if c in b.corped_vs or r in a.corped_vs:
                rematches += 1
            x, y = luck.random(), luck.random()
            if x < TIE_P:
                pc, pr = 1, 1
            elif y < 1 / (1 + math.exp(-(skill[c] - skill[r]))):
                pc, pr = 3, 0
            else:
                pc, pr = 0, 3
            a.score += pc
            b.score += pr
            a.bias += 1
            b.bias -= 1
            a.games += 1
            b.games += 1
            a.corped_vs.add(r)
            games.append(Game(rnd, c, r, player_points=pc, opponent_points=pr, player_side=Side.CORP))
        if bye is not None:
            st[bye].had_bye = True
            st[bye].score += 3
            games.append(Game(rnd, bye, None, player_points=3))
        yield skill, st, games, rematches


def final_orders(seed, st, games):
    """(the standings' order: points, SoS, ESoS, then a coin; the order by points alone, ties by the same coin)."""
    n = len(st)
    rows = compute_standings(Format.SINGLE_SIDED, [Entrant(id=i) for i in range(n)], games)
    last = random.Random(seed * 13 + 5)
    coin = [last.random() for _ in range(n)]
    order = [s.player for s in sorted(rows, key=lambda s: (-s.points, *(-t for t in s.tiebreakers), coin[s.player]))]
    return order, sorted(range(n), key=lambda i: (-st[i].score, coin[i]))


def truth_order(skill):
    return sorted(range(len(skill)), key=lambda i: -skill[i])


def event(args):
    """One event under one pairer: (Spearman, top-8 recall, the same two by points alone, rematches, players sent
    home with uneven sides)."""
    name, n, rounds, seed = args
    for skill, st, games, rematches in play(name, n, rounds, seed):
        pass
    order, by_points = final_orders(seed, st, games)
    truth = truth_order(skill)
    uneven = sum(1 for p in st.values() if abs(p.bias) > p.games % 2)
    return (*_accuracy(order, truth), *_accuracy(by_points, truth), rematches, uneven)


def _accuracy(order, truth):
    """(Spearman of `order` against `truth`, how many of truth's top CUT are in order's top CUT)."""
    n = len(truth)
    rank_f = {p: k for k, p in enumerate(order)}
    d2 = sum((rank_f[p] - k) ** 2 for k, p in enumerate(truth))
    return 1 - 6 * d2 / (n * (n * n - 1)), len(set(order[:CUT]) & set(truth[:CUT]))


def _mean_se(xs):
    return statistics.mean(xs), (statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan"))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-references", action="store_true", help="peers only (faster)")
    ap.add_argument("--series", type=int, default=0,
                    help="simulated series instead of single events (bench_ranking_series.py): how many")
    ap.add_argument("--league", choices=["closed", "churn"], default="closed",
                    help="with --series: the closed club (default) or the churn league (bench_ranking_series.py)")
    ap.add_argument("--quick", action="store_true", help="a bounded run: 12 series, or 40 events per field")
    ap.add_argument("--pairers", help="only these, comma-separated (sass is always run: it is what the others are "
                                      f"compared with); from {', '.join(ALL)}")
    ap.add_argument("--keep", help="churn league: a folder keeping each pairer's seasons between runs (by the code "
                                   "of app/core: a change there plays them again)")
    args = ap.parse_args(argv)
    if args.series:
        from .bench_ranking_series import LEAGUE_RATED, run, run_league

        with Pool(args.jobs) as pool:
            if args.league == "churn":
                names = None
                if args.pairers:
                    names = args.pairers.split(",")
                    unknown = set(names) - set(LEAGUE_RATED) - set(PAIRERS)
                    if unknown:
                        ap.error(f"unknown pairers: {', '.join(sorted(unknown))}")
                run_league(12 if args.quick else args.series, pool, names, args.keep)
            else:
                run(12 if args.quick else args.series, pool)
        return
    T = 40 if args.quick else args.events
    names = list(PAIRERS) + ([] if args.no_references else list(REFERENCES))
    if args.pairers:
        names = ["sass"] + [name for name in args.pairers.split(",") if name != "sass"]
        unknown = set(names) - set(ALL)
        if unknown:
            ap.error(f"unknown pairers: {', '.join(sorted(unknown))}")
    with Pool(args.jobs) as pool:
        for n, rounds in FIELDS:
            res = {name: pool.map(event, [(name, n, rounds, s) for s in range(T)], chunksize=8) for name in names}
            print(f"\n{n} players x {rounds} rounds, {T} events (same events for every pairer)\n")
            print("| pairer | Spearman | top-8 recall | Spearman, points only | top-8, points only "
                  "| rematches / event | sent home uneven / event |")
            print("|---|---|---|---|---|---|---|")
            for name, rows in res.items():
                cols = [statistics.mean(r[k] for r in rows) for k in range(6)]
                print(f"| {name} | {cols[0]:.4f} | {cols[1]:.3f} | {cols[2]:.4f} | {cols[3]:.3f} | {cols[4]:.2f} "
                      f"| {cols[5]:.2f} |")
            print("\n| SASS minus | Spearman (SE) | top-8 (SE) | Spearman, points only (SE) | top-8, points only (SE) "
                  "| 2 SE ahead on both, with tiebreakers |")
            print("|---|---|---|---|---|---|")
            for other in names[1:]:
                cells, z = [], []
                for k in range(4):
                    m, se = _mean_se([a[k] - b[k] for a, b in zip(res["sass"], res[other])])
                    cells.append(f"{m:+.4f} ({se:.4f})" if k % 2 == 0 else f"{m:+.3f} ({se:.3f})")
                    z.append(m >= 2 * se)
                print(f"| {other} | {' | '.join(cells)} | {'yes' if z[0] and z[1] else 'no'} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

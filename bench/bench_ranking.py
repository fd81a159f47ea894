"""Ranking accuracy of single-sided swiss: SASS's engine against the peers' pairing rules on the same events.

`python -m bench.bench_ranking [--events N] [--jobs J]` (default 2,000 events per field size, 28 x 6 and 60 x 7).

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
sides (|corp - runner| > games % 2). Differences are paired per event: SASS minus each peer, mean and
SE = sd / sqrt(n).
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


def deployed(players, games, rnd, rng):
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


def article(players, games, rnd, rng):
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


def cobra(players, games, rnd, rng):
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


def sass(players, games, rnd, rng):
    entrants = [Entrant(id=p.pid, name=str(p.pid)) for p in players]
    plan = pair_round(Format.SINGLE_SIDED, entrants, games, round_number=rnd, seed=rng.randrange(1 << 30))
    pairs, bye = [], None
    for t in plan.pairings:
        if t.is_bye:
            bye = t.player
        else:
            pairs.append((t.corp, t.runner))
    return pairs, bye


PAIRERS = {"sass": sass, "deployed": deployed, "article": article, "cobra": cobra}
PEERS = [name for name in PAIRERS if name != "sass"]


def event(args):
    """One event under one pairer: (spearman, top-8 recall, rematches, players sent home with uneven sides)."""
    name, n, rounds, seed = args
    rng = random.Random(seed)
    skill = [rng.gauss(0, 1) for _ in range(n)]
    pair_rng = random.Random(seed * 31 + 3)
    luck = random.Random(seed * 7 + 1)
    st = {i: Player(i) for i in range(n)}
    games: list[Game] = []
    rematches = 0
    for rnd in range(1, rounds + 1):
        pairs, bye = PAIRERS[name](list(st.values()), games, rnd, pair_rng)
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
    rows = compute_standings(Format.SINGLE_SIDED, [Entrant(id=i) for i in range(n)], games)
    last = random.Random(seed * 13 + 5)
    coin = [last.random() for _ in range(n)]
    order = [s.player for s in sorted(rows, key=lambda s: (-s.points, *(-t for t in s.tiebreakers), coin[s.player]))]
    truth = sorted(range(n), key=lambda i: -skill[i])
    rank_f = {p: k for k, p in enumerate(order)}
    d2 = sum((rank_f[p] - k) ** 2 for k, p in enumerate(truth))
    spearman = 1 - 6 * d2 / (n * (n * n - 1))
    uneven = sum(1 for p in st.values() if abs(p.bias) > p.games % 2)
    return spearman, len(set(order[:CUT]) & set(truth[:CUT])), rematches, uneven


def _mean_se(xs):
    return statistics.mean(xs), (statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan"))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    T = args.events
    with Pool(args.jobs) as pool:
        for n, rounds in FIELDS:
            res = {name: pool.map(event, [(name, n, rounds, s) for s in range(T)], chunksize=8) for name in PAIRERS}
            print(f"\n{n} players x {rounds} rounds, {T} events (same events for every pairer)\n")
            print("| pairer | Spearman | top-8 recall | rematches / event | sent home uneven / event |")
            print("|---|---|---|---|---|")
            for name, rows in res.items():
                cols = [statistics.mean(r[k] for r in rows) for k in range(4)]
                print(f"| {name} | {cols[0]:.4f} | {cols[1]:.3f} | {cols[2]:.2f} | {cols[3]:.2f} |")
            print("\n| SASS minus | Spearman diff (SE) | top-8 recall diff (SE) | 2 SE ahead on both |")
            print("|---|---|---|---|")
            for peer in PEERS:
                ds = [a[0] - b[0] for a, b in zip(res["sass"], res[peer])]
                dt = [a[1] - b[1] for a, b in zip(res["sass"], res[peer])]
                (ms, ss), (mt, stt) = _mean_se(ds), _mean_se(dt)
                ahead = "yes" if ms >= 2 * ss and mt >= 2 * stt else "no"
                print(f"| {peer} | {ms:+.4f} ({ss:.4f}) | {mt:+.3f} ({stt:.3f}) | {ahead} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

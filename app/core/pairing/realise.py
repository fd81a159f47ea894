"""The class LP's optimum made real: pairs of actual players, earlier opponents swapped apart, leftovers exact."""
from __future__ import annotations

import random
from collections import Counter, defaultdict
from itertools import combinations, product

import numpy as np

from .exact import MatchResult, NoPerfectMatching, _exact, _match_edges, _Problem, chosen_cost
from .work import PLAYER_UNITS

SWAP_TRIES = 40
SPARSE_FROM = 60  # more leftovers than this are matched among their nearest first
NEAR_PARTNERS = 24  # possible partners each leftover sees there


def realise(problem: _Problem, groups: list, bulk: dict, rng: random.Random, work=None):
    """Pairs of actual players for the group-pair counts; swaps avoid earlier opponents. Returns leftovers too."""
    if work is not None:
        work.need(PLAYER_UNITS * len(problem.nodes))
        work.spend(PLAYER_UNITS * len(problem.nodes))
    pools = []
    for group in groups:
        pool = list(group)
        rng.shuffle(pool)
        pools.append(pool)
    pairs: list = []
    for (i, j), count in sorted(bulk.items()):
        if i == j:
            taken = pools[i][-2 * count:]
            pairs.extend(zip(taken[:count], taken[count:], strict=True))
            del pools[i][-2 * count:]
        else:
            pairs.extend(zip(pools[i][-count:], pools[j][-count:], strict=True))
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


def finish(problem: _Problem, pairs: list, residual: list, rng: random.Random, work=None, near=None):
    """Match the leftovers; if they cannot be matched alone, release more bulk pairs and retry. `near`: (group of
    each player, a k x k ranking of group pairs by the LP's reduced cost), to match many leftovers among their
    nearest first (see _leftovers); without it, among their neighbours in the order of their classes. Every
    solve asks `work` for its pairs first (work.OutOfBudget when they do not fit)."""
    pairs = list(pairs)
    residual = list(residual)
    while True:
        try:
            part = _leftovers(problem, residual, rng, work, near) if residual else None
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
    classes = Counter((cls[a], cls[b]) for a, b in pairs)
    total = sum(n * chosen_cost(problem.class_cost(*key)) for key, n in classes.items())
    if part is not None:
        pairs.extend(part.pairs)
        total += part.total_cost
    return pairs, total


def _leftovers(problem: _Problem, residual: list, rng: random.Random, work, near):
    """The leftovers matched at least cost: among each one's NEAR_PARTNERS nearest by reduced cost when there are
    many of them (a few percent of the complete graph's pairs), else, or if that leaves somebody alone, among
    all of them. Either is a valid pairing; only its cost against the bound decides whether it is proven optimal,
    so the sparse graph never weakens a certificate, it only makes an attempt cheaper."""
    if len(residual) > SPARSE_FROM:
        order = list(residual)
        rng.shuffle(order)
        if near is not None:
            group_of, rank = near
            edges = _near_edges(problem, order, group_of, rank, work=work)
        else:
            greedy = _greedy(problem, order, work)
            if greedy is not None:
                return greedy
            edges = _window_edges(problem, order, work)
        try:
            return _match_edges(problem, order, edges, "rustworkx", work)
        except NoPerfectMatching:
            pass
    if work is not None:
        work.need(work.match_units(len(residual), len(residual) * (len(residual) - 1) // 2))
    return _exact(problem, residual, "rustworkx", rng, work)


def _ranked(problem: _Problem, order: list) -> list:
    """Indices into `order` by class (points first, then side bias, for swiss); the seeded order if classes
    do not compare."""
    def key(i):
        c = problem.cls[order[i]]
        return (0, c) if isinstance(c, tuple) else (1, ())

    try:
        return sorted(range(len(order)), key=key)
    except TypeError:
        return list(range(len(order)))


def _greedy(problem: _Problem, order: list, work):
    """The first pairing's leftovers, cheaply: each in class order with the cheapest of the NEAR_PARTNERS next
    ones still free. None if that leaves somebody alone (then an exact solve)."""
    if work is not None:
        work.spend(PLAYER_UNITS * len(order) * NEAR_PARTNERS // 4)
    ranked = _ranked(problem, order)
    free = [True] * len(order)
    pairs, total = [], 0
    for x, i in enumerate(ranked):
        if not free[i]:
            continue
        free[i] = False
        best = None
        for j in ranked[x + 1:x + 1 + NEAR_PARTNERS]:
            if free[j]:
                cost = problem.cost(order[i], order[j])
                if cost is not None and (best is None or cost < best[1]):
                    best = (j, cost)
        if best is None:
            return None
        free[best[0]] = False
        pairs.append((order[i], order[best[0]]))
        total += best[1]
    return MatchResult(pairs, total, False, None, "greedy")


def _window_edges(problem: _Problem, order: list, work) -> list:
    """(i, j, cost) pairs of `order` between each player and the NEAR_PARTNERS next ones in the order of their
    classes (points first, then side bias, for swiss), where no LP has ranked the classes yet."""
    ranked = _ranked(problem, order)
    if work is not None:
        work.need(work.match_units(len(order), len(order) * NEAR_PARTNERS))
    edges = []
    for x, i in enumerate(ranked):
        for j in ranked[x + 1:x + 1 + NEAR_PARTNERS]:
            cost = problem.cost(order[i], order[j])
            if cost is not None:
                edges.append((i, j, cost))
    return edges


def _near_edges(problem: _Problem, order: list, group_of: dict, rank, work=None) -> list:
    """(i, j, cost) pairs of `order` between each group and its nearest groups (`rank`: reduced costs as floats,
    inf where the LP allows no pair), until every group sees NEAR_PARTNERS possible partners."""
    members: dict = defaultdict(list)
    for i, v in enumerate(order):
        members[group_of[v]].append(i)
    groups = list(members)
    sizes = np.array([len(members[g]) for g in groups])
    if work is not None:  # ranking each group's partners
        work.need(len(groups) * len(groups) // 20)
        work.spend(len(groups) * len(groups) // 20)
    sub = rank[np.ix_(groups, groups)]
    keep = set()
    for x in range(len(groups)):
        seen = 0
        for y in np.argsort(sub[x], kind="stable"):
            if not np.isfinite(sub[x, y]):
                break
            keep.add((min(x, int(y)), max(x, int(y))))
            seen += sizes[y] - (x == y)
            if seen >= NEAR_PARTNERS:
                break
    if work is not None:  # the pairs handed to the solve, known before they are built
        work.need(work.match_units(len(order), sum(int(sizes[x]) * int(sizes[y] - (x == y)) // (1 + (x == y))
                                                   for x, y in keep)))
    edges = []
    for x, y in sorted(keep):
        a, b = members[groups[x]], members[groups[y]]
        for i, j in combinations(a, 2) if x == y else product(a, b):
            cost = problem.cost(order[i], order[j])
            if cost is not None:
                edges.append((i, j, cost))
    return edges

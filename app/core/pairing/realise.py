"""The class LP's optimum made real: pairs of actual players, earlier opponents swapped apart, leftovers exact."""
from __future__ import annotations

import random
from collections import Counter, defaultdict

from .exact import NoPerfectMatching, _exact, _Problem

SWAP_TRIES = 40


def realise(problem: _Problem, groups: list, bulk: dict, rng: random.Random):
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


def finish(problem: _Problem, pairs: list, residual: list, rng: random.Random, work=None):
    """Match the leftovers exactly; if they cannot be matched alone, release more bulk pairs and retry."""
    pairs = list(pairs)
    residual = list(residual)
    while True:
        try:
            part = _exact(problem, residual, "rustworkx", rng, work) if residual else None
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

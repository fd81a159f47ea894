"""Other uses of the same strengths inside a cell (the churn league's `sass-rating:RULE` pairers): does a different
order than the app's Dutch one (docs/domain.md 15.2) rank the last events better?

Every rule re-pairs a cell's players among themselves, fresh pairs of the two classes only, exactly as the app's
(`app.core.pairing.strength`): only the order inside a cell changes, never a pairing's cost. Of a cell's 2k players
ranked strongest first (0-based ranks), each rule names every player's ideal partner; when past meetings forbid
that pairing, the perfect matching nearest to it (least sum of squared distances from the ideal, every allowed pair).

- app: the app's own code, untouched (the `sass-rating` pairer).
- dutch: i against i + k (top half against bottom half in order; the app's rule until 2026-12-08).
- fold: i against 2k - 1 - i (strongest against weakest; the app's rule since).
- adjacent: 2m against 2m + 1 (similar strengths together: strong against strong).
- adjacent-early / adjacent-late: adjacent in the event's first half of rounds (rounded up) or its last two rounds,
  dutch in the others.
- fold-early / fold-late: fold in the first half of rounds (rounded up) or the last two rounds, dutch in the others.
"""
from __future__ import annotations

import rustworkx as rx

from app.core.pairing import strength

_app_repair = strength._repair
RULES = ("app", "dutch", "fold", "adjacent", "adjacent-early", "adjacent-late", "fold-early", "fold-late")
_now = {"rule": "app", "round": 1, "rounds": 1}


def _order_rule() -> str:
    rule, rnd, rounds = _now["rule"], _now["round"], _now["rounds"]
    if rule.endswith("-early"):
        return rule[:-6] if rnd <= (rounds + 1) // 2 else "dutch"
    if rule.endswith("-late"):
        return rule[:-5] if rnd > rounds - 2 else "dutch"
    return rule


def _distance(rule: str, i: int, j: int, k: int) -> int:
    """How far the pair of ranks i < j of 2k is from the rule's ideal (0: ideal)."""
    if rule == "fold":
        return i + j - (2 * k - 1)
    if rule == "adjacent":
        return j - i - 1 + (i % 2)  # 2m with 2m + 1 is 0; an odd i pairs one rank lower at best
    return j - i - k


def _repair(games, left, fresh, strength_of, coin):
    rule = _order_rule()
    if len(games) < 2:
        return games
    players = [p for g in games for p in g]
    order = sorted(players, key=lambda p: (-strength_of[p], coin[p]))
    n, k = len(order), len(games)
    graph = rx.PyGraph()
    graph.add_nodes_from(order)
    top = 4 * n * n + 1
    for i in range(n):
        for j in range(i + 1, n):
            a, b = order[i], order[j]
            if (left is None or (a in left) != (b in left)) and fresh(a, b):
                graph.add_edge(i, j, top - _distance(rule, i, j, k) ** 2)
    mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if len(mate) != k:
        return games
    return [(order[min(i, j)], order[max(i, j)]) for i, j in sorted(mate, key=min)]


def use(rule: str, rounds: int) -> None:
    """This process pairs the next event's cells by `rule` (`app`: the app's own code, untouched)."""
    _now.update(rule=rule, rounds=rounds)
    strength._repair = _repair if rule != "app" else _app_repair


def at_round(pairer):
    """`pairer` telling the rule which round it pairs."""
    def pair(players, games, rnd, rng, skill=None):
        _now["round"] = rnd
        return pairer(players, games, rnd, rng, skill)

    return pair

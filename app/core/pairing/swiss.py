"""One round of single- or double-sided swiss: the matching problem, bye rules, sides and tables."""
from __future__ import annotations

import functools
import math
import random
from fractions import Fraction
from typing import Hashable, Sequence

from .byes import bye_limits
from .costs import CostModel, Standing
from .double_sided import DoubleSidedRules
from .formats import Format
from .history import History
from .matching import NoPerfectMatching, solve
from .single_sided import SingleSidedRules
from .strength import seed_cells
from .tables import number_tables
from .types import Entrant, PairingError, RoundPlan


class _Bye:
    """The phantom opponent of an odd field."""

    def __repr__(self) -> str:
        return "Bye"


BYE = _Bye()
BYE_CLASS = "bye"


def pair_sided(
    fmt: Format,
    entrants: Sequence[Entrant],
    history: History,
    round_number: int,
    seed,
    score_factor,
    cost_model: str,
    solver: str,
    work_budget: int | None = None,
    strengths=None,
) -> RoundPlan:
    fmt = Format(fmt)
    model = CostModel(cost_model, fmt.scoring.round_points, score_factor, sided=fmt.sided_tables)
    rules = (SingleSidedRules if fmt.sided_tables else DoubleSidedRules)(history, model)
    rng = random.Random(f"{seed}:{round_number}")
    active = [e for e in entrants if not e.dropped]
    requested = [e.id for e in active if e.asks_bye(round_number)]
    skip = set(requested)
    field = [e.id for e in active if e.id not in skip]
    records = {p: history[p] for p in field}
    lowest = min((r.points for r in records.values()), default=0)
    odd = len(field) % 2 == 1
    tiers = bye_limits((r.byes for r in records.values()), odd)
    attempts = [(limit, drops) for limit in tiers
                for drops in ((True, False) if model.drops_expensive else (False,))]
    result = None
    for limit, drops in attempts:
        model.drops_expensive = drops
        standing = {
            p: Standing(r.points, r.bias if rules.sided else 0, not odd or r.byes <= limit)
            for p, r in records.items()
        }
        nodes = field + ([BYE] if odd else [])
        class_of: dict[Hashable, Standing | str] = dict(standing)
        class_of[BYE] = BYE_CLASS

        @functools.lru_cache(maxsize=None)
        def class_cost(c, d):
            if c == BYE_CLASS or d == BYE_CLASS:
                other = d if c == BYE_CLASS else c
                if other == BYE_CLASS or not other.bye_ok:
                    return None
                return model.to_int(model.bye(other, lowest))
            return model.pair_int(c, d)

        def extra_cost(a, b, standing=standing):
            base = class_cost(standing[a], standing[b])
            cost = rules.rematch_cost(a, b, standing[a], standing[b])
            return None if base is None or cost is None else cost - base

        met = {p: r.opponents for p, r in records.items() if r.opponents}  # short lists: no sets to build
        try:
            result = solve(nodes, class_of, class_cost, extra_cost, met, solver, rng, work_budget)
            break
        except NoPerfectMatching as failure:
            unmatched = [v for v in failure.unmatched if v is not BYE]
    if result is None:
        by_id = {e.id: e for e in active}
        raise PairingError(f"No legal pairing for round {round_number}", [by_id[p] for p in unmatched])

    matched = [(a, b) for a, b in result.pairs if a is not BYE and b is not BYE]
    byes = [b if a is BYE else a for a, b in result.pairs if a is BYE or b is BYE]
    if strengths is not None:
        matched = _seeded(matched, standing, history, strengths, class_cost, f"{seed}:{round_number}")
    games = [rules.orient(a, b, standing[a], standing[b], rng) for a, b in matched]
    points = {p: r.points for p, r in records.items()}
    fixed = {e.id: e.fixed_table for e in active if e.fixed_table is not None}
    pairings = number_tables(games, requested + byes, points, fixed)
    return RoundPlan(
        round=round_number,
        pairings=pairings,
        total_cost=Fraction(result.total_cost, model.scale),
        certified_optimal=result.certified,
        gap=_gap(result, model.scale),
        notes=list(result.notes),
    )


def _seeded(pairs, standing, history, strengths, class_cost, seed) -> list:
    """The games re-paired by strength inside their cells (strength.py): fresh pairs of the same two classes
    only, so each costs its class cost as before. The total is checked all the same; should it differ, the
    engine's games stand."""
    out = seed_cells(pairs, standing.__getitem__, lambda a, b: not history.times_met(a, b), strengths,
                     random.Random(f"{seed}:strength"))

    def total(ps):
        return sum(class_cost(standing[a], standing[b]) if not history.times_met(a, b) else 0 for a, b in ps)

    return out if total(out) == total(pairs) and len(out) == len(pairs) else pairs


def _gap(result, scale: int):
    """Proven distance from the optimum, in cost units: 0 when certified; else cost minus the lower bound rounded
    up (costs are whole multiples of 1/scale); None only when no bound could be computed."""
    if result.certified:
        return Fraction(0)
    if result.lower_bound is None:
        return None
    return Fraction(result.total_cost - math.ceil(result.lower_bound), scale)

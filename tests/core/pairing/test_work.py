"""The fast matcher's work budget (app/core/pairing/work.py): the stopping rule is counted work, so a round pairs
the same under any clock; a round spends at most its budget plus its first pairing; a bigger budget never pairs
worse; a field whose full graph fits in the budget is solved exactly."""
import re

import pytest

from app.core.pairing import Format, pair_round
from app.core.pairing.random_pairings import random_history

SSS = Format.SINGLE_SIDED


@pytest.fixture
def without_full_graph(monkeypatch):
    """Big fields never get the full graph; switched off here so that small ones take the same path."""
    import app.core.pairing.fast as fast_module

    monkeypatch.setattr(fast_module, "FULL_GRAPH_LIMIT", 0)


def spent(plan):
    """(units spent, budget, units of the first pairing) from the round's notes."""
    work = next(n for n in plan.notes if n.startswith("work: "))
    used, budget = (int(x.replace(",", "")) for x in re.findall(r"[\d,]+", work)[:2])
    first = next((n for n in plan.notes if "first paired" in n), None)
    return used, budget, int(re.search(r"\(([\d,]+) units\)", first).group(1).replace(",", "")) if first else 0


def pairs(plan):
    return [(p.player, p.opponent) for p in plan.pairings]


@pytest.mark.slow
@pytest.mark.parametrize("fmt, n, rounds, drop", [(SSS, 400, 20, 0.0), (Format.DOUBLE_SIDED, 240, 10, 0.02)])
def test_a_bigger_budget_never_pairs_worse_and_no_round_overspends(without_full_graph, fmt, n, rounds, drop):
    ents, games = random_history(fmt, n, rounds, seed=7, drop=drop)
    costs = []
    for budget in (0, 1_000, 5_000, 20_000, 60_000, 150_000, 400_000):
        plan = pair_round(fmt, ents, games, seed=3, work_budget=budget)
        used, stated, first = spent(plan)
        assert stated == budget and used <= budget + first, plan.notes
        assert first < 10 * n, plan.notes  # the first pairing: a few units a player
        costs.append(plan.total_cost)
    assert costs == sorted(costs, reverse=True) and costs[0] > costs[-1], costs


@pytest.mark.slow
def test_the_same_pairing_under_a_slowed_clock(monkeypatch, without_full_graph):
    """A machine eight times slower (or eight times busier) pairs a hard history exactly the same: nothing but
    counted work decides where the search stops. Only a clock slowed beyond the last resort changes that,
    and then the round says so."""
    import app.core.pairing.work as work_module

    ents, games = random_history(SSS, 400, 20, seed=7)
    normal = pair_round(SSS, ents, games, seed=3, work_budget=150_000)
    assert not normal.certified and any("work budget ran out" in n for n in normal.notes)
    real = work_module._clock
    monkeypatch.setattr(work_module, "_clock", lambda: 8 * real())
    slowed = pair_round(SSS, ents, games, seed=3, work_budget=150_000)
    assert pairs(slowed) == pairs(normal) and slowed.gap == normal.gap and slowed.notes == normal.notes
    monkeypatch.setattr(work_module, "_clock", lambda: 10_000 * real())
    stalled = pair_round(SSS, ents, games, seed=3, work_budget=150_000)
    assert any("last-resort CPU cap" in n for n in stalled.notes) and not stalled.certified


def test_a_field_whose_full_graph_fits_the_budget_is_solved_exactly():
    """300 players of random pairings at round 20: the full graph fits the default budget, so the round is
    proven optimal whatever the LP manages first."""
    ents, games = random_history(SSS, 300, 19, seed=5, drop=0.01)
    plan = pair_round(SSS, ents, games, seed=2)
    ref = pair_round(SSS, ents, games, seed=2, solver="rustworkx")
    assert plan.certified and plan.total_cost == ref.total_cost
    used, budget, _ = spent(plan)
    assert used <= budget

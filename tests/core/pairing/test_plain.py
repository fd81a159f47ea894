"""Plain (Magic-style) swiss: pods, swisspair's lexicographic down-pairs, byes, power pairing, tables, errors."""
from __future__ import annotations

import pytest

from app.core.pairing import Format, PairingError, pair_round
from app.core.pairing.plain import LexCost, pair_plain
from app.core.pairing.types import Entrant, Game

from tests.core.pairing.plain_helpers import (
    GHOST, check_invariants, entrants, ghost_history, swiss_history, win,
)

SOLVERS = ["auto", "networkx"]


def pairs_of(plan):
    return {frozenset((t.player, t.opponent)) for t in plan.pairings if t.opponent is not None}


def bye_of(plan):
    return [t.player for t in plan.pairings if t.opponent is None]


def test_swisspair_order_of_down_pair_types():
    """C(3,4) < C(2,3) < C(2,4) < C(1,2) < C(1,3) < C(1,4) (pods numbered from 0 here)."""
    order = [(2, 3), (1, 2), (1, 3), (0, 1), (0, 2), (0, 3)]
    costs = [LexCost.of({t: 1}) for t in order]
    assert costs == sorted(costs) and len(set(costs)) == len(costs)
    # any number of down-pairs lower in the standings beat one higher up
    assert LexCost.of({(2, 3): 1000, (1, 3): 999, (0, 2): 5}) < LexCost.of({(0, 3): 1})
    assert LexCost.of({(1, 2): 1000}) < LexCost.of({(0, 1): 1}) < LexCost.of({(0, 1): 2})
    assert LexCost.of({}) < LexCost.of({(5, 6): 1})
    assert LexCost.of({(0, 1): 2, (2, 3): 1}).counts == {(0, 1): 2, (2, 3): 1}


@pytest.mark.parametrize("solver", SOLVERS)
def test_players_meet_their_own_pod(solver):
    ents, games = ghost_history([6, 6, 6, 6, 3, 3, 0, 0])
    plan = pair_plain(ents, games, 3, seed=1, solver=solver)
    assert pairs_of(plan) <= {frozenset(p) for p in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (4, 5), (6, 7)]}
    assert plan.total_cost == LexCost.of({})


@pytest.mark.parametrize("solver", SOLVERS)
def test_two_down_pairs_lower_beat_one_further_down_pair(solver):
    """Pods {0} 9 pts, {1,2} 6 pts, {3..7} 3 pts; 3-4, 2-7 and 2-6 met. The fewest down-pairs is one, 0-3
    (type (0,2)) with 1-2 and the bottom paired at home; the lexicographic rule prefers 0-1 (0,1) plus a second
    down-pair lower, 2-3 or 2-5 (1,2): any number of lower down-pairs beat a longer one from the top."""
    ents, games = ghost_history([9, 6, 6, 3, 3, 3, 3, 3], met=[(3, 4), (2, 7), (2, 6)])
    plan = pair_plain(ents, games, 12, seed=3, solver=solver)
    assert plan.total_cost == LexCost.of({(0, 1): 1, (1, 2): 1})
    assert LexCost.of({(0, 1): 1, (1, 2): 1}) < LexCost.of({(0, 2): 1})
    assert pairs_of(plan) & {frozenset((0, 1)), frozenset((0, 2))}
    check_invariants(ents, games, plan)


@pytest.mark.parametrize("solver", SOLVERS)
def test_every_pod_met_within(solver):
    """Pods {0,1}, {2,3}, {4,5}, each pair met: every legal pairing sends both pods' players apart; the best
    ones use one (0,1), one (0,2) and one (1,2)."""
    ents, games = ghost_history([7, 7, 4, 4, 1, 1], met=[(0, 1), (2, 3), (4, 5)])
    plan = pair_plain(ents, games, 10, seed=3, solver=solver)
    assert plan.total_cost == LexCost.of({(0, 1): 1, (0, 2): 1, (1, 2): 1})
    check_invariants(ents, games, plan)


@pytest.mark.parametrize("solver", SOLVERS)
def test_bye_goes_to_the_lowest_pod(solver):
    ents, games = ghost_history([6, 6, 3, 3, 0])
    for seed in range(5):
        plan = pair_plain(ents, games, 3, seed=seed, solver=solver)
        assert bye_of(plan) == [4]
        assert plan.pairings[-1].opponent is None and plan.pairings[-1].table == 3


@pytest.mark.parametrize("solver", SOLVERS)
def test_no_second_bye_while_someone_has_none(solver):
    ents, games = ghost_history([6, 6, 6, 3, 3], byes=[3, 4])  # the lowest pod already had its byes
    for seed in range(4):
        plan = pair_plain(ents, games, 4, seed=seed, solver=solver)
        assert bye_of(plan)[0] in (0, 1, 2)
        check_invariants(ents, games, plan)


@pytest.mark.parametrize("solver", SOLVERS)
def test_second_bye_only_once_everyone_had_one(solver):
    ents, games = ghost_history([3, 3, 3], byes=[0, 1, 2])
    plan = pair_plain(ents, games, 3, seed=0, solver=solver)
    assert len(bye_of(plan)) == 1


@pytest.mark.parametrize("solver", SOLVERS)
def test_the_only_player_without_a_bye_takes_it_even_from_the_top(solver):
    """0 (9 points, no bye) has met 1 and 2 (3 points, both had a bye): the bye goes up to 0."""
    ents, games = ghost_history([9, 4, 4], byes=[1, 2], met=[(0, 1), (0, 2)])
    plan = pair_plain(ents, games, 9, seed=0, solver=solver)
    assert bye_of(plan) == [0] and pairs_of(plan) == {frozenset((1, 2))}


def test_first_round_byes_as_requested():
    ents = entrants(9)
    ents[2] = Entrant(2, "P2", first_round_bye=True)
    ents[5] = Entrant(5, "P5", first_round_bye=True)
    plan = pair_plain(ents, [], 1, seed=4)
    byes = bye_of(plan)
    assert set(byes[:2]) == {2, 5} and len(byes) == 3  # 7 others: one more bye, drawn at random
    assert [t.opponent for t in plan.pairings[-3:]] == [None] * 3
    check_invariants(ents, [], plan, requested=[2, 5])
    assert len(bye_of(pair_plain(ents, [], 2, seed=4))) == 1, "requests only count in round 1"


def test_round_one_is_random_by_seed_and_repeatable():
    ents = entrants(16)
    plans = [pair_plain(ents, [], 1, seed=s) for s in range(6)]
    assert len({frozenset(pairs_of(p)) for p in plans}) > 3
    assert pair_plain(ents, [], 1, seed=3) == plans[3]


@pytest.mark.parametrize("power", [False, True])
@pytest.mark.parametrize("solver", SOLVERS)
def test_same_input_same_pairing(solver, power):
    ents, games = swiss_history(24, 4, seed=11)
    assert pair_plain(ents, games, 5, "x", power, solver) == pair_plain(ents, games, 5, "x", power, solver)


def test_dropped_players_are_never_paired():
    ents, games = swiss_history(12, 2, seed=5)
    ents = [Entrant(e.id, e.name, dropped=e.id in (0, 7, 9)) for e in ents]
    for solver in SOLVERS:
        plan = pair_plain(ents, games, 3, seed=0, solver=solver)
        assert not {0, 7, 9} & {p for t in plan.pairings for p in (t.player, t.opponent)}
        check_invariants(ents, games, plan)


@pytest.mark.parametrize("solver", SOLVERS)
def test_power_pairing_one_two_three_four(solver):
    ents, games = ghost_history([12, 9, 6, 3, 2, 0])
    plan = pair_plain(ents, games, 5, seed=0, power_pairing=True, solver=solver)
    assert [(t.player, t.opponent) for t in plan.pairings] == [(0, 1), (2, 3), (4, 5)]


@pytest.mark.parametrize("solver", SOLVERS)
def test_power_pairing_steps_around_a_rematch(solver):
    ents, games = ghost_history([15, 9, 6, 3, 2, 0], met=[(0, 1)])
    plan = pair_plain(ents, games, 21, seed=0, power_pairing=True, solver=solver)
    assert [(t.player, t.opponent) for t in plan.pairings] == [(0, 2), (1, 3), (4, 5)]


def test_pods_mode_puts_the_higher_ranked_player_first():
    ents, games = swiss_history(30, 3, seed=8)
    plan = pair_plain(ents, games, 4, seed=1)
    points = {}
    for g in games:
        points[g.player] = points.get(g.player, 0) + g.player_points
        if g.opponent is not None:
            points[g.opponent] = points.get(g.opponent, 0) + g.opponent_points
    assert all(points[t.player] >= points[t.opponent] for t in plan.pairings if t.opponent is not None)


def test_tables_by_higher_then_lower_points_then_rank_and_bye_last():
    pts = {0: 12, 1: 9, 2: 12, 3: 6, 4: 6, 5: 3, 6: 3, 7: 0, 8: 0}
    ents, games = ghost_history(list(pts.values()), met=[(0, 2), (3, 4)])
    plan = pair_plain(ents, games, 33, seed=5)
    keys = [(pts[t.player], pts[t.opponent]) for t in plan.pairings if t.opponent is not None]
    assert keys == sorted(keys, reverse=True)
    assert plan.pairings[-1].opponent is None and pts[plan.pairings[-1].player] == 0
    check_invariants(ents, games, plan)


@pytest.mark.parametrize("power", [False, True])
def test_equal_tables_follow_the_rank_of_the_higher_player(power):
    """Four 6-point players whose game-win % differ (MTR GW% ranks 3, 2, 1, 0): the top seed's match is table 1."""
    ents = entrants(4) + [Entrant(GHOST, "ghost", dropped=True)]
    matches = {3: [(2, 0, 0)] * 2, 2: [(2, 0, 0), (2, 1, 0)], 1: [(2, 1, 0)] * 2, 0: [(2, 1, 1)] * 2}
    games = [Game(r, p, GHOST, 3, 0, player_games=w, opponent_games=lost, drawn_games=d)
             for p, results in matches.items() for r, (w, lost, d) in enumerate(results, 1)]
    for seed in range(5):
        plan = pair_plain(ents, games, 4, seed=seed, power_pairing=power)
        assert plan.pairings[0].player == 3
        if power:
            assert [(t.player, t.opponent) for t in plan.pairings] == [(3, 2), (1, 0)]


def test_fixed_table_is_honoured():
    ents, games = ghost_history([6, 6, 3, 3, 0, 0])
    ents[4] = Entrant(4, "P4", fixed_table=1)
    plan = pair_plain(ents, games, 3, seed=0)
    assert 4 in (plan.pairings[0].player, plan.pairings[0].opponent) and plan.pairings[0].table == 1
    assert [t.table for t in plan.pairings] == [1, 2, 3]


@pytest.mark.parametrize("solver", SOLVERS)
def test_no_legal_pairing_names_the_players(solver):
    ents = entrants(2)
    with pytest.raises(PairingError) as err:
        pair_plain(ents, [win(1, 0, 1)], 2, seed=0, solver=solver)
    assert {p.id for p in err.value.players} == {0, 1} and "P0" in str(err.value)


@pytest.mark.parametrize("solver", SOLVERS)
def test_player_who_met_everyone_is_named(solver):
    ents = entrants(4)
    games = [win(1, 0, 1), win(2, 0, 2), win(3, 0, 3)]
    with pytest.raises(PairingError) as err:
        pair_plain(ents, games, 4, seed=0, solver=solver)
    assert 0 in {p.id for p in err.value.players}


def test_pair_round_dispatches_plain_and_reports_the_cost():
    ents, games = swiss_history(20, 3, seed=4)
    plan = pair_round(Format.PLAIN, ents, games, seed=9, power_pairing=True)
    assert plan == pair_plain(ents, games, 4, 9, True)
    assert isinstance(plan.total_cost, LexCost) and plan.certified_optimal


def test_unknown_solver_is_refused():
    with pytest.raises(ValueError):
        pair_plain(entrants(4), [], 1, 0, solver="greedy")


@pytest.mark.parametrize("power", [False, True])
def test_fast_matches_reference_on_a_dense_small_event(power):
    """12 players, 8 rounds: every player has met most of the field, so the exact fallbacks do the work."""
    ents, games = swiss_history(12, 7, seed=21, power=power)
    fast = pair_plain(ents, games, 8, 0, power, "auto")
    ref = pair_plain(ents, games, 8, 0, power, "networkx")
    assert fast.total_cost == ref.total_cost
    check_invariants(ents, games, fast)


def test_no_rematch_constraints_are_solved_by_the_relaxation_alone():
    ents, games = ghost_history([9, 9, 9, 6, 6, 3, 3, 3, 3, 0, 0])
    plan = pair_plain(ents, games, 5, seed=0)
    assert "exact block" not in plan.notes[0]
    assert plan.total_cost == pair_plain(ents, games, 5, seed=0, solver="networkx").total_cost
    # 9s odd: one floats to the 6s; the 6s, now odd, float one to the 3s; the 3s float one to the 0s; bye
    assert plan.total_cost == LexCost.of({(0, 1): 1, (1, 2): 1, (2, 3): 1, (3, 4): 1})

"""pair_round for single- and double-sided swiss: rules, byes, sides, tables, errors, determinism."""
from collections import Counter
from fractions import Fraction

import pytest

from app.core.pairing import DEFAULT_SCORE_FACTOR, Entrant, Format, Game, PairingError, Side, pair_round
from app.core.pairing.playout import field, play_rounds

SSS, DSS = Format.SINGLE_SIDED, Format.DOUBLE_SIDED
WIN, BYE = SSS.scoring.win, SSS.scoring.bye
SOLVERS = ["networkx", "rustworkx", "fast"]


def g(rnd, corp, runner, corp_points, runner_points=0):
    return Game(rnd, corp, runner, corp_points, runner_points, player_side=Side.CORP)


def opponents(plan):
    return {frozenset((p.player, p.opponent)) for p in plan.pairings if not p.is_bye}


def test_round_one_is_random_but_reproducible():
    ents = field(16)
    plans = [pair_round(SSS, ents, [], seed=s) for s in (1, 1, 2)]
    assert plans[0] == plans[1]
    assert opponents(plans[0]) != opponents(plans[2])
    assert plans[0].round == 1 and len(plans[0].pairings) == 8


@pytest.mark.parametrize("solver", SOLVERS)
def test_same_input_and_seed_give_the_same_round(solver):
    ents = field(30)
    games = play_rounds(SSS, ents, 3, seed=4, solver=solver)
    a = pair_round(SSS, ents, games, seed=9, solver=solver)
    b = pair_round(SSS, ents, list(games), seed=9, solver=solver)
    assert a == b and a.round == 4


def test_round_number_defaults_to_the_round_after_the_last_game():
    ents = field(4)
    assert pair_round(SSS, ents, [g(2, 1, 2, WIN), g(2, 3, 4, WIN)]).round == 3
    assert pair_round(SSS, ents, [], round_number=7).round == 7


def test_odd_field_bye_goes_to_the_lowest_scorer_and_sits_last():
    ents = field(5)
    games = [g(1, 1, 2, WIN), g(1, 3, 4, WIN), Game(1, 5, None, BYE)]
    # Winners 1, 3, 5 (bye) on 3 points; 2 and 4 lost. A loser gets the bye.
    plan = pair_round(SSS, ents, games, seed=0)
    bye = plan.pairings[-1]
    assert bye.is_bye and bye.player in (2, 4)
    assert bye.table == len(plan.pairings)


def test_no_second_bye_while_someone_else_can_take_it():
    ents = field(3)
    games = [Game(1, 1, None, BYE), g(1, 2, 3, WIN), Game(2, 2, None, BYE), g(2, 1, 3, WIN)]
    # 1 and 2 had byes; 3 (no bye) lost twice. Even if 3 were top, 3 gets the bye.
    for seed in range(5):
        plan = pair_round(SSS, ents, games, seed=seed)
        assert plan.pairings[-1].player == 3 and plan.pairings[-1].is_bye


def test_second_bye_goes_to_the_fewest_byes_when_all_had_one():
    ents = field(3)
    games = [Game(1, 1, None, BYE), g(1, 2, 3, WIN), Game(2, 3, None, BYE), g(2, 1, 2, WIN),
             Game(3, 2, None, BYE), g(3, 3, 1, WIN), Game(4, 1, None, BYE), g(4, 3, 2, WIN)]
    plan = pair_round(SSS, ents, games)
    assert plan.pairings[-1].player in (2, 3)  # 1 has two byes


def test_requested_first_round_byes_take_no_opponent():
    ents = [Entrant(i, first_round_bye=i in (2, 5, 7)) for i in range(1, 11)]
    plan = pair_round(SSS, ents, [], seed=3)
    byes = [p.player for p in plan.pairings if p.is_bye]
    assert set(byes) >= {2, 5, 7} and len(byes) == 4  # 7 left: the phantom bye goes to one more
    assert all(p.is_bye for p in plan.pairings[-4:])
    # only in round one
    later = pair_round(SSS, ents, [g(1, 1, 3, WIN), g(1, 4, 6, WIN), g(1, 8, 9, WIN), Game(1, 10, None, BYE)]
                       + [Game(1, p, None, BYE) for p in (2, 5, 7)])
    assert sum(p.is_bye for p in later.pairings) == 0


def test_dropped_players_are_never_paired():
    ents = [Entrant(i, dropped=i in (1, 4)) for i in range(1, 8)]
    plan = pair_round(SSS, ents, [g(1, 1, 2, WIN), g(1, 3, 4, WIN), g(1, 5, 6, WIN), Game(1, 7, None, BYE)])
    seen = Counter(p for x in plan.pairings for p in (x.player, x.opponent) if p is not None)
    assert set(seen) == {2, 3, 5, 6, 7} and set(seen.values()) == {1}


@pytest.mark.parametrize("solver", SOLVERS)
def test_players_who_all_met_twice_cannot_be_paired(solver):
    ents = field(4)
    games = []
    for r, (a, b, c, d) in enumerate([(1, 2, 3, 4), (1, 3, 2, 4), (1, 4, 2, 3)] * 2, start=1):
        games += [g(r, a, b, WIN), g(r, c, d, WIN)] if r <= 3 else [g(r, b, a, WIN), g(r, d, c, WIN)]
    with pytest.raises(PairingError) as err:
        pair_round(SSS, ents, games, solver=solver)
    assert sorted(e.id for e in err.value.players) == [1, 2, 3, 4]
    assert "Player 1" in str(err.value)


def test_a_rematch_is_played_on_reversed_sides():
    # 1 beat 2 as Corp; 3 and 4 met twice already. Only 1-2 and 3-4 ... so 1 v 3/4 and 2 v 3/4 remain:
    ents = field(2)
    plan = pair_round(SSS, ents, [g(1, 1, 2, WIN)], seed=0)
    (p,) = plan.pairings
    assert p.corp == 2 and p.runner == 1


def test_a_rematch_that_would_worsen_a_bias_is_refused():
    # 1 corped against 2 in round 1; since then 1 ran twice (bias -1) and 2 corped twice (bias +1).
    # A rematch would make 1 run again (-2) and 2 corp again (+2): forbidden.
    ents = field(2)
    games = [g(1, 1, 2, WIN), Game(2, 1, 9, 0, WIN, player_side=Side.RUNNER),
             Game(2, 2, 8, WIN, 0, player_side=Side.CORP), Game(3, 1, 7, 0, WIN, player_side=Side.RUNNER),
             Game(3, 2, 6, WIN, 0, player_side=Side.CORP)]
    with pytest.raises(PairingError):
        pair_round(SSS, ents, games)
    # fine the other way round: the rematch evens both out
    games2 = [g(1, 1, 2, WIN), g(2, 1, 9, WIN), g(2, 8, 2, WIN)]
    (p,) = pair_round(SSS, ents, games2).pairings
    assert (p.corp, p.runner) == (2, 1)


def test_double_sided_never_rematches():
    ents = field(2)
    games = [Game(1, 1, 2, 6, 0)]
    with pytest.raises(PairingError):
        pair_round(DSS, ents, games)


def test_the_player_with_the_larger_corp_bias_runs():
    # 1 corped once, 2 ran once; 1 must run, 2 must corp (otherwise both reach |2|).
    ents = field(4)
    games = [g(1, 1, 3, WIN), g(1, 4, 2, WIN)]
    for seed in range(6):
        plan = pair_round(SSS, ents, games, seed=seed)
        for p in plan.pairings:
            assert p.corp in (3, 2) and p.runner in (1, 4)


def test_equal_bias_sides_are_a_seeded_coin_flip():
    ents = field(2)
    corps = {pair_round(SSS, ents, [], seed=s).pairings[0].corp for s in range(20)}
    assert corps == {1, 2}


def test_nobody_reaches_bias_two_when_a_pair_down_avoids_it():
    # Four winners all with Corp bias +1 and four losers with Runner bias -1: pairing within the
    # score groups would push two winners to +2; the engine pairs across the groups instead.
    ents = field(8)
    games = [g(1, 1, 5, WIN), g(1, 2, 6, WIN), g(1, 3, 7, WIN), g(1, 4, 8, WIN)]
    plan = pair_round(SSS, ents, games, seed=1)
    for p in plan.pairings:
        assert p.corp in (5, 6, 7, 8) and p.runner in (1, 2, 3, 4)
    assert plan.total_cost == 4 * DEFAULT_SCORE_FACTOR  # four pairs one win apart


def test_score_groups_stay_together_when_sides_allow():
    ents = field(8)
    games = [g(1, 1, 5, WIN), g(1, 6, 2, 0, WIN), g(1, 3, 7, WIN), g(1, 8, 4, 0, WIN)]
    plan = pair_round(SSS, ents, games, seed=1)
    winners = {1, 2, 3, 4}
    for p in plan.pairings:
        assert (p.player in winners) == (p.opponent in winners)
    assert plan.total_cost == 0


def test_tables_by_combined_points_with_fixed_tables_and_bye_last():
    ents = [Entrant(i, fixed_table=5 if i == 7 else None) for i in range(1, 10)]
    games = [g(1, 1, 2, WIN), g(1, 3, 4, WIN), g(1, 5, 6, WIN), g(1, 7, 8, WIN), Game(1, 9, None, BYE)]
    plan = pair_round(SSS, ents, games, seed=2)
    tables = [p.table for p in plan.pairings]
    assert tables == sorted(tables) and len(set(tables)) == len(tables)
    fixed = next(p for p in plan.pairings if 7 in (p.player, p.opponent))
    assert fixed.table == 5
    assert plan.pairings[-1].is_bye and plan.pairings[-1].table == max(tables)
    pts = {1: 3, 3: 3, 5: 3, 7: 3, 9: 3, 2: 0, 4: 0, 6: 0, 8: 0}
    combined = [pts[p.player] + pts[p.opponent] for p in plan.pairings if not p.is_bye and p.table != 5]
    assert combined == sorted(combined, reverse=True)


def test_double_sided_pairs_by_score_without_sides():
    ents = field(6)
    games = [Game(1, 1, 2, 6, 0), Game(1, 3, 4, 6, 0), Game(1, 5, 6, 3, 3)]
    plan = pair_round(DSS, ents, games, seed=0)
    pairs = opponents(plan)
    assert frozenset((5, 6)) not in pairs  # they met: 5 and 6 (3 points) each pair half a round away
    assert plan.total_cost == 2 * DEFAULT_SCORE_FACTOR * Fraction(3, 8)  # 2 x T(1/2)


def test_power_pairing_is_refused_outside_plain_swiss():
    with pytest.raises(ValueError):
        pair_round(SSS, field(4), [], power_pairing=True)


def test_duplicate_entrant_ids_are_refused():
    with pytest.raises(ValueError):
        pair_round(SSS, [Entrant(1), Entrant(1)], [])


@pytest.mark.parametrize("model", ["sass", "article", "deployed", "cobra"])
def test_every_cost_model_pairs_a_whole_event(model):
    ents = field(13)
    games = play_rounds(SSS, ents, 5, seed=2, cost_model=model)
    rounds = Counter(p for x in games for p in x.players())
    assert set(rounds.values()) == {5}


@pytest.mark.slow
def test_same_pairing_in_every_process_whatever_the_hash_seed():
    """String ids hash differently per process; the pairing must not depend on it."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "from app.core.pairing import Entrant, Format, pair_round\n"
        "from app.core.pairing.playout import play_rounds\n"
        "ents = [Entrant(f'p{i}') for i in range(40)]\n"
        "for fmt in (Format.SINGLE_SIDED, Format.DOUBLE_SIDED):\n"
        "    games = play_rounds(fmt, ents, 4, seed=2)\n"
        "    print(pair_round(fmt, ents, games, seed=5).pairings)\n"
    )
    root = Path(__file__).resolve().parents[3]
    outs = {
        subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": str(h)}).stdout
        for h in (1, 2)
    }
    assert len(outs) == 1 and "Pairing" in outs.pop()


@pytest.mark.slow
def test_pairing_prints_nothing_on_stdout_or_stderr():
    """HiGHS writes a banner from C the first time a process builds a solver the usual way; a TO's script that
    prints JSON must get nothing but its own output. A fresh process, so this is its first LP."""
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "from app.core.pairing import Format, pair_round\n"
        "from app.core.pairing.random_pairings import random_history\n"
        "ents, games = random_history(Format.SINGLE_SIDED, 60, 4, seed=3)\n"
        "plan = pair_round(Format.SINGLE_SIDED, ents, games, seed=1)\n"
        "assert any('classes' in note for note in plan.notes), plan.notes  # the class LP was solved\n"
    )
    root = Path(__file__).resolve().parents[3]
    run = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True)
    assert run.returncode == 0, run.stderr.decode()
    assert run.stdout == b"" and run.stderr == b""

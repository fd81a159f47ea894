"""The simulator: its metrics on hand-made events, its determinism, its drops, and the sweep chart."""
from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

import pytest

from app.core.pairing import Format, Game, Side
from app.core.pairing.simulate import main
from app.core.pairing.simulate_events import Config, play_event
from app.core.pairing.simulate_metrics import EventStats, measure
from app.core.pairing.simulate_tables import target_verdict

SSS = Format.SINGLE_SIDED
WIN, TIE, LOSS, BYE = (getattr(SSS.scoring, k) for k in ("win", "tie", "loss", "bye"))


def corp_game(rnd, corp, runner, corp_points, runner_points):
    return Game(rnd, corp, runner, corp_points, runner_points, player_side=Side.CORP)


# Round 1: A beats B, C and D tie. Round 2: A (win) corps again against C (tie), B (loss) corps against D (tie).
# After two rounds A is Corp +2 and D Runner +2: both uneven; B and C played one game on each side.
TWO_ROUNDS = [
    corp_game(1, "A", "B", WIN, LOSS),
    corp_game(1, "C", "D", TIE, TIE),
    corp_game(2, "A", "C", LOSS, WIN),
    corp_game(2, "B", "D", WIN, LOSS),
]


def test_measure_counts_mismatches_win_differences_and_uneven_players():
    stats = measure(SSS, TWO_ROUNDS, "ABCD")
    assert stats.games == 4
    # Round 1 starts level; in round 2 A (win) meets C (tie) and B (loss) meets D (tie).
    assert stats.mismatched == 2
    assert stats.win_diff == Fraction(WIN - TIE, WIN) + Fraction(TIE - LOSS, WIN)
    assert stats.rematches == 0 and stats.violations == 0
    assert stats.uneven_players == 2 and stats.uneven_event == 1


def test_uneven_players_counts_only_finishers():
    assert measure(SSS, TWO_ROUNDS, "ABC").uneven_players == 1  # D dropped
    assert measure(SSS, TWO_ROUNDS, "BC").uneven_players == 0
    assert measure(SSS, TWO_ROUNDS, "BC").uneven_event == 0


def test_rematch_on_reversed_sides_is_counted_but_legal():
    third = [corp_game(3, "B", "A", WIN, LOSS), corp_game(3, "D", "C", TIE, TIE)]
    stats = measure(SSS, TWO_ROUNDS + third, "ABCD")
    assert stats.rematches == 2 and stats.violations == 0
    # Three games each: everyone is at +1 or -1, which an odd number of games allows.
    assert stats.uneven_players == 0


def test_rematch_on_the_same_sides_and_a_third_meeting_are_violations():
    same_sides = corp_game(3, "A", "B", WIN, LOSS)
    assert measure(SSS, TWO_ROUNDS + [same_sides], "ABCD").violations == 1
    reversed_then_third = [corp_game(3, "B", "A", WIN, LOSS), corp_game(4, "A", "B", WIN, LOSS)]
    stats = measure(SSS, TWO_ROUNDS + reversed_then_third, "ABCD")
    assert stats.rematches == 2 and stats.violations == 1


def test_byes_have_no_side_and_a_second_bye_is_a_violation():
    games = [corp_game(1, "A", "B", WIN, LOSS), Game(1, "C", None, BYE),
             corp_game(2, "B", "C", WIN, LOSS), Game(2, "A", None, BYE),
             corp_game(3, "C", "A", WIN, LOSS), Game(3, "B", None, BYE)]
    stats = measure(SSS, games, "ABC")
    assert stats.byes == 3 and stats.violations == 0
    assert stats.uneven_players == 0  # each has one Corp and one Runner game besides the bye
    # Round 2: B (loss) meets C (bye); round 3: C (bye, loss) meets A (win, bye).
    assert stats.mismatched == 2
    assert measure(SSS, games + [Game(4, "C", None, BYE)], "ABC").violations == 1


def test_any_meeting_again_breaks_the_rules_outside_single_sided():
    games = [Game(1, "A", "B", 6, 0), Game(2, "B", "A", 3, 3)]
    stats = measure(Format.DOUBLE_SIDED, games, "AB")
    assert stats.rematches == 1 and stats.violations == 1 and stats.uneven_players == 0
    assert stats.win_diff == Fraction(6, Format.DOUBLE_SIDED.scoring.win)


def _by_round(games):
    rounds = {}
    for g in games:
        rounds.setdefault(g.round, []).extend(g.players())
    return rounds


@pytest.mark.parametrize("fmt", list(Format))
def test_play_event_pairs_everyone_once_a_round_and_is_reproducible(fmt):
    config = Config(players=7, rounds=3, fmt=fmt)
    games, finishers, stats = play_event(config, 11)
    assert sorted(finishers) == list(range(1, 8))
    for players in _by_round(games).values():
        assert sorted(players) == list(range(1, 8))
    assert stats.violations == 0 and stats.byes == 3 and len(stats.round_seconds) == 3
    assert play_event(config, 11)[0] == games
    assert any(play_event(config, seed)[0] != games for seed in (12, 13, 14))


def test_points_come_from_the_format():
    scoring = Format.DOUBLE_SIDED.scoring
    games, _, _ = play_event(Config(players=8, rounds=2, fmt=Format.DOUBLE_SIDED, tie_rate=0.3), 5)
    per_game = {scoring.win + scoring.loss, 2 * scoring.tie}
    allowed = {a + b for a in per_game for b in per_game}
    assert all(g.player_points + g.opponent_points in allowed for g in games)
    assert any(g.player_points > scoring.win for g in games)  # someone won both games of a round


def test_dropped_players_are_not_paired_again_nor_counted_at_the_end():
    games, finishers, stats = play_event(Config(players=10, rounds=4, drop_rate=0.4), 3)
    assert stats.dropped == 10 - len(finishers) > 0
    last_round = {}
    for rnd, players in _by_round(games).items():
        for p in players:
            last_round[p] = rnd
    assert all(last_round[p] == 4 for p in finishers)
    assert any(last_round[p] < 4 for p in set(range(1, 11)) - set(finishers))
    assert stats.violations == 0


def test_target_verdict_reports_each_failure_with_its_margin():
    def events(mismatched, rematches=0, uneven=0):
        return [EventStats(games=10, mismatched=mismatched, rematches=rematches, uneven_players=uneven)]

    ok = target_verdict("12/5", {"sass": events(3), "deployed": events(4), "cobra": events(3)})
    assert all(" PASS " in line for line in ok)
    bad = target_verdict("12/5", {"sass": events(5, rematches=1, uneven=2), "deployed": events(4),
                                  "cobra": events(6)})
    assert Counter(line.split()[1] for line in bad) == {"FAIL": 3}
    assert "best baseline deployed 4.000 (diff +1.000)" in bad[2]


def test_sweep_prints_a_table_and_writes_a_png(tmp_path, capsys):
    chart = tmp_path / "sweep.png"
    assert main(["--events", "2", "--players", "6", "--rounds", "3", "--sweep", "1,2.5",
                 "--chart", str(chart), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "| 6/3 | sass x1 |" in out and "| 6/3 | sass x2.5 |" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_summary_and_per_event_output_are_reproducible(capsys):
    argv = ["--events", "3", "--players", "6", "--rounds", "2", "--jobs", "1"]
    main(argv)
    first = capsys.readouterr().out
    main(argv + ["--jobs", "2"])
    second = capsys.readouterr().out
    strip = lambda text: [line.rsplit("|", 2)[0] for line in text.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(strip(first)) == 3 and strip(first) == strip(second)  # ms/round (last column) aside
    main(argv + ["--summary"])
    assert "| uneven players |" in capsys.readouterr().out


def test_target_runs_the_baselines_on_the_same_events(capsys):
    assert main(["--events", "2", "--target", "--scenarios", "6x2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert [line.split(" | ")[1] for line in out.splitlines() if line.startswith("| 6/2 |")] == [
        "sass", "deployed", "cobra"]
    assert sum(line.startswith("6/2: ") for line in out.splitlines()) == 3

"""The simulator's metrics (app/core/pairing/simulate_metrics.py) on hand-made events: mismatches, rematches,
uneven players, byes, violations."""
from __future__ import annotations

from fractions import Fraction

from app.core.pairing import Format, Game, Side
from app.core.pairing.simulate_metrics import measure

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

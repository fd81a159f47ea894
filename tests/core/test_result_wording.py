"""Results worded from a player's seat (app/core/result_wording.py): every format, both seats, both persons."""
from __future__ import annotations

import pytest

from app.core import results
from app.core.pairing import Format
from app.core.result_wording import FIRST, SECOND, Person, choices, cut_game, worded


@pytest.mark.parametrize("fmt, seat, expected", [
    (Format.SINGLE_SIDED, FIRST, ["I won as Corp", "I lost as Corp", "We tied", "We agreed an intentional draw"]),
    (Format.SINGLE_SIDED, SECOND, ["I won as Runner", "I lost as Runner", "We tied",
                                   "We agreed an intentional draw"]),
    (Format.DOUBLE_SIDED, FIRST, ["I won 6-0", "I lost 0-6", "We drew 3-3: each won as Corp",
                                  "We drew 3-3: each won as Runner"]),
    (Format.DOUBLE_SIDED, SECOND, ["I won 6-0", "I lost 0-6", "We drew 3-3: each won as Corp",
                                   "We drew 3-3: each won as Runner"]),
    (Format.PLAIN, FIRST, ["I won 2-0", "I won 2-1", "I lost 1-2", "I lost 0-2", "We drew 1-1"]),
    (Format.PLAIN, SECOND, ["I won 2-0", "I won 2-1", "I lost 1-2", "I lost 0-2", "We drew 1-1"]),
])
def test_choices_read_from_the_players_seat(fmt, seat, expected):
    assert [text for _, text in choices(fmt, seat)] == expected
    # the same buttons as the TO's, only worded and ordered for the player
    assert sorted(key for key, _ in choices(fmt, seat)) == sorted(key for key, _ in results.buttons(fmt))


@pytest.mark.parametrize("fmt", list(Format))
def test_the_two_seats_read_every_button_as_opposites(fmt):
    """A win for one seat is a loss for the other, a draw a draw for both: nobody can read a loss as a win."""
    for key, _ in results.buttons(fmt):
        mine, theirs = worded(fmt, key, FIRST), worded(fmt, key, SECOND)
        points = results.outcome(fmt, key).points
        if points[0] > points[1]:
            assert mine.startswith("I won") and theirs.startswith("I lost")
        elif points[0] < points[1]:
            assert mine.startswith("I lost") and theirs.startswith("I won")
        else:
            assert mine.startswith("We") and theirs.startswith("We")


def test_keys_mean_the_table_not_the_player():
    """Seat 2 tapping "I won 2-1" stores the table's 1-2: what the TO's page shows."""
    key = next(k for k, text in choices(Format.PLAIN, SECOND) if text == "I won 2-1")
    assert key == "1-2" and results.label(Format.PLAIN, key) == "1-2"
    key = next(k for k, text in choices(Format.SINGLE_SIDED, SECOND) if text == "I won as Runner")
    assert results.label(Format.SINGLE_SIDED, key) == "Runner win"


def test_the_opponents_report_in_the_second_person():
    assert worded(Format.SINGLE_SIDED, "corp", SECOND, Person.YOU) == "you lost as Runner"
    assert worded(Format.SINGLE_SIDED, "tie", FIRST, Person.YOU) == "a tie"
    assert worded(Format.SINGLE_SIDED, "id", FIRST, Person.YOU) == "an intentional draw"
    assert worded(Format.PLAIN, "1-1", SECOND, Person.YOU) == "a 1-1 draw"
    assert worded(Format.DOUBLE_SIDED, "0-3/3-0", SECOND, Person.YOU) == "a 3-3 draw: each won as Runner"
    assert worded(Format.PLAIN, "2-0", SECOND, Person.YOU) == "you lost 0-2"
    assert worded(Format.DOUBLE_SIDED, "3-0/3-0", FIRST, Person.YOU) == "you won 6-0"


def test_custom_results_and_byes():
    # double-sided: game 1 seat 1 is Corp; "3-0/1-1" = seat 1 won as Corp, tied as Runner
    assert worded(Format.DOUBLE_SIDED, "3-0/1-1", FIRST) == "I won 4-1 (won as Corp, tied as Runner)"
    assert worded(Format.DOUBLE_SIDED, "3-0/1-1", SECOND) == "I lost 1-4 (tied as Corp, lost as Runner)"
    assert worded(Format.DOUBLE_SIDED, "1-1/1-1", SECOND) == "We drew 2-2"  # the total says it all
    assert worded(Format.PLAIN, "2-1-1", SECOND) == "I lost 1-2 (1 game drawn)"
    assert worded(Format.PLAIN, "1-1-2", FIRST) == "We drew 1-1 (2 games drawn)"
    assert worded(Format.PLAIN, results.BYE, FIRST) == "Bye" and worded(Format.PLAIN, None, FIRST) == ""


def test_cut_games():
    assert cut_game(True, "corp") == "I won as Corp"
    assert cut_game(False, "runner", Person.YOU) == "you lost as Runner"
    assert cut_game(True, None) == "I won"  # plain swiss cuts have no sides


def test_an_imported_total_without_its_games_reads_as_the_score_alone():
    """A file's 3-3 or 4-1 without side scores: no "each won as Corp" guessed."""
    assert worded(Format.DOUBLE_SIDED, "3-3", FIRST) == "We drew 3-3"
    assert worded(Format.DOUBLE_SIDED, "3-0/0-3", FIRST) == "We drew 3-3: each won as Corp"
    assert worded(Format.DOUBLE_SIDED, "4-1", SECOND) == "I lost 1-4"

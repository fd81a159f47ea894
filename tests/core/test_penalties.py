"""What a penalty does to a round's result (app/core/penalties.py), per format, from either seat."""
from __future__ import annotations

import pytest

from app.core.pairing.formats import Format
from app.core.penalties import ROUND, Infraction, Kind, PenaltyError, games, grouped, penalized

S, D, P = Format.SINGLE_SIDED, Format.DOUBLE_SIDED, Format.PLAIN


@pytest.mark.parametrize("kind", [Kind.WARNING, Kind.DISQUALIFICATION])
def test_a_warning_or_disqualification_changes_no_result(kind):
    assert penalized(S, "corp", 0, kind) is None
    assert penalized(D, None, 1, kind) is None


@pytest.mark.parametrize("kind", [Kind.GAME_LOSS, Kind.MATCH_LOSS])
@pytest.mark.parametrize("current", [None, "corp", "runner", "tie", "id"])
def test_single_sided_a_loss_is_the_opponents_win(kind, current):
    corp_penalized = penalized(S, current, 0, kind)
    assert corp_penalized.key == "runner" and corp_penalized.points == (0, 3)
    runner_penalized = penalized(S, current, 1, kind)
    assert runner_penalized.key == "corp" and runner_penalized.points == (3, 0)
    assert not runner_penalized.intentional_draw


def test_double_sided_match_loss_loses_both_games():
    assert penalized(D, "3-0/3-0", 0, Kind.MATCH_LOSS).key == "0-3/0-3"
    assert penalized(D, None, 1, Kind.MATCH_LOSS).key == "3-0/3-0"
    assert penalized(D, None, 1, Kind.MATCH_LOSS).points == (6, 0)


def test_double_sided_game_loss_takes_the_named_game_and_keeps_the_other():
    # seat 1 won both; a game loss on game 2 for seat 1: game 1 stays seat 1's win
    assert penalized(D, "3-0/3-0", 0, Kind.GAME_LOSS, game=2).key == "3-0/0-3"
    # seat 2 penalized on game 1, game 2 was a tie
    assert penalized(D, "1-1/1-1", 1, Kind.GAME_LOSS, game=1).key == "3-0/1-1"
    # a total without its games reads as its default games (the Corps won a 3-3)
    assert penalized(D, "3-3", 0, Kind.GAME_LOSS, game=1).key == "0-3/0-3"


def test_double_sided_game_loss_before_the_result_needs_the_other_game():
    with pytest.raises(PenaltyError, match="other game"):
        penalized(D, None, 0, Kind.GAME_LOSS, game=1)
    assert penalized(D, None, 0, Kind.GAME_LOSS, game=1, other_game="win").key == "0-3/3-0"
    assert penalized(D, None, 1, Kind.GAME_LOSS, game=2, other_game="tie").key == "1-1/3-0"
    with pytest.raises(PenaltyError):
        penalized(D, None, 1, Kind.GAME_LOSS, game=2, other_game="maybe")


def test_double_sided_game_loss_names_game_one_or_two():
    assert games(D, Kind.GAME_LOSS) == (1, 2)
    assert games(S, Kind.GAME_LOSS) == (ROUND,) and games(D, Kind.MATCH_LOSS) == (ROUND,)
    with pytest.raises(PenaltyError, match="which game"):
        penalized(D, "3-0/3-0", 0, Kind.GAME_LOSS)
    with pytest.raises(PenaltyError, match="whole round"):
        penalized(S, "corp", 0, Kind.GAME_LOSS, game=1)


def test_plain_swiss():
    assert penalized(P, None, 0, Kind.MATCH_LOSS).key == "0-2"
    assert penalized(P, "2-0", 1, Kind.MATCH_LOSS).key == "2-0"
    assert penalized(P, "1-1", 0, Kind.GAME_LOSS).key == "1-2"  # seat 1 loses one more game: the match
    assert penalized(P, "1-0", 1, Kind.GAME_LOSS).key == "2-0"  # seat 2 penalized: seat 1 wins another
    with pytest.raises(PenaltyError, match="first"):
        penalized(P, None, 0, Kind.GAME_LOSS)
    with pytest.raises(PenaltyError, match="already won"):
        penalized(P, "0-3", 0, Kind.GAME_LOSS)


def test_every_infraction_has_a_family_a_label_and_a_usual_penalty():
    listed = [i for _, infractions in grouped() for i in infractions]
    assert sorted(listed) == sorted(Infraction)
    assert Infraction.CHEATING.usual is Kind.DISQUALIFICATION
    assert all(i.label and isinstance(i.usual, Kind) for i in Infraction)

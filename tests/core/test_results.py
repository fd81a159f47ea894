"""Result buttons -> points and games, per format (pure)."""
import pytest

from app.core.pairing import Format
from app.core.results import (BYE, ResultError, buttons, double_from_seat1, double_from_side_scores, double_sided,
                             label, outcome, plain, side_scores)

SINGLE, DOUBLE, PLAIN = (f.scoring for f in (Format.SINGLE_SIDED, Format.DOUBLE_SIDED, Format.PLAIN))


def test_single_sided_buttons():
    assert [text for _, text in buttons(Format.SINGLE_SIDED)] == ["Corp win", "Runner win", "Tie", "Intentional draw"]
    assert outcome("single", "corp").points == (SINGLE.win, SINGLE.loss)
    assert outcome("single", "runner").points == (SINGLE.loss, SINGLE.win)
    tie, draw = outcome("single", "tie"), outcome("single", "id")
    assert tie.points == draw.points == (SINGLE.tie, SINGLE.tie)
    assert draw.intentional_draw and not tie.intentional_draw
    assert (SINGLE.win, SINGLE.tie, SINGLE.loss) == (3, 1, 0)  # docs/domain.md 1


def test_double_sided_buttons_keep_both_games():
    """One tap for 6-0, the two kinds of 3-3 and 0-6; each key says how each game ended (game 1: seat 1 is Corp)."""
    assert buttons(Format.DOUBLE_SIDED) == [("3-0/3-0", "6-0"), ("3-0/0-3", "3-3 Corps won"),
                                            ("0-3/3-0", "3-3 Runners won"), ("0-3/0-3", "0-6")]
    assert outcome("double", "3-0/3-0").points == (2 * DOUBLE.win, 2 * DOUBLE.loss)
    assert outcome("double", "3-0/0-3").points == outcome("double", "0-3/3-0").points == (DOUBLE.win + DOUBLE.loss,) * 2
    assert outcome("double", "0-3/0-3").points == (0, 6)
    assert outcome("double", "3-0/1-1").points == (4, 1)  # a Corp win, then a tied game
    assert outcome("double", "1-1/1-1").points == (2, 2)


def test_double_sided_side_scores():
    """NRTM corpScore / runnerScore per seat: seat 1 plays Corp in game 1, seat 2 in game 2."""
    assert side_scores("3-0/0-3") == ((3, 0), (3, 0))  # each won as Corp
    assert side_scores("0-3/3-0") == ((0, 3), (0, 3))  # each won as Runner
    assert side_scores("3-0/3-0") == ((3, 3), (0, 0))
    assert side_scores("3-0/1-1") == ((3, 1), (1, 0))
    for key, _ in buttons(Format.DOUBLE_SIDED) + [("1-1/0-3", ""), ("1-1/1-1", "")]:
        (c1, r1), (c2, r2) = side_scores(key)
        assert double_from_side_scores(c1, r1, c2, r2).key == key  # the file's scores give the key back
        assert outcome("double", key).points == (c1 + r1, c2 + r2)
    with pytest.raises(ResultError):
        double_from_side_scores(3, 3, 3, 0)  # both won game 2


def test_double_sided_totals_take_the_documented_default():
    """A bare total (old rows, old backups, files with only combinedScore) hides which side won: the Corps did."""
    assert outcome("double", "6-0").key == "3-0/3-0" and outcome("double", "0-6").key == "0-3/0-3"
    assert outcome("double", "3-3").key == "3-0/0-3"  # each won as Corp
    assert outcome("double", "4-1").key == "3-0/1-1" and outcome("double", "1-4").key == "1-1/0-3"
    assert double_sided(2, 2).key == "1-1/1-1"
    for bad in [(5, 0), (6, 6), (3, 0), (1, 1), (7, 0), (0, 0)]:
        with pytest.raises(ResultError, match="not possible in two games"):
            double_sided(*bad)


def test_double_sided_custom_entry_per_game():
    assert double_from_seat1(3, 0).key == "3-0/0-3"  # seat 1 won as Corp, lost as Runner
    assert double_from_seat1(1, 3).key == "1-1/3-0"
    assert double_from_seat1(0, 1).points == (1, 4)
    for bad in [(2, 0), (3, 4), (-1, 0)]:
        with pytest.raises(ResultError):
            double_from_seat1(*bad)


def test_double_sided_labels():
    assert label(Format.DOUBLE_SIDED, "3-0/0-3") == "3-3 Corps won"
    assert label(Format.DOUBLE_SIDED, "1-1/1-1") == "2-2"  # nothing to tell apart
    assert label(Format.DOUBLE_SIDED, "3-0/1-1") == "4-1 (Corp win, then tie)"
    assert label(Format.DOUBLE_SIDED, "1-1/3-0") == "4-1 (tie, then Runner win)"
    assert label(Format.DOUBLE_SIDED, "3-3") == "3-3"  # an old total in the result history reads as it was


def test_plain_swiss_buttons_and_custom():
    assert [text for _, text in buttons(Format.PLAIN)] == ["2-0", "2-1", "1-2", "0-2", "1-1 draw"]
    two_one = outcome("plain", "2-1")
    assert two_one.points == (PLAIN.win, PLAIN.loss) and two_one.games == (2, 1) and two_one.drawn_games == 0
    assert outcome("plain", "0-2").points == (PLAIN.loss, PLAIN.win)
    assert outcome("plain", "1-1").points == (PLAIN.tie, PLAIN.tie)
    odd = plain(1, 1, 1)
    assert odd.key == "1-1-1" and odd.points == (PLAIN.tie, PLAIN.tie) and odd.drawn_games == 1
    assert plain(1, 0, 2).points == (PLAIN.win, PLAIN.loss)
    assert outcome("plain", "1-0-2") == plain(1, 0, 2)
    for bad in [(4, 0, 0), (0, 0, 4), (-1, 2, 0)]:
        with pytest.raises(ResultError):
            plain(*bad)


@pytest.mark.parametrize("fmt,key", [
    ("single", "bye"), ("single", "6-0"), ("single", ""), ("single", "x" * 10_000),
    ("double", "corp"), ("double", "6"), ("double", "6-0-0"), ("double", "-6-0"), ("double", "1e3-0"),
    ("double", "3-0/3-0/3-0"), ("double", "3-0/"), ("double", "/"), ("double", "2-1/3-0"), ("double", "3-0/0-0"),
    ("plain", "2"), ("plain", "2-0-0-0"), ("plain", "a-b"), ("plain", "200-0"), ("plain", ""), ("plain", "½-0"),
])
def test_unknown_keys(fmt, key):
    with pytest.raises(ResultError):
        outcome(fmt, key)


def test_labels():
    assert label(Format.SINGLE_SIDED, "runner") == "Runner win"
    assert label(Format.PLAIN, "1-1") == "1-1 draw"
    assert label(Format.PLAIN, "2-1-1") == "2-1-1"
    assert label(Format.DOUBLE_SIDED, BYE) == "Bye"
    assert label(Format.DOUBLE_SIDED, None) == ""


def test_a_total_without_its_games_is_known_as_such():
    """games_known: both games, or a total only one pair of games gives; a file's 3-3 or 4-1 alone is not, and
    side_scores then gives no side's score rather than a guess."""
    from app.core.results import games_known, side_scores
    assert games_known("3-0/0-3") and games_known("6-0") and games_known("2-2")
    assert not games_known("3-3") and not games_known("4-1") and not games_known("1-4")
    assert side_scores("3-3") == ((None, None), (None, None))
    assert side_scores("6-0") == ((3, 3), (0, 0))


def test_a_byes_points_kept_from_a_file_pass_the_check():
    """A bye an imported file scored 0 or 7 keeps its points in a backup; a plain swiss bye does not."""
    from app.core.results import check_scores
    check_scores(Format.DOUBLE_SIDED, True, BYE, [(1, None, 0, 0)])
    check_scores(Format.DOUBLE_SIDED, True, BYE, [(1, None, 7, 0)])
    with pytest.raises(ResultError):
        check_scores(Format.DOUBLE_SIDED, True, BYE, [(1, None, 13, 0)])
    with pytest.raises(ResultError):
        check_scores(Format.PLAIN, True, BYE, [(1, None, 0, 2)])

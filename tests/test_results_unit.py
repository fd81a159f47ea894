"""Result buttons -> points and games, per format (pure)."""
import pytest

from app.pairing import SCORING, Format
from app.results import BYE, ResultError, buttons, double_sided, label, outcome, plain

SINGLE, DOUBLE, PLAIN = (SCORING[f] for f in (Format.SINGLE_SIDED, Format.DOUBLE_SIDED, Format.PLAIN))


def test_single_sided_buttons():
    assert [text for _, text in buttons(Format.SINGLE_SIDED)] == ["Corp win", "Runner win", "Tie", "Intentional draw"]
    assert outcome("single", "corp").points == (SINGLE.win, SINGLE.loss)
    assert outcome("single", "runner").points == (SINGLE.loss, SINGLE.win)
    tie, draw = outcome("single", "tie"), outcome("single", "id")
    assert tie.points == draw.points == (SINGLE.tie, SINGLE.tie)
    assert draw.intentional_draw and not tie.intentional_draw
    assert (SINGLE.win, SINGLE.tie, SINGLE.loss) == (3, 1, 0)  # DOMAIN.md 1


def test_double_sided_buttons_and_custom():
    assert [key for key, _ in buttons(Format.DOUBLE_SIDED)] == ["6-0", "3-3", "0-6"]
    assert outcome("double", "6-0").points == (2 * DOUBLE.win, 2 * DOUBLE.loss)
    assert outcome("double", "3-3").points == (DOUBLE.win + DOUBLE.loss,) * 2
    assert outcome("double", "0-6").points == (0, 6)
    assert double_sided(4, 1).points == (4, 1)  # a win and a tied game
    assert double_sided(2, 2).key == "2-2"  # two tied games
    for bad in [(5, 0), (6, 6), (3, 0), (1, 1), (7, 0), (0, 0)]:
        with pytest.raises(ResultError, match="not possible in two games"):
            double_sided(*bad)


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

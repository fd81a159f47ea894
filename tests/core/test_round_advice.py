"""What the rounds buy (app/core/round_advice.py), read from the shipped simulation table."""
import json

import pytest

from app.core import round_advice
from app.core.pairing import Format
from app.core.standings import recommended_rounds

SS = Format.SINGLE_SIDED


def _curve(n):
    return json.loads(round_advice.PATH.read_text())["players"][str(n)]


@pytest.mark.parametrize("fmt", [Format.DOUBLE_SIDED, Format.PLAIN])
def test_other_formats_get_no_figures(fmt):
    assert round_advice.top8_recall(fmt, 40, 6) is None


@pytest.mark.parametrize("players,rounds", [(8, 4), (3, 2), (40, 0)])
def test_no_figures_where_a_top_8_means_nothing(players, rounds):
    assert round_advice.top8_recall(SS, players, rounds) is None


def test_the_table_covers_every_size_past_its_recommended_rounds():
    """Every simulated size has a curve longer than its recommended rounds (so the dashboard's figure is never a
    stand-in), values between 0 and 8, and more rounds help: the last round's figure beats the first's."""
    sizes = round_advice.simulated_sizes()
    assert sizes[0] <= 12 and sizes[-1] >= 256
    for n in sizes:
        curve = _curve(n)
        assert len(curve) > recommended_rounds(n)
        assert all(0 <= x <= 8 for x in curve)
        assert curve[-1] > curve[0]


def test_figures_come_from_the_nearest_simulated_size():
    sizes = round_advice.simulated_sizes()
    for n in sizes:
        r = round_advice.top8_recall(SS, n, 3)
        assert (r.players, r.rounds, r.expected) == (n, 3, _curve(n)[2])
    for low, high in zip(sizes, sizes[1:]):
        between = (low + high) // 2
        if between in (low, high):
            continue
        assert round_advice.top8_recall(SS, between - 0, 1).players in (low, high)
        assert round_advice.top8_recall(SS, low + 1, 1).players == low or high - low <= 2
        assert round_advice.top8_recall(SS, high - 1, 1).players == high or high - low <= 2
    assert round_advice.top8_recall(SS, 10_000, 5).players == sizes[-1]


def test_rounds_to_the_target_is_the_first_round_that_reaches_it():
    for n in round_advice.simulated_sizes():
        r = round_advice.top8_recall(SS, n, 1)
        curve = _curve(n)
        if r.rounds_to_target is None:
            assert max(curve) < r.target
        else:
            assert curve[r.rounds_to_target - 1] >= r.target > max(curve[:r.rounds_to_target - 1], default=0)


def test_more_rounds_than_simulated_read_the_last_simulated_round():
    n = round_advice.simulated_sizes()[0]
    curve = _curve(n)
    r = round_advice.top8_recall(SS, n, len(curve) + 5)
    assert r.capped and r.rounds == len(curve) and r.asked == len(curve) + 5 and r.expected == curve[-1]
    assert not round_advice.top8_recall(SS, n, len(curve)).capped

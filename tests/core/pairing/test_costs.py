"""The named cost formulas, exactly as docs/domain.md section 3 states them."""
from fractions import Fraction

import pytest

from app.core.pairing.costs import DEFAULT_SCORE_FACTOR, CostModel, Standing, triangular
from app.core.pairing.formats import Format

WIN = Format.SINGLE_SIDED.scoring.round_points


def model(name, sf=DEFAULT_SCORE_FACTOR, fmt=Format.SINGLE_SIDED):
    return CostModel(name, fmt.scoring.round_points, sf, sided=fmt is Format.SINGLE_SIDED)


def test_triangular_score_cost_makes_two_small_steps_cheaper_than_one_big():
    m = model("sass", 1)
    assert m.score(2 * WIN, 0) == 3 and m.score(WIN, 0) == 1 and m.score(3 * WIN, 0) == 6
    assert 2 * m.score(WIN, 0) < m.score(2 * WIN, 0)


def test_ties_give_fractional_score_distance():
    m = model("sass", 2)
    assert m.score(1, 0) == 2 * triangular(Fraction(1, WIN)) == Fraction(4, 9)


def test_double_sided_counts_a_round_as_two_game_wins():
    m = model("sass", 1, Format.DOUBLE_SIDED)
    assert m.score(Format.DOUBLE_SIDED.scoring.round_points, 0) == 1
    assert m.side(5, 5) == 0  # no sides in double-sided


def test_sass_side_cost_charges_whoever_reaches_bias_two():
    m = model("sass")
    assert m.side(0, 0) == 0  # -> +1 / -1
    assert m.side(1, 0) == 8  # the Corp reaches +2
    assert m.side(1, 1) == 8 and m.side(1, -1) == 8 + 8
    assert m.side(2, 0) == 64  # +3
    assert m.side(1, -1) > m.side(-1, 1) == 0


def test_sass_pair_takes_the_cheaper_orientation():
    m = model("sass")
    a, b = Standing(WIN, 1), Standing(WIN, -1)
    assert m.pair(a, b) == 0 == m.oriented(b, a) < m.oriented(a, b)


def test_article_side_cost():
    m = model("article")
    assert m.side(2, 1) == 8 and m.side(-2, -3) == 64 and m.side(1, -1) == 0 and m.side(0, 2) == 0
    assert m.side(2, 1) == m.side(1, 2)  # no orientation in the published formula


def test_deployed_formula():
    m = model("deployed", 1)
    assert m.score(WIN, 0) == Fraction(WIN * (WIN + 1), 6)
    assert m.side(0, 0) == 8  # post 1 >= pre 0
    assert m.side(1, -1) == 8**2 and m.side(-1, 1) == 0  # post 0 < pre 1


def test_cobra_formula_and_dropped_pairs():
    m = model("cobra")
    assert m.oriented(Standing(WIN, 0), Standing(0, 0)) == WIN**2 + 1
    assert m.oriented(Standing(0, 1), Standing(0, 0)) == 50
    assert m.oriented(Standing(0, 1), Standing(0, 0), rematch=True) == 55
    assert m.oriented(Standing(0, 2), Standing(0, 0)) is None  # 2500 >= 100
    assert m.oriented(Standing(4 * WIN, 0), Standing(0, 0)) is None  # 144 + 1


def test_bye_is_priced_like_a_player_one_win_below_the_lowest():
    m = model("sass", 2)
    assert m.bye(Standing(0, 0), 0) == 2 and m.bye(Standing(WIN, 0), 0) == 6
    assert m.bye(Standing(0, 2), 0) == 2 + 8  # a bye does not fix a bias of 2


@pytest.mark.parametrize("name", ["sass", "article", "deployed", "cobra"])
@pytest.mark.parametrize("sf", [2, Fraction(5, 2), 3])
def test_scaled_costs_are_exact_ints(name, sf):
    m = model(name, sf)
    for pa in range(0, 13):
        for pb in range(0, 13):
            for ba in (-2, -1, 0, 1, 2):
                c = m.pair(Standing(pa, ba), Standing(pb, -ba))
                if c is not None:
                    assert m.to_int(c) == c * m.scale


def test_unknown_model_is_refused():
    with pytest.raises(ValueError, match="unknown cost model"):
        model("elo")

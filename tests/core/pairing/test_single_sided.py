"""Single-sided swiss's rules (app/core/pairing/single_sided.py), shared by the pairing and by the check of a
hand-edited round."""
from app.core.pairing import Format, Game, History, Side
from app.core.pairing.costs import uneven
from app.core.pairing.single_sided import SingleSidedRules, worsens_bias


def test_single_sided_rematch_reverses_sides_and_stops_at_two():
    once = [Game(1, 1, 2, 3, 0, player_side=Side.CORP)]
    rules = SingleSidedRules(History(Format.SINGLE_SIDED, once, [1, 2, 3]))
    assert rules.may_meet(1, 2) and rules.may_meet(1, 3)
    assert rules.repeats_sides(1, 2) and not rules.repeats_sides(2, 1)
    assert not rules.repeats_sides(1, 3)
    twice = once + [Game(2, 2, 1, 3, 0, player_side=Side.CORP)]
    assert not SingleSidedRules(History(Format.SINGLE_SIDED, twice, [1, 2])).may_meet(1, 2)


def test_bias_helpers():
    assert [worsens_bias(b, 1) for b in (-1, 0, 1, 2)] == [False, False, True, True]
    assert [worsens_bias(b, -1) for b in (-2, -1, 0, 1)] == [True, True, False, False]
    assert [uneven(b) for b in (-2, -1, 0, 1, 2, 3)] == [True, False, False, False, True, True]

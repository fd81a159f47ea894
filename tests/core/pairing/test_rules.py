"""The engine's rule helpers, shared by the pairing and by the check of a hand-edited round."""
from app.core.pairing import Entrant, Format, Game, History, Side
from app.core.pairing.costs import uneven
from app.core.pairing.double_sided import DoubleSidedRules
from app.core.pairing.single_sided import SingleSidedRules, worsens_bias


def test_single_sided_rematch_reverses_sides_and_stops_at_two():
    once = [Game(1, 1, 2, 3, 0, player_side=Side.CORP)]
    rules = SingleSidedRules(History(Format.SINGLE_SIDED, once, [1, 2, 3]))
    assert rules.may_meet(1, 2) and rules.may_meet(1, 3)
    assert rules.repeats_sides(1, 2) and not rules.repeats_sides(2, 1)
    assert not rules.repeats_sides(1, 3)
    twice = once + [Game(2, 2, 1, 3, 0, player_side=Side.CORP)]
    assert not SingleSidedRules(History(Format.SINGLE_SIDED, twice, [1, 2])).may_meet(1, 2)


def test_double_sided_never_rematches():
    rules = DoubleSidedRules(History(Format.DOUBLE_SIDED, [Game(1, 1, 2, 6, 0)], [1, 2, 3]))
    assert not rules.may_meet(1, 2) and not rules.may_meet(2, 1) and rules.may_meet(1, 3)
    assert not rules.repeats_sides(1, 2)


def test_bias_helpers():
    assert [worsens_bias(b, 1) for b in (-1, 0, 1, 2)] == [False, False, True, True]
    assert [worsens_bias(b, -1) for b in (-2, -1, 0, 1)] == [True, True, False, False]
    assert [uneven(b) for b in (-2, -1, 0, 1, 2, 3)] == [True, False, False, False, True, True]


def test_requested_bye_only_in_round_one():
    asks, other = Entrant(1, first_round_bye=True), Entrant(2)
    assert asks.asks_bye(1) and not asks.asks_bye(2) and not other.asks_bye(1)

"""Double-sided swiss's rules (app/core/pairing/double_sided.py): never a rematch, no sides to repeat."""
from app.core.pairing import Format, Game, History
from app.core.pairing.double_sided import DoubleSidedRules


def test_double_sided_never_rematches():
    rules = DoubleSidedRules(History(Format.DOUBLE_SIDED, [Game(1, 1, 2, 6, 0)], [1, 2, 3]))
    assert not rules.may_meet(1, 2) and not rules.may_meet(2, 1) and rules.may_meet(1, 3)
    assert not rules.repeats_sides(1, 2)

"""Plain swiss's lexicographic cost (app/core/pairing/plain_cost.py): one down-pair of a higher type costs more than
any number of lower ones, as swisspair's big numbers order them."""
from __future__ import annotations

from app.core.pairing.plain_cost import LexCost


def test_types_rank_by_the_higher_pod_then_the_farther_lower_pod():
    # C(1,4) > C(1,3) > C(1,2) > C(2,4) > C(2,3) > C(3,4)
    order = [(3, 4), (2, 3), (2, 4), (1, 2), (1, 3), (1, 4)]
    costs = [LexCost.of({t: 1}) for t in order]
    assert costs == sorted(costs)


def test_many_cheap_down_pairs_cost_less_than_one_dear_one():
    assert LexCost.of({(2, 3): 50}) < LexCost.of({(1, 2): 1})
    assert LexCost.of({(1, 2): 1}) < LexCost.of({(1, 2): 2})
    assert LexCost.of({}) == LexCost.of({(1, 2): 0}) < LexCost.of({(3, 4): 1})


def test_counts_and_words_read_back():
    cost = LexCost.of({(1, 2): 2, (0, 3): 1})
    assert cost.counts == {(0, 3): 1, (1, 2): 2}
    assert str(cost) == "1x(0,3), 2x(1,2)" and str(LexCost()) == "0"

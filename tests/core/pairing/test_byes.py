"""The bye rule shared by every format (app/core/pairing/byes.py)."""
from __future__ import annotations

from app.core.pairing.byes import bye_limits, unrequested_first_round_byes


def test_an_odd_field_tries_the_fewest_byes_first_and_an_even_one_has_none():
    assert bye_limits([1, 0, 2, 0, 1], odd=True) == [0, 1, 2]
    assert bye_limits([1, 1], odd=True) == [1]
    assert bye_limits([0, 1, 2], odd=False) == [0]


def test_requested_byes_leaving_an_odd_field_give_one_more():
    assert unrequested_first_round_byes(active=10, requested=1) == 1
    assert unrequested_first_round_byes(active=10, requested=2) == 0
    assert unrequested_first_round_byes(active=9, requested=0) == 0  # the usual odd bye, asked by nobody's request
    assert unrequested_first_round_byes(active=3, requested=3) == 0  # everyone has one: nobody left to pair

"""Table numbers (app/core/pairing/tables.py): the strongest pairs first, fixed tables kept, byes after the last."""
from __future__ import annotations

from app.core.pairing.tables import number_tables

POINTS = {"a": 6, "b": 6, "c": 3, "d": 0, "e": 3, "f": 0, "g": 0}


def _tables(result):
    return [(p.table, p.player, p.opponent) for p in result]


def test_combined_points_first_ties_in_the_given_order_byes_last():
    got = number_tables([("d", "f"), ("c", "e"), ("a", "b")], ["g"], POINTS)
    assert _tables(got) == [(1, "a", "b"), (2, "c", "e"), (3, "d", "f"), (4, "g", None)]


def test_a_fixed_table_is_kept_and_the_others_fill_the_free_numbers():
    got = number_tables([("d", "f"), ("c", "e"), ("a", "b")], ["g"], POINTS, fixed={"f": 1, "e": 5})
    assert _tables(got) == [(1, "d", "f"), (2, "a", "b"), (5, "c", "e"), (6, "g", None)]


def test_two_claims_on_one_table_first_come_first_served():
    got = number_tables([("a", "b"), ("c", "e")], [], POINTS, fixed={"a": 3, "c": 3})
    assert _tables(got) == [(1, "c", "e"), (3, "a", "b")]

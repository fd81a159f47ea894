"""The points table (app/core/series/points.py): placings, bands, tiers and the field's scale."""
from __future__ import annotations

from fractions import Fraction

import pytest

from app.core.series import PointsError, Rules, event_points, format_table, parse_table, parse_tiers
from app.core.series.points import placing_points

TABLE = parse_table("1st 10, 2nd 8, 3rd-4th 6, 5th-8th 4")


def test_the_table_reads_ordinals_ranges_and_plain_numbers():
    assert [(b.first, b.last, b.points) for b in TABLE] == [(1, 1, 10), (2, 2, 8), (3, 4, 6), (5, 8, 4)]
    assert parse_table("1: 10\n2: 7.5\n3-4: 1/3") == parse_table(format_table(parse_table("1: 10, 2: 7.5, 3-4: 1/3")))
    assert placing_points(TABLE, 4) == 6 and placing_points(TABLE, 9) == 0


@pytest.mark.parametrize("text, words", [
    ("", "at least one"), ("1st ten", "write a placing"), ("1: 10, 1: 8", "in two bands"),
    ("1: 5, 2: 8", "more than placing 1"), ("4-2: 3", "from the better"), ("1: -3", "write a placing"),
    ("1: 1/0", "not a number"), ("0: 3", "1 or more"),
])
def test_a_bad_table_is_refused_in_words(text, words):
    with pytest.raises(PointsError, match=words):
        parse_table(text)


def test_tiers_and_field_scale_the_placing_points_not_the_participation_point():
    rules = Rules(TABLE, participation=Fraction(1), field_reference=16)
    assert event_points(rules, 1, 24, Fraction(2)) == 10 * Fraction(24, 16) * 2 + 1
    assert event_points(rules, 20, 24, Fraction(2)) == 1
    assert parse_tiers("Store: 1, Regional: 2.5") == {"Store": 1, "Regional": Fraction(5, 2)}
    with pytest.raises(PointsError, match="twice"):
        parse_tiers("Store: 1, store: 2")

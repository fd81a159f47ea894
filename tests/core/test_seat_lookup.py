"""Which shared seats answer holds a player (app/core/seat_lookup.py)."""
from __future__ import annotations

from hypothesis import given, strategies as st

from app.core.seat_lookup import BUCKETS, bucket


@given(st.integers(min_value=1, max_value=2**31 - 1))
def test_every_player_has_one_bucket_in_range(player_id):
    assert 0 <= bucket(player_id) < BUCKETS and bucket(player_id) == bucket(player_id)


def test_a_hall_spreads_evenly():
    counts = [0] * BUCKETS
    for pid in range(1, 10_001):
        counts[bucket(pid)] += 1
    assert max(counts) - min(counts) <= 1  # consecutive ids: no answer much bigger than another

"""The models' shared pieces (app/models/base.py): stored times read back as UTC, column lengths read from the
columns, the random keys within their columns."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.models import Player, Tournament
from app.models.base import MAX_INT, as_utc, max_length, new_slip_ref, new_slug


def test_a_stored_time_reads_back_as_aware_utc():
    naive = datetime(2026, 12, 8, 10, 0)  # what SQLite gives back
    assert as_utc(naive) == datetime(2026, 12, 8, 10, 0, tzinfo=timezone.utc)
    paris = datetime(2026, 12, 8, 11, 0, tzinfo=timezone(timedelta(hours=1)))
    assert as_utc(paris) == datetime(2026, 12, 8, 10, 0, tzinfo=timezone.utc) and as_utc(None) is None


def test_lengths_come_from_the_columns():
    assert max_length(Player.name) == Player.__table__.c.name.type.length == 100
    assert max_length(Tournament.slug) >= len(new_slug())


def test_the_random_keys_fit_their_columns():
    slugs = {new_slug() for _ in range(200)}
    assert len(slugs) == 200 and all(s.isalnum() and s == s.lower() for s in slugs)
    assert all(0 < new_slip_ref() <= MAX_INT for _ in range(200))

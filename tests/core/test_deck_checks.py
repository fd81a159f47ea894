"""Random deck checks (app/core/deck_checks.py): reproducible from the seed, weighted away from the checked,
limited to the top tables when asked."""
from __future__ import annotations

from collections import Counter

from app.core.deck_checks import Candidate, Pool, pick


def _field(n=10, checked=()):
    return [Candidate(i, (i + 1) // 2, 1 if i in checked else 0) for i in range(1, n + 1)]


def test_the_same_seed_picks_the_same_players_and_another_seed_may_not():
    field = _field()
    assert pick(field, 3, "abc") == pick(list(reversed(field)), 3, "abc")
    assert len(set(pick(field, 3, "abc"))) == 3
    assert len({tuple(pick(field, 3, str(s))) for s in range(20)}) > 1


def test_count_is_capped_by_the_pool():
    assert sorted(pick(_field(4), 10, "x")) == [1, 2, 3, 4]
    assert pick([], 2, "x") == []


def test_players_already_checked_are_picked_less_often():
    field = _field(10, checked={1, 2, 3, 4, 5})
    tally = Counter(p for s in range(2000) for p in pick(field, 1, f"seed{s}"))
    fresh = sum(tally[p] for p in range(6, 11))
    checked = sum(tally[p] for p in range(1, 6))
    assert 3 < fresh / checked < 5.5  # weight 4 against 1


def test_top_tables_pick_only_from_them():
    field = _field(10) + [Candidate(11, None, 0)]
    for s in range(50):
        assert set(pick(field, 2, str(s), Pool.TOP, top_tables=2)) <= {1, 2, 3, 4}

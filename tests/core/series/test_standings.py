"""The series standings (app/core/series/standings.py): best N, ranks and ties, each tie-break in its order."""
from __future__ import annotations

import pytest
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from app.core.series import EventResult, Rules, event_points, standings
from app.core.series.standings import counted, ranked
from tests.core.series.test_points import TABLE

placings = st.lists(st.tuples(st.integers(1, 12), st.integers(12, 40)), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(placings, st.integers(0, 9))
def test_best_n_never_lowers_a_total_when_n_grows(results, n):
    def total(best):
        rows = standings(Rules(TABLE, Fraction(1), best), {"p": [EventResult(i, p, f) for i, (p, f) in
                                                                  enumerate(results)]})
        return rows[0].total
    assert total(n) <= total(n + 1) <= total(None)
    assert total(None) == sum(event_points(Rules(TABLE, Fraction(1)), p, f) for p, f in results)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 20), max_size=10), st.integers(0, 12))
def test_the_counted_results_are_the_best_n(points, n):
    chosen = counted([Fraction(p) for p in points], n)
    assert len(chosen) == min(n, len(points))
    left = [p for i, p in enumerate(points) if i not in chosen]
    assert all(points[i] >= p for i in chosen for p in left)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(30, 64))
def test_a_better_placing_never_earns_fewer_points(a, b, field):
    rules = Rules(TABLE, Fraction(1), field_reference=16)
    better, worse = min(a, b), max(a, b)
    assert event_points(rules, better, field) >= event_points(rules, worse, field)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from("abcdefgh"), placings, min_size=1),
       st.permutations(["all_results", "countback", "event_wins", "events_played"]), st.integers(1, 4))
def test_ranks_follow_the_total_and_equal_rows_share_a_rank(results, tie_breaks, best_n):
    rules = Rules(TABLE, Fraction(1), best_n, tie_breaks=tuple(tie_breaks))
    rows = standings(rules, {p: [EventResult(i, pl, f) for i, (pl, f) in enumerate(r)] for p, r in results.items()})
    assert sorted(r.player for r in rows) == sorted(results)
    for before, after in zip(rows, rows[1:]):
        assert before.total >= after.total
        assert before.rank <= after.rank
        if before.rank == after.rank:
            assert before.total == after.total and before.events == after.events and before.wins == after.wins
    assert rows[0].rank == 1


def test_each_tie_break_decides_in_the_order_chosen():
    # equal counted totals (best 1: a win each); b played more events, a has the better second result
    results = {"a": [EventResult(1, 1, 20), EventResult(2, 2, 20)],
               "b": [EventResult(1, 1, 20), EventResult(2, 9, 20), EventResult(3, 9, 20)]}
    by = lambda *tb: [r.player for r in standings(Rules(TABLE, best_n=1, tie_breaks=tb), results)]
    assert by("events_played") == ["b", "a"]
    assert by("countback") == ["a", "b"]
    assert by("all_results") == ["a", "b"]
    rows = standings(Rules(TABLE, best_n=1, tie_breaks=("event_wins",)), results)
    assert rows[0].rank == rows[1].rank == 1


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from("abcdefgh"), placings, min_size=1),
       st.dictionaries(st.sampled_from("abcdefghij"), placings), st.sets(st.sampled_from("abcdefgh")),
       st.permutations(["all_results", "countback", "event_wins", "events_played"]), st.integers(1, 4),
       st.sampled_from([None, 16]), st.sampled_from([Fraction(1), Fraction(3, 2)]))
def test_a_ranking_from_an_earlier_one_is_the_ranking_from_nothing(before, changed, gone, tie_breaks, best_n,
                                                                    reference, multiplier):
    # a result in one event changes some players' results, adds players and removes others (a re-pair)
    rules = Rules(TABLE, Fraction(1), best_n, reference, tuple(tie_breaks))
    as_results = lambda r: [EventResult(i, pl, f, multiplier if i % 2 else Fraction(1))  # noqa: E731
                            for i, (pl, f) in enumerate(r)]
    old = {p: as_results(r) for p, r in before.items()}
    new = {**{p: r for p, r in old.items() if p not in gone}, **{p: as_results(r) for p, r in changed.items()}}
    names = {p: p.upper() if p in "aeg" else "same" for p in "abcdefghij"}
    _, earlier = ranked(rules, old, names)
    assert ranked(rules, new, names, earlier)[0] == standings(rules, new, names)
    # and again from that one, with nothing changed: the very rows
    rows, again = ranked(rules, new, names, earlier)
    assert ranked(rules, new, names, again)[0] == rows

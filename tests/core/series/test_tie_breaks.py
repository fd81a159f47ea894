"""The series' tie-breaks (app/core/series/tie_breaks.py): each entry decides, in the order chosen; unknown names
are refused."""
from __future__ import annotations

import pytest

from app.core.series import (
    TIE_BREAKS,
    EventResult,
    Rules,
    UnknownTieBreak,
    parse_table,
    standings,
)
from app.core.series.tie_breaks import named

TABLE = parse_table("1st 10, 2nd 8, 3rd-4th 6, 5th-8th 4")

# Per tie-break: two players equal on the counted total (best 1: one win each) whom it alone orders, "a" first.
DECIDES = {
    "all_results": {"a": [EventResult(1, 1, 20), EventResult(2, 2, 20)],
                    "b": [EventResult(1, 1, 20), EventResult(2, 3, 20)]},
    "countback": {"a": [EventResult(1, 1, 20), EventResult(2, 9, 20)],
                  "b": [EventResult(1, 1, 20), EventResult(2, 10, 20)]},
    "event_wins": {"a": [EventResult(1, 1, 20), EventResult(2, 1, 20)],
                   "b": [EventResult(1, 1, 20), EventResult(2, 2, 20), EventResult(3, 2, 20)]},
    "events_played": {"a": [EventResult(1, 1, 20), EventResult(2, 9, 20)],
                      "b": [EventResult(1, 1, 20)]},
}


def test_every_tie_break_has_a_case_that_it_decides():
    """A tie-break added to the registry without its case here fails: adding one is one entry plus its test."""
    assert set(DECIDES) == set(TIE_BREAKS)
    assert all(name == tb.name and tb.label for name, tb in TIE_BREAKS.items())


@pytest.mark.parametrize("name", sorted(DECIDES))
def test_each_tie_break_decides_its_case_and_nothing_without_it(name):
    results = DECIDES[name]
    rows = standings(Rules(TABLE, best_n=1, tie_breaks=(name,)), results)
    assert [(r.player, r.rank) for r in rows] == [("a", 1), ("b", 2)]
    assert [r.rank for r in standings(Rules(TABLE, best_n=1), results)] == [1, 1]


def test_named_keeps_the_order_and_refuses_unknown_or_repeated_names():
    assert [tb.name for tb in named(["event_wins", "countback"])] == ["event_wins", "countback"]
    with pytest.raises(UnknownTieBreak, match="'coin_toss'"):
        named(["countback", "coin_toss"])
    with pytest.raises(UnknownTieBreak, match="once"):
        named(["countback", "countback"])


def test_standings_refuse_an_unknown_tie_break_rather_than_ignore_it():
    with pytest.raises(UnknownTieBreak, match="'coin_toss'"):
        standings(Rules(TABLE, tie_breaks=("coin_toss",)), DECIDES["countback"])

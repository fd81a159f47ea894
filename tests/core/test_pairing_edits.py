"""A TO's hand edit on plain tables (app/core/pairing_edits.py): what each action moves, what it refuses, and
that no edit loses, duplicates or invents a player."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.pairing_edits import EDIT_ACTIONS, EditRefused, apply_edit

ROUND = {10: [1, 2], 11: [3, 4], 12: [5]}  # match id -> players in seat order; 5 has the bye


def test_swap_sides_bye_and_join():
    edit = apply_edit(ROUND, "swap", 1, 3, sided_tables=True)
    assert edit.tables == {10: [3, 2], 11: [1, 4], 12: [5]} and edit.changed == {10, 11}
    assert apply_edit(ROUND, "sides", 2, sided_tables=True).tables[10] == [2, 1]
    edit = apply_edit(ROUND, "bye", 4, sided_tables=True)  # the bye holder takes 4's seat
    assert edit.tables == {10: [1, 2], 11: [3, 5], 12: [4]} and edit.changed == {11, 12} and not edit.new_bye
    even = {10: [1, 2], 11: [3, 4]}
    edit = apply_edit(even, "bye", 1, sided_tables=True)  # an even field: 1 and 2 both end with a bye
    assert edit.tables == {10: [2], 11: [3, 4]} and edit.new_bye == [1]
    edit = apply_edit({10: [1], 11: [2], 12: [3, 4]}, "join", 1, 2, sided_tables=False)
    assert edit.tables == {10: [1, 2], 12: [3, 4]} and edit.changed == {10, 11}
    assert ROUND == {10: [1, 2], 11: [3, 4], 12: [5]}  # the input is left as it was


def test_remove_and_add():
    edit = apply_edit(ROUND, "remove", 1, 5, sided_tables=True)  # 5 takes 1's seat; 5's bye table is gone
    assert edit.tables == {10: [5, 2], 11: [3, 4]} and edit.changed == {10, 12}
    edit = apply_edit(ROUND, "remove", 1, sided_tables=True)  # 2 is left with a bye at table 10
    assert edit.tables == {10: [2], 11: [3, 4], 12: [5]}
    edit = apply_edit(ROUND, "remove", 5, sided_tables=True)
    assert edit.tables == {10: [1, 2], 11: [3, 4]} and edit.changed == {12}
    edit = apply_edit(ROUND, "add", 6, 5, sided_tables=True)
    assert edit.tables[12] == [5, 6] and edit.changed == {12}
    edit = apply_edit(ROUND, "add", 6, sided_tables=True)
    assert edit.tables == ROUND and edit.changed == set() and edit.new_bye == [6]


@pytest.mark.parametrize("action, first, second, sided, message", [
    ("swap", 1, 2, True, "play each other already"),
    ("swap", 1, 9, True, "players who are in this round"),
    ("sides", 1, None, False, "Only single-sided swiss"),
    ("sides", 5, None, True, "A bye has no sides"),
    ("bye", 5, None, True, "has the bye already"),
    ("join", 1, 5, True, "Both players must have a bye"),
    ("remove", 1, 3, True, "one who has a bye"),
    ("add", 1, None, True, "in this round already"),
    ("add", 6, 2, True, "one who has a bye"),
    ("shuffle", 1, None, True, "Unknown edit"),
])
def test_refusals_name_the_problem(action, first, second, sided, message):
    with pytest.raises(EditRefused, match=message):
        apply_edit(ROUND, action, first, second, sided_tables=sided)


@st.composite
def rounds_and_edits(draw):
    players = list(range(1, draw(st.integers(2, 12)) + 1))
    order = draw(st.permutations(players))
    pairs = [order[i:i + 2] for i in range(0, len(order), 2)]
    tables = {100 + i: list(p) for i, p in enumerate(pairs)}
    action = draw(st.sampled_from(sorted(EDIT_ACTIONS)))
    first = draw(st.sampled_from(players + [99]))
    second = draw(st.one_of(st.none(), st.sampled_from(players)))
    return tables, action, first, second


@given(rounds_and_edits(), st.booleans())
def test_no_edit_loses_duplicates_or_invents_a_player(case, sided):
    tables, action, first, second = case
    before = Counter(p for ps in tables.values() for p in ps)
    try:
        edit = apply_edit(tables, action, first, second, sided_tables=sided)
    except EditRefused:
        return
    after = Counter(p for ps in edit.tables.values() for p in ps) + Counter(edit.new_bye)
    expected = before.copy()
    if action == "remove":
        expected[first] -= 1
    elif action == "add":
        expected[first] += 1
    assert after == +expected
    assert all(1 <= len(ps) <= 2 for ps in edit.tables.values())
    unchanged = set(tables) - edit.changed
    assert all(edit.tables[mid] == tables[mid] for mid in unchanged)
    assert edit.changed <= set(tables)

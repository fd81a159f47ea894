"""Invitations (app/core/series/invitations.py): event winners' first, then the top N, passing down."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from app.core.series import invitations


def test_winners_invitations_pass_down_and_the_top_n_follow():
    order = ["a", "b", "c", "d", "e"]
    got = invitations(order, top_n=2, event_orders=[(1, ["a", "b"]), (2, ["a", "c", "d"])], declined={"c"})
    assert [(i.player, i.event, i.passed_over) for i in got] == [
        ("a", 1, ()), ("d", 2, ("a", "c")), ("b", None, ("a",)), ("e", None, ("c", "d"))]


players = st.lists(st.integers(0, 30), unique=True, min_size=1, max_size=20)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(players, st.integers(0, 8), st.sets(st.integers(0, 30)), st.sets(st.integers(0, 30)), st.data())
def test_invitations_go_to_the_first_eligible_players(order, n, holds, declined, data):
    events = data.draw(st.lists(st.permutations(order), max_size=3))
    got = invitations(order, n, list(enumerate(events)), holds, declined)
    invited = [i.player for i in got]
    assert len(invited) == len(set(invited))
    assert not set(invited) & (holds | declined)
    from_standings = [i.player for i in got if i.event is None]
    eligible = [p for p in order if p not in holds | declined | set(invited) - set(from_standings)]
    assert from_standings == eligible[:n]


@settings(max_examples=300, deadline=None)
@given(players, st.integers(1, 8), st.sets(st.integers(0, 30)))
def test_a_declined_invitation_passes_to_the_next_eligible_player(order, n, holds):
    before = invitations(order, n, holds=holds)
    if not before:
        return
    decliner = before[0].player
    after = invitations(order, n, holds=holds, declined={decliner})
    assert decliner not in [i.player for i in after]
    eligible = [p for p in order if p not in holds and p != decliner]
    assert [i.player for i in after] == eligible[:n]
    # everyone else invited before still is
    assert {i.player for i in before} - {decliner} <= {i.player for i in after}

"""Who is who across a series' events (app/core/series/people.py): accounts join their entries, names are
only suggested, identical names linked without ever joining two accounts."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from app.core.series.people import Entry, Link, Suggestion, resolve


def test_an_account_joins_its_entries_and_a_name_is_only_suggested():
    entries = [Entry(1, "x", "ann", account_id=7), Entry(2, "y", "ann", account_id=7), Entry(3, "z", "ann"),
               Entry(4, "z", "ben"), Entry(5, "y", "ben")]
    people = resolve(entries)
    assert people.key_of == {1: "a7", 2: "a7", 3: "e3", 4: "e4", 5: "e5"}
    assert people.suggestions == [Suggestion(3, "a7"), Suggestion(5, "e4")]
    confirmed = resolve(entries, [Link(3, target_account_id=7), Link(5, target_player_id=4)])
    assert confirmed.key_of == {1: "a7", 2: "a7", 3: "a7", 4: "e4", 5: "e4"}
    assert confirmed.suggestions == [] and confirmed.linked == {3, 5}
    assert confirmed.keys["e4"] == {"e4", "e5"}
    rejected = resolve(entries, rejections=[(3, "a7"), (4, "e5")])  # either direction keeps the two apart
    assert rejected.suggestions == []


def test_a_link_that_would_join_two_accounts_or_one_events_two_entries_is_void():
    entries = [Entry(1, "x", "ann", account_id=7), Entry(2, "y", "ann", account_id=8), Entry(3, "x", "bob"),
               Entry(4, "z", "ann")]
    people = resolve(entries, [Link(4, target_account_id=7), Link(4, target_account_id=8), Link(3, target_player_id=1)])
    assert people.key_of == {1: "a7", 2: "a8", 3: "e3", 4: "a7"}
    assert Suggestion(4, "a8") not in people.suggestions  # a7's group already fits 4; two accounts never merge


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.sampled_from(["ann", "ben", "cat"]), st.one_of(st.none(),
                                                                                                  st.integers(1, 3))),
                max_size=14), st.data())
def test_groups_never_hold_two_accounts_or_two_entries_of_one_event(rows, data):
    seen, entries = set(), []
    for pid, (event, name, account) in enumerate(rows, start=1):
        if (event, name) in seen or (event, account) in seen:
            continue
        seen |= {(event, name)} | ({(event, account)} if account else set())
        entries.append(Entry(pid, event, name, account))
    ids = [e.player_id for e in entries] or [0]
    links = data.draw(st.lists(st.builds(Link, st.sampled_from(ids), st.sampled_from(ids)), max_size=6))
    links = [link for link in links if link.player_id != link.target_player_id]
    people = resolve(entries, links)
    by_id = {e.player_id: e for e in entries}
    for key, members in people.members.items():
        assert len({by_id[m].event for m in members}) == len(members)
        assert len({by_id[m].account_id for m in members} - {None}) <= 1
    for s in people.suggestions:  # never a suggestion inside one series player, nor across accounts
        assert people.key_of[s.player_id] != s.target
        assert by_id[s.player_id].account_id is None
    asked = [s.player_id for s in people.suggestions]
    assert len(asked) == len(set(asked))  # one suggestion per entry at most
    assert resolve(entries, links, suggest=False).key_of == people.key_of


def test_identical_names_join_the_account_or_the_biggest_player_and_stored_they_give_the_same_players():
    entries = [Entry(1, "w1", "chloe dupont"), Entry(2, "w2", "chloe dupont"), Entry(3, "w3", "chloe dupont"),
               Entry(4, "w1", "ben"), Entry(5, "w2", "ben", account_id=9), Entry(6, "w3", "ben"),
               Entry(7, "w3", "cat")]
    people = resolve(entries, [Link(2, target_player_id=1)])
    assert people.key_of[3] == "e3" and people.key_of[6] == "e6"  # off: nothing joins by itself
    assert people.identical == [Link(4, target_account_id=9), Link(6, target_account_id=9), Link(3, target_player_id=1)]
    auto = resolve(entries, [Link(2, target_player_id=1)], identical=True)
    assert {pid: auto.key_of[pid] for pid in (1, 2, 3, 4, 5, 6, 7)} == \
        {1: "e1", 2: "e1", 3: "e1", 4: "a9", 5: "a9", 6: "a9", 7: "e7"}
    assert auto.suggestions == [] and auto.linked == {2}  # the identical links are not the TO's own
    stored = resolve(entries, [Link(2, target_player_id=1)] + people.identical)
    assert stored.key_of == auto.key_of and stored.identical == [] and stored.linked == {2, 3, 4, 6}
    assert stored.current("e3") == "e1" and stored.current("e4") == "a9" and stored.current("e99") is None


def test_identical_names_never_guess_between_two_accounts_nor_join_a_rejected_pair():
    entries = [Entry(1, "w1", "ann", account_id=7), Entry(2, "w2", "ann", account_id=8), Entry(3, "w3", "ann"),
               Entry(4, "w1", "bob"), Entry(5, "w2", "bob"), Entry(6, "w3", "bob")]
    people = resolve(entries, rejections=[(5, "e4")], identical=True)
    assert people.key_of[3] == "e3"  # two accounts are called ann: which one is a guess
    assert Suggestion(3, "a7") in people.suggestions or Suggestion(3, "a8") in people.suggestions
    assert people.key_of[6] == "e4" and people.key_of[5] == "e5"  # the rejected pair stays apart, the third joins
    assert [link for link in people.identical] == [Link(6, target_player_id=4)]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.sampled_from(["ann", "ben", "cat"]), st.one_of(st.none(),
                                                                                                  st.integers(1, 3))),
                max_size=14), st.data())
def test_linking_identical_names_keeps_every_player_whole_and_storing_the_links_changes_nothing(rows, data):
    seen, entries = set(), []
    for pid, (event, name, account) in enumerate(rows, start=1):
        if (event, name) in seen or (event, account) in seen:
            continue
        seen |= {(event, name)} | ({(event, account)} if account else set())
        entries.append(Entry(pid, event, name, account))
    ids = [e.player_id for e in entries] or [0]
    links = data.draw(st.lists(st.builds(Link, st.sampled_from(ids), st.sampled_from(ids)), max_size=4))
    links = list({link.player_id: link for link in links if link.player_id != link.target_player_id}.values())
    auto = resolve(entries, links, identical=True)
    by_id = {e.player_id: e for e in entries}
    for members in auto.members.values():
        assert len({by_id[m].event for m in members}) == len(members)
        assert len({by_id[m].account_id for m in members} - {None}) <= 1
    linked_from = {link.player_id for link in links}
    assert not linked_from & {link.player_id for link in auto.identical}  # one stored link per entry at most
    assert resolve(entries, links + auto.identical).key_of == auto.key_of
    assert resolve(entries, links + auto.identical, identical=True).identical == []  # linking twice adds nothing

"""The series rules (app/core/series/): the points table, best N, ties, invitations passing down."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from app.core.series import (EventResult, PointsError, Rules, event_points, format_table, invitations, parse_table,
                             parse_tiers, standings)
from app.core.series.points import placing_points
from app.core.series.standings import counted

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


def test_winners_invitations_pass_down_and_the_top_n_follow():
    order = ["a", "b", "c", "d", "e"]
    got = invitations(order, top_n=2, event_orders=[(1, ["a", "b"]), (2, ["a", "c", "d"])], declined={"c"})
    assert [(i.player, i.event, i.passed_over) for i in got] == [
        ("a", 1, ()), ("d", 2, ("a", "c")), ("b", None, ("a",)), ("e", None, ("c", "d"))]


players = st.lists(st.integers(0, 30), unique=True, min_size=1, max_size=20)


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


from app.core.series.people import Entry, Link, Suggestion, resolve  # noqa: E402


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

"""The check-in and waitlist rules (app/core/check_in.py)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.core.check_in import (Entry, NoShows, PairingPlan, Phone, Refusal, RollCall, arrival, check_check_in,
                               free_places, no_shows, pairing_plan, phone, promotions, waiting_phone,
                               waitlist_position)

NOW = datetime(2026, 11, 28, 9, 30, tzinfo=timezone.utc)


def test_free_places_under_a_cap_never_negative_and_none_without_cap():
    assert free_places(None, 500) is None
    assert free_places(8, 5) == 3
    assert free_places(8, 10) == 0  # the TO let in more by hand


@pytest.mark.parametrize("cap, active, waiting, keeps, expected", [
    (None, 100, 0, True, Entry.IN),
    (8, 7, 0, True, Entry.IN),
    (8, 8, 0, True, Entry.WAITLIST),
    (8, 8, 0, False, Entry.REFUSED),
    (8, 6, 2, True, Entry.WAITLIST),  # two places free, two waiting: they go first
    (8, 6, 1, True, Entry.IN),
    (8, 6, 5, False, Entry.IN),  # no waitlist kept: a free place is anyone's
])
def test_a_new_registration_is_in_waits_or_is_refused(cap, active, waiting, keeps, expected):
    assert arrival(cap, active, waiting, keeps) is expected


def test_promotions_take_the_head_of_the_line_as_far_as_the_places_go():
    line = ["ana", "bo", "cy"]
    assert promotions(8, 7, line, started=False) == ["ana"]
    assert promotions(8, 6, line, started=False) == ["ana", "bo"]
    assert promotions(8, 8, line, started=False) == []
    assert promotions(8, 9, line, started=False) == []
    assert promotions(None, 30, line, started=False) == line  # the cap removed: everyone in
    assert promotions(8, 2, line, started=True) == []  # after round 1 only the TO lets anyone in


def test_waitlist_position_counts_from_one():
    assert waitlist_position([7, 3, 9], 9) == 3
    assert waitlist_position([7, 3, 9], 7) == 1
    assert waitlist_position([7, 3, 9], 4) is None


def test_no_shows_are_the_active_players_not_seen_in_order():
    assert no_shows([5, 1, 4, 2], {1, 2, 99}) == [5, 4]
    assert no_shows([], {1}) == []


def test_a_roll_call_runs_until_its_round_is_paired_and_phones_stop_at_the_deadline():
    call = RollCall(enabled=True, round=1, deadline=NOW)
    assert call.running(0) and not call.running(1)
    assert call.open_to_phones(0, NOW - timedelta(seconds=1))
    assert not call.open_to_phones(0, NOW)
    assert not RollCall(enabled=False).running(0)
    day_two = RollCall(enabled=True, round=4)
    assert day_two.running(3) and not day_two.running(4)
    assert day_two.open_to_phones(3, NOW + timedelta(days=1))  # no deadline: until the round is paired


def test_pairing_drops_no_shows_for_its_round_when_the_to_chose_to_deadline_or_not():
    call = RollCall(enabled=True, round=1, deadline=NOW, no_shows=NoShows.DROP)
    assert call.drops_at_pairing(1)
    assert not call.drops_at_pairing(2)
    assert not RollCall(enabled=True, round=1, deadline=NOW, no_shows=NoShows.DECIDE).drops_at_pairing(1)
    # the defaults seen on the day: no deadline ("until the round is paired") and "dropped when paired"
    assert RollCall(enabled=True, round=1, deadline=None).drops_at_pairing(1)
    assert not RollCall(enabled=False, round=1, deadline=NOW).drops_at_pairing(1)


def test_what_the_phone_says():
    call = RollCall(enabled=True, round=1, deadline=NOW)
    before, after = NOW - timedelta(minutes=5), NOW + timedelta(minutes=5)
    kw = dict(waitlisted=False, dropped=False, checked_in=False)
    assert phone(call, 0, before, **kw) is Phone.OPEN
    assert phone(call, 0, after, **kw) is Phone.MISSED
    assert phone(call, 0, after, **{**kw, "checked_in": True}) is Phone.DONE
    assert phone(call, 0, before, **{**kw, "waitlisted": True, "dropped": True}) is Phone.WAITLIST
    assert phone(call, 0, before, **{**kw, "dropped": True}) is Phone.NONE
    assert phone(call, 1, before, **kw) is Phone.NONE  # round 1 paired
    assert phone(RollCall(), 0, before, **{**kw, "waitlisted": True}) is Phone.WAITLIST  # no roll call, a line


def test_who_may_check_in():
    call = RollCall(enabled=True, round=1, deadline=NOW)
    late = NOW + timedelta(minutes=1)
    check_check_in(call, 0, NOW - timedelta(minutes=1), by_staff=False, waitlisted=False, dropped=False)
    check_check_in(call, 0, late, by_staff=True, waitlisted=False, dropped=False)  # the staff tick a late arrival
    with pytest.raises(Refusal, match="closed"):
        check_check_in(call, 0, late, by_staff=False, waitlisted=False, dropped=False)
    # a waiting player checks in while they wait (before round 1), by phone before the deadline or by the staff
    check_check_in(call, 0, NOW - timedelta(minutes=1), by_staff=False, waitlisted=True, dropped=True)
    check_check_in(call, 0, late, by_staff=True, waitlisted=True, dropped=True)
    with pytest.raises(Refusal, match="closed"):
        check_check_in(call, 0, late, by_staff=False, waitlisted=True, dropped=True)
    with pytest.raises(Refusal, match="waitlist"):  # a second day's roll call: the field is settled
        check_check_in(RollCall(enabled=True, round=3), 2, NOW, by_staff=True, waitlisted=True, dropped=True)
    with pytest.raises(Refusal, match="dropped"):
        check_check_in(call, 0, NOW, by_staff=True, waitlisted=False, dropped=True)
    with pytest.raises(Refusal, match="over"):
        check_check_in(call, 1, NOW, by_staff=True, waitlisted=False, dropped=False)
    with pytest.raises(Refusal, match="not open"):
        check_check_in(RollCall(), 0, NOW, by_staff=True, waitlisted=False, dropped=False)


def test_a_player_let_in_after_the_deadline_may_still_check_in_from_their_phone():
    call = RollCall(enabled=True, round=1, deadline=NOW)
    later = NOW + timedelta(minutes=10)
    promoted = NOW + timedelta(minutes=2)
    kw = dict(waitlisted=False, dropped=False, checked_in=False)
    assert phone(call, 0, later, promoted_at=promoted, **kw) is Phone.OPEN
    assert phone(call, 0, later, promoted_at=NOW - timedelta(minutes=1), **kw) is Phone.MISSED  # in before it
    check_check_in(call, 0, later, by_staff=False, waitlisted=False, dropped=False, promoted_at=promoted)
    with pytest.raises(Refusal):
        check_check_in(call, 0, later, by_staff=False, waitlisted=False, dropped=False,
                       promoted_at=NOW - timedelta(minutes=1))


# ---------------------------------------------------------------- what pairing does first (pairing_plan)

DEFAULTS = RollCall(enabled=True, round=1)  # check-in on, no deadline, no-shows dropped when paired


def test_the_plan_with_the_defaults_drops_the_absent_and_lets_in_the_present_waiting_in_line_order():
    # cap 6, six in (two absent), four waiting of whom the 2nd and 4th are here
    plan = pairing_plan(DEFAULTS, 1, ["a", "b", "c", "d", "e", "f"], {"a", "b", "c", "d", "w2", "w4"},
                        ["w1", "w2", "w3", "w4"], 6)
    assert plan == PairingPlan(1, drops=("e", "f"), let_in=("w2", "w4"))
    assert plan.changes


def test_the_plan_lets_in_only_as_many_as_the_cap_frees_and_all_present_without_a_cap():
    plan = pairing_plan(DEFAULTS, 1, ["a", "b", "c"], {"a", "b", "w1", "w2"}, ["w1", "w2"], 3)
    assert plan.drops == ("c",) and plan.let_in == ("w1",)
    # a cap the TO went past by hand frees nothing until the field is under it
    assert pairing_plan(DEFAULTS, 1, ["a", "b", "c"], {"a", "w1"}, ["w1"], 1).let_in == ()
    assert pairing_plan(DEFAULTS, 1, ["a"], {"a", "w1", "w2"}, ["w1", "w2"], None).let_in == ("w1", "w2")


def test_the_plan_with_left_in_leaves_the_absent_in_and_fills_only_free_places():
    call = RollCall(enabled=True, round=1, no_shows=NoShows.DECIDE)
    plan = pairing_plan(call, 1, ["a", "b", "c"], {"a", "w1"}, ["w1"], 3)
    assert plan == PairingPlan(1, left_in=("b", "c"))
    assert plan.changes
    assert pairing_plan(call, 1, ["a", "b"], {"a", "w1"}, ["w1"], 3).let_in == ("w1",)  # a place was free
    # the TO's "drop the no-shows now" button drops them whatever the setting
    assert pairing_plan(call, 1, ["a", "b", "c"], {"a", "w1"}, ["w1"], 3, drop=True).drops == ("b", "c")


def test_nothing_changes_when_everyone_is_here_or_no_roll_call_is_for_this_round():
    assert not pairing_plan(DEFAULTS, 1, ["a", "b"], {"a", "b"}, [], 2).changes
    assert not pairing_plan(DEFAULTS, 1, ["a", "b"], {"a", "b"}, ["w1"], 2).changes  # full: w1 waits
    assert not pairing_plan(RollCall(), 1, ["a", "b"], set(), ["w1"], 5).changes  # check-in off
    assert not pairing_plan(RollCall(enabled=True, round=3), 2, ["a", "b"], set(), [], None).changes


def test_a_second_days_plan_drops_but_never_lets_anyone_in():
    call = RollCall(enabled=True, round=4)
    plan = pairing_plan(call, 4, ["a", "b"], {"a", "w1"}, ["w1"], 2)
    assert plan == PairingPlan(4, drops=("b",))


def test_the_plans_digest_changes_with_what_it_does_and_not_with_the_order():
    one = PairingPlan(1, drops=("a", "b"), let_in=("w1",))
    assert one.digest == PairingPlan(1, drops=("b", "a"), let_in=("w1",)).digest
    assert one.digest != PairingPlan(1, drops=("a",), let_in=("w1",)).digest
    assert one.digest != PairingPlan(1, left_in=("a", "b"), let_in=("w1",)).digest
    assert one.digest != PairingPlan(2, drops=("a", "b"), let_in=("w1",)).digest
    assert PairingPlan(1).digest != one.digest and not PairingPlan(1).changes


def test_promotions_skip_the_absent_waiting_players_while_a_roll_call_runs():
    assert promotions(3, 1, ["w1", "w2", "w3"], started=False, present={"w3", "w2"}) == ["w2", "w3"]
    assert promotions(3, 2, ["w1", "w2"], started=False, present=set()) == []


def test_what_a_waiting_players_phone_says_of_check_in():
    call = RollCall(enabled=True, round=1, deadline=NOW)
    before, after = NOW - timedelta(minutes=5), NOW + timedelta(minutes=5)
    assert waiting_phone(call, 0, before, checked_in=False) is Phone.OPEN
    assert waiting_phone(call, 0, before, checked_in=True) is Phone.DONE
    assert waiting_phone(call, 0, after, checked_in=False) is Phone.MISSED
    assert waiting_phone(RollCall(), 0, before, checked_in=False) is Phone.NONE
    assert waiting_phone(RollCall(enabled=True, round=2), 1, before, checked_in=False) is Phone.NONE

"""app/core/player_state.py: one state for every combination of facts, and words for each reader."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.core.player_state import (IN, OUT, DropReason, Facts, Reader, State, state_of, words)

facts = st.builds(
    Facts, dropped=st.booleans(), drop_reason=st.none() | st.sampled_from(list(DropReason)),
    waiting_position=st.none() | st.integers(1, 50), let_in=st.booleans(), disqualified=st.booleans(),
    played=st.booleans(), roll_call_running=st.booleans(), checked_in=st.booleans(),
    roll_call_closed=st.booleans())


def test_a_waiting_player_reads_their_position_never_dropped():
    s = state_of(Facts(dropped=True, waiting_position=2))  # the waitlist's drop is its mechanism
    assert s.state is State.WAITING and s.position == 2
    assert s.words(Reader.PLAYER) == "waitlist position 2"
    assert "dropped" not in " ".join(s.words(r) for r in Reader)
    assert not s.pairable and not s.ranked and not s.did_not_play
    assert s.may_check_in and not s.may_drop


def test_a_drop_says_who_made_it():
    by = {r: state_of(Facts(dropped=True, drop_reason=r, played=True)).state for r in DropReason}
    assert by == {DropReason.PLAYER: State.DROPPED, DropReason.ORGANIZER: State.DROPPED_BY_TO,
                  DropReason.NO_SHOW: State.NO_SHOW, DropReason.DISQUALIFIED: State.DROPPED_BY_TO}
    assert state_of(Facts(dropped=True)).state is State.DROPPED  # a drop nobody recorded the reason of


def test_a_disqualification_outranks_every_other_fact_and_ends_the_players_part():
    s = state_of(Facts(disqualified=True, waiting_position=1, roll_call_running=True, checked_in=True))
    assert s.state is State.DISQUALIFIED
    assert not (s.may_report or s.may_drop or s.may_call_judge or s.may_check_in or s.pairable or s.ranked)
    assert s.words(Reader.PLAYER) == "disqualified: see the head judge"
    assert s.words(Reader.PUBLIC) == "dropped"  # the penalty stays private to the player and the staff
    assert s.words(Reader.STAFF) == "disqualified"


def test_a_roll_call_names_who_is_here_who_is_not_yet_and_who_missed_it():
    call = dict(roll_call_running=True)
    assert state_of(Facts(**call, checked_in=True)).state is State.CHECKED_IN
    assert state_of(Facts(**call)).state is State.NOT_CHECKED_IN
    assert state_of(Facts(**call, roll_call_closed=True)).state is State.MISSED
    assert state_of(Facts(checked_in=True)).state is State.REGISTERED  # no roll call: nothing to say


def test_did_not_play_is_out_before_any_table():
    no_show = state_of(Facts(dropped=True, drop_reason=DropReason.NO_SHOW))
    assert no_show.did_not_play and not no_show.ranked
    assert no_show.words(Reader.STAFF) == "no-show (dropped), did not play"
    dropped_later = state_of(Facts(dropped=True, drop_reason=DropReason.PLAYER, played=True))
    assert not dropped_later.did_not_play and dropped_later.ranked  # their games count for their opponents
    not_yet = state_of(Facts())  # before round 1: in, just not seated yet
    assert not not_yet.did_not_play and not_yet.ranked


def test_staff_see_a_player_let_in_from_the_waitlist():
    s = state_of(Facts(let_in=True, roll_call_running=True))
    assert s.words(Reader.STAFF) == "not checked in (let in from the waitlist)"
    assert s.words(Reader.PLAYER) == "not checked in yet: check in on your page"


@given(facts)
def test_every_combination_has_one_state_and_words_for_every_reader(f):
    s = state_of(f)
    assert (s.state in IN) + (s.state in OUT) + (s.state is State.WAITING) == 1
    assert s.pairable == (s.state in IN) and s.out == (s.state in OUT)
    for reader in Reader:
        text = words(s, reader)
        assert isinstance(text, str)
        if reader is not Reader.STAFF:
            assert "disqualified" not in text or (s.disqualified and reader is Reader.PLAYER)
    if f.disqualified:
        assert s.state is State.DISQUALIFIED and not s.ranked
    elif f.waiting_position is not None:
        assert s.waiting and s.position == f.waiting_position and "dropped" not in words(s, Reader.PLAYER)
    elif f.dropped:
        assert s.out
    # a placing belongs to those who played or may still play; never to the waiting or the disqualified
    assert s.ranked == (not s.waiting and not s.disqualified and not (s.out and not f.played))
    assert s.may_drop <= s.pairable and s.may_report >= s.pairable


# ---------------------------------------------------------------- a waiting player's check-in (no-shows task)

def test_a_waiting_player_checked_in_at_the_running_roll_call_is_present_and_says_so():
    waiting = state_of(Facts(dropped=True, waiting_position=2, roll_call_running=True, checked_in=True))
    assert waiting.state is State.WAITING and waiting.present and waiting.checked_in
    assert not waiting.may_check_in and not waiting.pairable
    assert waiting.words(Reader.STAFF) == "waitlist position 2, checked in"
    assert waiting.words(Reader.PLAYER) == "waitlist position 2, checked in"
    assert waiting.words(Reader.PUBLIC) == "waiting"
    absent = state_of(Facts(dropped=True, waiting_position=1, roll_call_running=True))
    assert absent.may_check_in and not absent.present and absent.words(Reader.STAFF) == "waitlist position 1"
    # no roll call running: a check-in row left from before counts for nothing
    assert not state_of(Facts(dropped=True, waiting_position=1, checked_in=True)).present


def test_a_player_in_and_checked_in_is_present_and_one_not_checked_in_is_not():
    assert state_of(Facts(roll_call_running=True, checked_in=True)).present
    assert not state_of(Facts(roll_call_running=True)).present
    assert not state_of(Facts(checked_in=True)).present  # no roll call running


# ---------------------------------------------------------------- a disqualified player's link (DQ task)
def test_a_disqualified_players_link_does_nothing_and_only_they_and_the_staff_read_the_word():
    """A disqualification wins over any drop or place in line; its link reports, drops and calls a judge no more."""
    for facts in (Facts(disqualified=True), Facts(disqualified=True, dropped=True, drop_reason=DropReason.PLAYER),
                  Facts(disqualified=True, waiting_position=3)):
        ps = state_of(facts)
        assert ps.state is State.DISQUALIFIED and ps.disqualified and ps.out
        assert not (ps.may_report or ps.may_drop or ps.may_call_judge or ps.may_check_in)
        assert ps.words(Reader.PLAYER) == "disqualified: see the head judge"
        assert ps.words(Reader.PUBLIC) == "dropped"
        assert ps.words(Reader.STAFF) == "disqualified"


def test_the_players_own_words_for_waiting_and_out_states():
    assert state_of(Facts(dropped=True, waiting_position=2)).words(Reader.PLAYER) == "waitlist position 2"
    assert state_of(Facts(dropped=True, waiting_position=2)).words(Reader.STAFF) == "waitlist position 2"
    assert not state_of(Facts(dropped=True, waiting_position=2)).may_drop  # they leave the waitlist instead
    no_show = state_of(Facts(dropped=True, drop_reason=DropReason.NO_SHOW))
    assert no_show.words(Reader.PLAYER).startswith("dropped: you did not check in")
    assert state_of(Facts(dropped=True, drop_reason=DropReason.PLAYER)).words(Reader.PLAYER) == "you dropped"
    dropped = state_of(Facts(dropped=True, drop_reason=DropReason.PLAYER, played=True))
    assert dropped.may_report and not dropped.may_drop  # a dropped player still settles the round they played

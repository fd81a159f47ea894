"""A player's state and its words (app/core/player_state.py)."""
from __future__ import annotations

from app.core.player_state import Facts, Reader, State, state_of


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

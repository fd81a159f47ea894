"""The one rule of a player's state (app/core/player_state.py): what each state allows and the words each reader
sees."""
from __future__ import annotations

from app.core.player_state import DropReason, Facts, Reader, State, state_of


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

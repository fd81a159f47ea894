"""The field's facts (app/services/players/players.py): who is active, requested byes and the warning when they
leave an odd field, names that clash ignoring case and accents."""
from __future__ import annotations

from app.extensions import db
from app.services.players import players
from tests.cut_helpers import add_players, add_round


def test_the_bye_note_warns_only_when_requested_byes_leave_an_odd_field():
    assert players.bye_note(10, 2) is None
    note = players.bye_note(10, 1)
    assert note.startswith("1 requested bye with 10 active players leaves 9 to pair, an odd number")


def test_field_and_byes_count_active_players_only(make_user, make_tournament):
    t = make_tournament(make_user())
    a, b, c = add_players(t, ["Ana", "Bo", "Cy"])
    a.first_round_bye, c.dropped = True, True
    db.session.commit()
    assert players.field_and_byes(t) == (2, 1) and players.active_count(t) == 2
    # a new player asking for a bye too makes 3 active, 2 byes: 1 left to pair
    assert players.first_round_bye_note(t).startswith("2 requested byes with 3 active players leave 1")
    add_round(t, 1, [(a, None, None), (b, None, None)])
    assert players.rounds_started(t) and players.first_round_bye_note(t) is None


def test_a_name_is_held_whatever_its_case_and_accents(make_user, make_tournament):
    t = make_tournament(make_user())
    (ana,) = add_players(t, ["Ána Kovač"])
    assert players.holder_of(t, " ana  kovac") == ana
    assert players.holder_of(t, "ana kovac", except_id=ana.id) is None

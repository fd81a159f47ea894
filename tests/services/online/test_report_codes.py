"""The report address's codes (app/services/online/report_codes.py): a player's code proves who reports, typed
loosely (case, spaces, hyphens, O for 0); a wrong code names no one else."""
from __future__ import annotations

import pytest

from app.services.online import report_codes
from tests.cut_helpers import add_players


@pytest.fixture
def event(make_user, make_tournament):
    t = make_tournament(make_user())
    return t, add_players(t, ["Ana Kovač", "Bo"])


def test_a_player_proves_themselves_with_their_code_however_typed(event):
    t, (ana, _) = event
    shown = report_codes.shown(ana)
    assert shown[3] == "-" and shown.replace("-", "") == report_codes.code(ana)
    typed = " " + shown.lower().replace("0", "o").replace("1", "l") + " "
    assert report_codes.prove(t, "ana kovac", typed) == ana


def test_a_wrong_code_or_an_unknown_name_is_refused(event):
    t, (ana, bo) = event
    with pytest.raises(report_codes.WrongCode):
        report_codes.prove(t, "Ana Kovač", report_codes.code(bo))
    with pytest.raises(report_codes.NoSuchPlayer):
        report_codes.prove(t, "Cy", report_codes.code(ana))
    assert report_codes.code(ana) != report_codes.code(bo)


def test_the_names_suggested_leave_out_dropped_players(event):
    t, (ana, bo) = event
    bo.dropped = True
    assert report_codes.names(t) == ["Ana Kovač"]

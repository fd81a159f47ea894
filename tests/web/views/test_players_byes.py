"""Requested round-1 byes: the warning when they leave an odd field (so someone gets a bye unasked), on the
player forms, after saving and when pairing round 1; and no round-1 bye once round 1 is paired."""
from __future__ import annotations

import pytest

from app.extensions import db
from app.models import Player
from app.core.pairing.byes import unrequested_first_round_byes
from app.services.players.players import bye_note

from tests.web.views.test_rounds import matches, pair, setup_event


@pytest.mark.parametrize("active, requested, extra", [
    (8, 0, 0), (7, 0, 0),  # no request: an odd field's bye is the usual one
    (8, 1, 1), (8, 2, 0), (9, 1, 0), (9, 2, 1), (3, 3, 0), (4, 3, 1), (2, 1, 1)])
def test_unrequested_first_round_byes(active, requested, extra):
    assert unrequested_first_round_byes(active, requested) == extra
    assert (bye_note(active, requested) is None) == (extra == 0)


def test_bye_note_wording():
    assert bye_note(12, 1).startswith("1 requested bye with 12 active players leaves 11 to pair, an odd number")
    assert bye_note(12, 3).startswith("3 requested byes with 12 active players leave 9 to pair")


def test_edit_page_warns_before_ticking(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=8)
    page = client.get(f"/tournaments/{t.id}/players/{players[0].id}/edit").get_data(as_text=True)
    assert 'name="first_round_bye"' in page
    assert "If you tick “Bye in round 1”: 1 requested bye with 8 active players leaves 7 to pair" in page

    response = client.post(f"/tournaments/{t.id}/players/{players[0].id}/edit",
                           data={"name": players[0].name, "first_round_bye": "y"}, follow_redirects=True)
    page = response.get_data(as_text=True)
    assert "Saved" in page and "1 requested bye with 8 active players leaves 7 to pair" in page
    # the same player's page now states the field as it is
    page = client.get(f"/tournaments/{t.id}/players/{players[0].id}/edit").get_data(as_text=True)
    assert "If you tick" not in page and "1 requested bye with 8 active players" in page
    # a second requested bye evens the field: no warning for that one
    page = client.get(f"/tournaments/{t.id}/players/{players[1].id}/edit").get_data(as_text=True)
    assert "bye-note" not in page


def test_add_form_warns_for_the_new_player(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=7)
    page = client.get(f"/tournaments/{t.id}/players").get_data(as_text=True)
    assert "1 requested bye with 8 active players leaves 7 to pair" in page  # 7 + the one being added
    client2, t2, _ = setup_event(make_user, make_tournament, login, n=8, email="other@example.com")
    assert "bye-note" not in client2.get(f"/tournaments/{t2.id}/players").get_data(as_text=True)


def test_pairing_round_one_says_who_got_the_unasked_bye(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=8)
    players[0].first_round_bye = True
    db.session.commit()
    page = client.get(pair(client, t, 1).headers["Location"]).get_data(as_text=True)
    byes = [seats[0].player_id for m, seats in matches(t, 1) if m.is_bye]
    assert len(byes) == 2 and players[0].id in byes
    unasked = db.session.get(Player, next(p for p in byes if p != players[0].id)).name
    assert f"{unasked} has a bye nobody asked for: the 1 requested bye left an odd number of players" in page


def test_late_entry_form_hides_the_round_one_bye(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=8)
    assert 'name="first_round_bye"' in client.get(f"/tournaments/{t.id}/players").get_data(as_text=True)
    pair(client, t, 1)
    page = client.get(f"/tournaments/{t.id}/players").get_data(as_text=True)
    assert 'name="first_round_bye"' not in page and "bye-note" not in page
    assert 'name="first_round_bye"' not in \
        client.get(f"/tournaments/{t.id}/players/{players[0].id}/edit").get_data(as_text=True)

    # ...and the server refuses it from an old tab
    response = client.post(f"/tournaments/{t.id}/players", data={"name": "Late Larry", "first_round_bye": "y"})
    assert response.status_code == 422 and "a bye in round 1 can no longer be given" in response.get_data(as_text=True)
    assert db.session.query(Player).filter_by(tournament_id=t.id, name="Late Larry").count() == 0
    response = client.post(f"/tournaments/{t.id}/players/{players[1].id}/edit",
                           data={"name": players[1].name, "first_round_bye": "y"})
    assert response.status_code == 422
    db.session.expire_all()
    assert db.session.get(Player, players[1].id).first_round_bye is False

    # a late entry without the bye goes in; an edit without the field keeps a recorded request
    assert client.post(f"/tournaments/{t.id}/players", data={"name": "Late Larry"}).status_code == 302
    players[2].first_round_bye = True
    db.session.commit()
    assert client.post(f"/tournaments/{t.id}/players/{players[2].id}/edit",
                       data={"name": "Renamed"}).status_code == 302
    db.session.expire_all()
    renamed = db.session.get(Player, players[2].id)
    assert renamed.name == "Renamed" and renamed.first_round_bye is True
    assert "Had a requested bye in round 1" in \
        client.get(f"/tournaments/{t.id}/players/{players[2].id}/edit").get_data(as_text=True)

"""A waitlisted player in public: in no count or list (the API, standings, pairings, the NRTM file, public
decklists) until let in; the API says the line's length apart. And leaving the line from the phone."""
from __future__ import annotations

import sqlalchemy as sa

from app.extensions import db
from app.models import Player, WaitlistEntry
from app.services import decklists
from app.services.players import player_links
from app.services.swiss import rounds as rounds_service


def _players(t) -> dict[str, Player]:
    db.session.expire_all()
    return {p.name: p for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id))}


def _full_event(app, client, login, make_user, make_tournament, names=("Ana", "Ben", "Cy", "Dee")):
    t = make_tournament(make_user(), registration_open=True, registration_cap=2)
    login()
    assert client.post(f"/tournaments/{t.id}/check-in/settings",
                       data={"waitlist": "y", "no_shows": "drop"}).status_code == 303
    for name in names:
        assert app.test_client().post(f"/t/{t.slug}/register", data={"name": name}).status_code == 303
    return t


def test_waitlisted_players_are_in_no_public_count_or_list(app, client, login, make_user, make_tournament):
    t = _full_event(app, client, login, make_user, make_tournament)
    client.post(f"/tournaments/{t.id}/players/{_players(t)['Ben'].id}/drop")  # dropped after the cap: Cy in
    info = app.test_client().get(f"/api/tournaments/{t.slug}").get_json()
    assert (info["players"], info["waitlist"]) == (3, 1)  # Ana, Ben (dropped, still an entry), Cy; Dee waits
    rounds_service.pair_next_round(t, 1)
    rounds_service.publish_round(t, 1)
    public = app.test_client()
    for url in (f"/api/tournaments/{t.slug}/standings", f"/api/tournaments/{t.slug}/rounds/1", f"/t/{t.slug}.json",
                f"/t/{t.slug}/standings", f"/t/{t.slug}/pairings"):
        body = public.get(url).get_data(as_text=True)
        assert "Cy" in body and "Dee" not in body, url
    t.decklists, t.decklist_visibility = True, "after"
    db.session.commit()
    p = _players(t)
    # Ben dropped before round 1 and never played: no public list of his either
    assert set(decklists.public_players(t, event_over=True)) == {p["Ana"].id, p["Cy"].id}


def _leave(phone, t, player):
    return phone.post(f"/t/{t.slug}/p/{player_links.token(player)}/waitlist/leave")


def test_a_waitlisted_player_leaves_the_line_from_their_phone(app, client, login, make_user, make_tournament):
    t = _full_event(app, client, login, make_user, make_tournament, names=("Ana", "Ben", "Cy", "Dee", "Eve"))
    p = _players(t)
    phone = app.test_client()
    cy_link = f"/t/{t.slug}/p/{player_links.token(p['Cy'])}"
    page = phone.get(cy_link).get_data(as_text=True)
    assert "Waitlist position 1" in page and "/waitlist/leave" in page
    assert "<strong>3</strong> on the waitlist" in client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    r = _leave(phone, t, p["Cy"])
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{t.slug}")
    assert "you have left the waitlist" in phone.get(r.headers["Location"]).get_data(as_text=True)
    # gone, with their place in line: those behind move up, nobody is let in for it
    p = _players(t)
    assert sorted(p) == ["Ana", "Ben", "Dee", "Eve"] and p["Dee"].dropped and p["Eve"].dropped
    assert phone.get(cy_link).status_code == 404
    assert "Waitlist position 1" in phone.get(f"/t/{t.slug}/p/{player_links.token(p['Dee'])}").get_data(as_text=True)
    assert "Waitlist position 2" in phone.get(f"/t/{t.slug}/p/{player_links.token(p['Eve'])}").get_data(as_text=True)
    # the TO sees the shorter line: the dashboard, the players page, the roll call's poll, the API
    assert "<strong>2</strong> on the waitlist" in client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert ">Cy<" not in client.get(f"/tournaments/{t.id}/players").get_data(as_text=True)
    assert app.test_client().get(f"/api/tournaments/{t.slug}").get_json()["waitlist"] == 2
    # the next freed place goes to Dee
    client.post(f"/tournaments/{t.id}/players/{p['Ben'].id}/drop")
    assert not _players(t)["Dee"].dropped


def test_leaving_is_refused_without_the_form_or_once_let_in(app, client, login, make_user, make_tournament):
    t = _full_event(app, client, login, make_user, make_tournament, names=("Ana", "Ben", "Cy"))
    cy = _players(t)["Cy"]
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        assert _leave(app.test_client(), t, cy).status_code == 400  # no CSRF token: refused, nothing changed
    finally:
        app.config["WTF_CSRF_ENABLED"] = False
    assert "Cy" in _players(t)
    client.post(f"/tournaments/{t.id}/check-in/waitlist/{cy.id}/admit")  # the TO lets Cy in first
    phone = app.test_client()
    r = _leave(phone, t, cy)
    assert r.status_code == 303 and "a place was given to you" in phone.get(r.headers["Location"]).get_data(
        as_text=True)
    p = _players(t)
    assert "Cy" in p and not p["Cy"].dropped
    assert db.session.scalar(sa.select(WaitlistEntry.promoted_at).filter_by(player_id=cy.id)) is not None

"""A waitlisted player in public: in no count or list (the API, standings, pairings, the NRTM file, public
decklists) until let in; the API says the line's length apart. And leaving the line from the phone."""
from __future__ import annotations

import sqlalchemy as sa

from app.extensions import db
from app.models import Player, WaitlistEntry
from app.services import decklists, player_links
from app.services import rounds as rounds_service


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
    assert set(decklists.public_players(t, event_over=True)) == {p["Ana"].id, p["Ben"].id, p["Cy"].id}

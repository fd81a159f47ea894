"""Staff: the owner adds other organizers' accounts to one event as organizer or scorekeeper."""
from __future__ import annotations

import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Player, Round, Seat, Staff


def _event(make_user, make_tournament):
    owner = make_user("owner@example.com", "owner password")
    t = make_tournament(owner, name="Store Champs")
    a, b = Player(tournament_id=t.id, name="Ann"), Player(tournament_id=t.id, name="Ben")
    db.session.add_all([a, b])
    rnd = Round(tournament_id=t.id, number=1, published=True)
    db.session.add(rnd)
    db.session.flush()
    game = Match(tournament_id=t.id, round_id=rnd.id, table=1)
    db.session.add(game)
    db.session.flush()
    db.session.add_all([Seat(tournament_id=t.id, round_id=rnd.id, match_id=game.id, player_id=a.id, position=1,
                             side="corp"),
                        Seat(tournament_id=t.id, round_id=rnd.id, match_id=game.id, player_id=b.id, position=2,
                             side="runner")])
    db.session.commit()
    return t, game


def _member(app, make_user, login, t, name, role):
    """`name`@example.com on `t`'s staff as `role`, and a client signed in as them."""
    user = make_user(f"{name}@example.com", f"{name} password")
    db.session.add(Staff(tournament_id=t.id, user_id=user.id, role=role))
    db.session.commit()
    return user, login(f"{name}@example.com", f"{name} password", c=app.test_client())


def _staff(t):
    return {s.user.email: s.role for s in db.session.scalars(sa.select(Staff).filter_by(tournament_id=t.id))}


def test_owner_adds_changes_and_removes_staff(app, make_user, make_tournament, login):
    t, _ = _event(make_user, make_tournament)
    make_user("sam@example.com", "sam password")
    owner = login("owner@example.com", "owner password", c=app.test_client())
    r = owner.post(f"/tournaments/{t.id}/staff", data={"email": " Sam@Example.com ", "role": "scorekeeper"})
    assert r.status_code == 303
    assert _staff(t) == {"sam@example.com": "scorekeeper"}
    page = owner.get(f"/tournaments/{t.id}/staff").get_data(as_text=True)
    assert "sam@example.com" in page and "scorekeeper" in page
    owner.post(f"/tournaments/{t.id}/staff", data={"email": "sam@example.com", "role": "organizer"})
    assert _staff(t) == {"sam@example.com": "organizer"}
    member = db.session.scalar(sa.select(Staff).filter_by(tournament_id=t.id))
    assert owner.post(f"/tournaments/{t.id}/staff/{member.id}/delete").status_code == 303
    assert _staff(t) == {}


def test_unknown_or_owner_email_is_a_form_error(app, make_user, make_tournament, login):
    t, _ = _event(make_user, make_tournament)
    owner = login("owner@example.com", "owner password", c=app.test_client())
    r = owner.post(f"/tournaments/{t.id}/staff", data={"email": "nobody@example.com", "role": "organizer"})
    assert r.status_code == 422
    assert "No account uses nobody@example.com" in r.get_data(as_text=True)
    r = owner.post(f"/tournaments/{t.id}/staff", data={"email": "owner@example.com", "role": "organizer"})
    assert r.status_code == 422 and "owns this event already" in r.get_data(as_text=True)
    r = owner.post(f"/tournaments/{t.id}/staff", data={"email": "sam@example.com", "role": "king"})
    assert r.status_code == 422
    assert _staff(t) == {}


def test_staff_see_the_event_in_my_tournaments_with_their_role(app, make_user, make_tournament, login):
    t, _ = _event(make_user, make_tournament)
    other = make_tournament(make_user("zoe@example.com"), name="Zoe's Cup")
    _, sam = _member(app, make_user, login, t, "sam", "scorekeeper")
    page = sam.get("/tournaments").get_data(as_text=True)
    assert "Store Champs" in page and "scorekeeper" in page and other.name not in page


def test_scorekeeper_scores_and_nothing_more(app, make_user, make_tournament, login):
    t, game = _event(make_user, make_tournament)
    _, c = _member(app, make_user, login, t, "sam", "scorekeeper")
    page = c.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert "Corp win" in page and "Publish" not in page and "Undo round" not in page and "Pair round" not in page
    dash = c.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert "scorekeeper" in dash and "Settings" not in dash and "Staff" not in dash
    assert c.post(f"/tournaments/{t.id}/matches/{game.id}/result", data={"result": "runner"}).status_code == 303
    assert db.session.get(Match, game.id).result == "runner"
    assert c.post(f"/tournaments/{t.id}/players", data={"name": "Cat"}).status_code == 403
    assert c.post(f"/tournaments/{t.id}/rounds/1/undo").status_code == 403
    assert c.get(f"/tournaments/{t.id}/players").status_code == 403
    assert db.session.get(Round, 1) is not None and len(t.players) == 2


def test_organizer_runs_the_event_but_cannot_delete_it_or_manage_staff(app, make_user, make_tournament, login):
    t, _ = _event(make_user, make_tournament)
    make_user("sam@example.com", "sam password")
    _, c = _member(app, make_user, login, t, "olga", "organizer")
    assert c.post(f"/tournaments/{t.id}/players", data={"name": "Cat"}).status_code == 302
    assert "Cat" in [p.name for p in t.players]
    assert c.get(f"/tournaments/{t.id}/staff").status_code == 403
    assert c.post(f"/tournaments/{t.id}/staff", data={"email": "sam@example.com",
                                                      "role": "organizer"}).status_code == 403
    assert c.post(f"/tournaments/{t.id}/delete", data={"confirm": "y"}).status_code == 403
    assert _staff(t) == {"olga@example.com": "organizer"}
    assert "Delete tournament" not in c.get(f"/tournaments/{t.id}/edit").get_data(as_text=True)


def test_removal_takes_effect_on_the_next_request(app, make_user, make_tournament, login):
    t, game = _event(make_user, make_tournament)
    sam, scorer = _member(app, make_user, login, t, "sam", "scorekeeper")
    owner = login("owner@example.com", "owner password", c=app.test_client())
    assert scorer.get(f"/tournaments/{t.id}/rounds/1").status_code == 200
    member = db.session.scalar(sa.select(Staff).filter_by(user_id=sam.id))
    assert owner.post(f"/tournaments/{t.id}/staff/{member.id}/delete").status_code == 303
    assert scorer.get(f"/tournaments/{t.id}/rounds/1").status_code == 403
    assert scorer.post(f"/tournaments/{t.id}/matches/{game.id}/result", data={"result": "corp"}).status_code == 403
    assert db.session.get(Match, game.id).result is None
    assert "Store Champs" not in scorer.get("/tournaments").get_data(as_text=True)

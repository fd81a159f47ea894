"""The read-only JSON API: public data only, CORS open, ETags so polling costs little."""
from __future__ import annotations

import json

import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Tournament
from app.services import cut as cut_service
from cut_helpers import add_players, add_round, fixture_event


def _urls(slug):
    base = f"/api/tournaments/{slug}"
    return [base, f"{base}/rounds", f"{base}/rounds/1", f"{base}/standings", f"{base}/bracket"]


def test_every_endpoint_answers_json_without_private_data(client, make_user, make_tournament):
    t = fixture_event(make_user("secret.owner@example.com"), make_tournament)
    for url in _urls(t.slug):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.mimetype == "application/json"
        assert response.headers["Access-Control-Allow-Origin"] == "*"
        body = response.get_data(as_text=True)
        assert "@" not in body and "secret.owner" not in body, url
        assert t.seed not in body  # the pairing seed stays private too


def test_tournament_rounds_and_pairings(client, make_user, make_tournament):
    t = fixture_event(make_user(), make_tournament)
    info = client.get(f"/api/tournaments/{t.slug}").get_json()
    assert (info["name"], info["date"], info["format"], info["players"], info["cut"]) == (
        "Fixture Open", "2026-05-30", "single", 5, "double")
    assert info["published_rounds"] == [1, 2, 3]
    assert info["links"]["standings"].endswith(f"/api/tournaments/{t.slug}/standings")
    rounds = client.get(f"/api/tournaments/{t.slug}/rounds").get_json()["rounds"]
    assert [(r["number"], r["tables"], r["complete"]) for r in rounds] == [(1, 3, True), (2, 3, True), (3, 3, True)]
    pairings = client.get(f"/api/tournaments/{t.slug}/rounds/1").get_json()["pairings"]
    first = pairings[0]
    assert [(s["name"], s["side"], s["points"]) for s in first["seats"]] == [("Alice", "corp", 3), ("Bob", "runner", 0)]
    assert first["result"] == "corp"
    assert pairings[2]["bye"] and [s["name"] for s in pairings[2]["seats"]] == ["Erin"]


def test_standings_and_bracket(client, make_user, make_tournament):
    t = fixture_event(make_user(), make_tournament)
    data = client.get(f"/api/tournaments/{t.slug}/standings").get_json()
    assert data["tiebreakers"] == ["SoS", "ESoS"]
    rows = data["standings"]
    assert [(r["rank"], r["name"], r["points"]) for r in rows[:2]] == [(1, "Dave", 7), (2, "Carol", 6)]
    assert rows[0]["tiebreakers"]["SoS"] == round(14 / 9, 6) and rows[1]["side_label"] == "Corp +2"
    bracket = client.get(f"/api/tournaments/{t.slug}/bracket").get_json()
    assert (bracket["kind"], bracket["size"], bracket["complete"]) == ("double", 4, True)
    assert [g["game"] for g in bracket["games"]] == [1, 2, 3, 4, 5, 6, 7]
    reset = bracket["games"][-1]
    assert reset["section"] == "reset" and reset["winner"] == bracket["champion"]
    assert [p["side"] for p in reset["players"]] == ["corp", "runner"]
    assert [r["name"] for r in bracket["standings"]] == ["Dave", "Carol", "Bob", "Erin", "Alice"]


def test_etag_and_conditional_get(client, make_user, make_tournament):
    t = make_tournament(make_user())
    a, b = add_players(t, ["Ann", "Ben"])
    add_round(t, 1, [(a, b, None)])
    url = f"/api/tournaments/{t.slug}/standings"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert etag and "max-age" in first.headers["Cache-Control"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["Access-Control-Allow-Origin"] == "*"
    # a result comes in: the ETag changes and the client gets the new standings
    match = db.session.scalars(sa.select(Match)).one()
    match.result = "corp"
    match.seats[0].points, match.seats[1].points = 3, 0
    db.session.commit()
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert changed.get_json()["standings"][0]["points"] == 3


def test_unpublished_rounds_and_unknown_events_are_not_found(client, make_user, make_tournament):
    t = make_tournament(make_user())
    a, b = add_players(t, ["Ann", "Ben"])
    add_round(t, 1, [(a, b, "corp")])
    add_round(t, 2, [(b, a, None)], published=False)
    assert [r["number"] for r in client.get(f"/api/tournaments/{t.slug}/rounds").get_json()["rounds"]] == [1]
    hidden = client.get(f"/api/tournaments/{t.slug}/rounds/2")
    assert hidden.status_code == 404 and "error" in hidden.get_json()
    assert hidden.headers["Access-Control-Allow-Origin"] == "*"
    assert client.get("/api/tournaments/nosuchslug").status_code == 404
    assert client.get(f"/api/tournaments/{t.slug}/rounds/abc").status_code == 404
    assert client.get(f"/api/tournaments/{t.slug}/bracket").get_json() == {
        "kind": None, "size": 0, "games": [], "standings": []}


def test_api_is_read_only(client, make_user, make_tournament):
    t = make_tournament(make_user())
    for url in _urls(t.slug):
        assert client.post(url).status_code == 405
    assert db.session.scalar(sa.select(sa.func.count(Tournament.id))) == 1


def test_bracket_shows_sides_of_games_to_play(client, make_user, make_tournament):
    t = make_tournament(make_user())
    players = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    add_round(t, 1, [(players[0], players[1], "corp"), (players[2], players[3], "corp")])
    cut_service.create(t, 4, "double")
    seeds = cut_service.load(t).bracket.seeds
    cut_service.set_corp(t, 1, seeds[3])
    games = json.loads(client.get(f"/api/tournaments/{t.slug}/bracket").data)["games"]
    assert [p["side"] for p in games[0]["players"]] == ["runner", "corp"]  # seed 1 chose to run
    assert [p["side"] for p in games[1]["players"]] == [None, None]  # seed 2 has not chosen yet
    assert games[2]["players"][0]["from"] == "Winner of game 1" and games[2]["players"][0]["player"] is None


def test_standings_count_published_rounds_only(client, make_user, make_tournament):
    t = make_tournament(make_user())
    a, b = add_players(t, ["Ann", "Ben"])
    add_round(t, 1, [(a, b, "corp")])
    add_round(t, 2, [(b, a, "corp")], published=False)  # reported before publishing: not public yet
    points = {s["name"]: s["points"] for s in client.get(f"/api/tournaments/{t.slug}/standings").get_json()["standings"]}
    assert points == {"Ann": t.fmt.scoring.win, "Ben": t.fmt.scoring.loss}
    t.rounds[1].published = True
    db.session.commit()
    points = {s["name"]: s["points"] for s in client.get(f"/api/tournaments/{t.slug}/standings").get_json()["standings"]}
    assert points == {"Ann": t.fmt.scoring.win, "Ben": t.fmt.scoring.win}

"""Streaming through its routes: the stream's address (validated, shown on the public home), the coverage opt-out
(registration and the TO's form), the featured table (refused with an opted-out player, a bye, a missing table;
shown on the round page and the projector), the overlay feed (ETag, 304, CORS, identities, clock), the backup."""
from __future__ import annotations

import json

import sqlalchemy as sa

from app.extensions import db
from app.models import Player, Round
from app.services.event_files import backup as backup_service
from app.services.event_files import restore
from tests.web.views.test_rounds import matches, pair, report_all, setup_event
from tests.web.views.test_timer import flashed


def _event(make_user, make_tournament, login, n=6):
    to, t, players = setup_event(make_user, make_tournament, login, n=n, name="Stream Open")
    for p in players:
        p.corp_identity, p.runner_identity = "Haas-Bioroid: Precision Design", "Hoshiko Shiro: Untold Protagonist"
    players[0].pronouns = "she/her"
    db.session.commit()
    return to, t, players


def _featured(t, number=1):
    db.session.expire_all()
    return db.session.scalar(sa.select(Round.featured_table).filter_by(tournament_id=t.id, number=number))


def test_stream_url_is_validated_and_shown(make_user, make_tournament, login, client):
    to, t, _ = _event(make_user, make_tournament, login)
    for bad in ("javascript:alert(1)", "twitch.tv/x", "https://", "ftp://example.com/x",
                "https://user:pw@example.com/", "https://exa mple.com/"):
        r = to.post(f"/tournaments/{t.id}/stream", data={"stream_url": bad})
        assert r.status_code == 303
        db.session.expire_all()
        assert t.stream_url == "", bad
        assert any("web address" in m for m in flashed(to)), bad
    r = to.post(f"/tournaments/{t.id}/stream", data={"stream_url": "https://twitch.tv/nisei"})
    assert r.status_code == 303
    db.session.expire_all()
    assert t.stream_url == "https://twitch.tv/nisei"
    home = to.get(f"/t/{t.slug}").get_data(as_text=True)
    assert 'id="stream-link"' in home and 'href="https://twitch.tv/nisei"' in home
    dashboard = to.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert 'id="streaming"' in dashboard and f"/t/{t.slug}/stream.json" in dashboard
    to.post(f"/tournaments/{t.id}/stream", data={"stream_url": ""})
    db.session.expire_all()
    assert t.stream_url == "" and 'id="stream-link"' not in to.get(f"/t/{t.slug}").get_data(as_text=True)


def test_opt_out_at_registration_and_on_the_players_form(make_user, make_tournament, login, client):
    to, t, players = _event(make_user, make_tournament, login)
    t.registration_open = True
    db.session.commit()
    assert "Don&#39;t show me on stream" in client.get(f"/t/{t.slug}").get_data(as_text=True) \
        or "Don't show me on stream" in client.get(f"/t/{t.slug}").get_data(as_text=True)
    r = client.post(f"/t/{t.slug}/register", data={"name": "Shy Sam", "no_coverage": "y"})
    assert r.status_code == 303
    sam = db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id, name="Shy Sam")).one()
    assert sam.no_coverage
    r = to.post(f"/tournaments/{t.id}/players/{players[1].id}/edit",
                data={"name": players[1].name, "no_coverage": "y"})
    assert r.status_code in (302, 303)
    db.session.expire_all()
    assert db.session.get(Player, players[1].id).no_coverage
    page = to.get(f"/tournaments/{t.id}/players").get_data(as_text=True)
    assert page.count(">no stream</span>") == 2
    dashboard = to.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert "Opted out of coverage (never featured):" in dashboard and "Shy Sam" in dashboard


def test_featuring_a_table(make_user, make_tournament, login, client):
    to, t, players = _event(make_user, make_tournament, login, n=5)  # odd: one bye
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    tables = matches(t, 1)
    game = next((m, seats) for m, seats in tables if not m.is_bye)
    bye = next(m for m, _ in tables if m.is_bye)
    other = next((m, seats) for m, seats in tables if not m.is_bye and m.id != game[0].id)
    shy = other[1][0].player
    shy.no_coverage = True
    db.session.commit()

    url = f"/tournaments/{t.id}/rounds/1/feature"
    r = to.post(url, data={"table": str(other[0].table)})
    assert r.status_code == 303 and _featured(t) is None
    assert any(f"{shy.name} opted out of coverage" in m for m in flashed(to))
    to.post(url, data={"table": str(bye.table)})
    assert _featured(t) is None and any("bye" in m for m in flashed(to))
    to.post(url, data={"table": "99"})
    assert _featured(t) is None and any("no table 99" in m for m in flashed(to))
    to.post(url, data={"table": "-3"})
    assert _featured(t) is None
    assert to.post(f"/tournaments/{t.id}/rounds/7/feature", data={"table": "1"}).status_code == 303
    assert any("no round 7" in m for m in flashed(to))

    r = to.post(url, data={"table": str(game[0].table)})
    assert r.status_code == 303 and _featured(t) == game[0].table
    names = [s.player.name for s in game[1]]
    page = to.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert f"Table {game[0].table}: {names[0]} vs {names[1]}" in page
    projector = client.get(f"/t/{t.slug}/projector").get_data(as_text=True)
    assert "On stream:</strong> table %d" % game[0].table in projector

    # a player at the featured table who opts out afterwards takes it off the stream at once
    game[1][0].player.no_coverage = True
    db.session.commit()
    assert "On stream:" not in client.get(f"/t/{t.slug}/projector").get_data(as_text=True)
    assert json.loads(client.get(f"/t/{t.slug}/stream.json").data)["table"] is None
    game[1][0].player.no_coverage = False
    db.session.commit()

    # through the TO's form, the opt-out also clears the stored choice
    assert _featured(t) == game[0].table
    player = game[1][1].player
    r = to.post(f"/tournaments/{t.id}/players/{player.id}/edit", data={"name": player.name, "no_coverage": "y"})
    assert r.status_code in (302, 303) and _featured(t) is None
    player.no_coverage = False
    db.session.commit()
    to.post(url, data={"table": str(game[0].table)})
    assert _featured(t) == game[0].table
    to.post(url, data={"table": ""})
    assert _featured(t) is None


def test_the_feed(make_user, make_tournament, login, client):
    to, t, players = _event(make_user, make_tournament, login, n=4)
    empty = client.get(f"/t/{t.slug}/stream.json")
    assert empty.status_code == 200 and empty.headers["Access-Control-Allow-Origin"] == "*"
    assert json.loads(empty.data) == {"event": "Stream Open", "slug": t.slug, "stream_url": None, "round": None,
                                      "clock": None, "table": None, "players": []}
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    report_all(to, t, 1)
    pair(to, t, 2)
    to.post(f"/tournaments/{t.id}/rounds/2/publish")
    m, seats = matches(t, 2)[0]
    to.post(f"/tournaments/{t.id}/rounds/2/feature", data={"table": str(m.table)})
    to.post(f"/tournaments/{t.id}/rounds/2/timer/start", data={"minutes": "65"})
    r = client.get(f"/t/{t.slug}/stream.json")
    feed = json.loads(r.data)
    assert feed["round"] == 2 and feed["table"] == m.table
    assert feed["clock"]["state"] == "running" and feed["clock"]["ends_at"].endswith("Z")
    assert [p["name"] for p in feed["players"]] == [s.player.name for s in seats]
    assert [p["side"] for p in feed["players"]] == ["corp", "runner"]
    first = feed["players"][0]
    assert first["corp"] == {"name": "Haas-Bioroid: Precision Design", "faction": "haas_bioroid"}
    assert first["runner"]["name"] == "Hoshiko Shiro: Untold Protagonist"
    assert sorted(first["record"]) == ["losses", "points", "rank", "ties", "wins"]
    assert sum(p["record"]["wins"] for p in feed["players"]) == 1  # round 1: one won, one lost
    expected = {s.player.name: s.player.pronouns or None for s in seats}
    assert {p["name"]: p["pronouns"] for p in feed["players"]} == expected
    seats[1].player.pronouns = "they/them"
    db.session.commit()
    assert json.loads(client.get(f"/t/{t.slug}/stream.json").data)["players"][1]["pronouns"] == "they/them"

    etag = client.get(f"/t/{t.slug}/stream.json").headers["ETag"]
    again = client.get(f"/t/{t.slug}/stream.json", headers={"If-None-Match": etag})
    assert again.status_code == 304
    to.post(f"/tournaments/{t.id}/rounds/2/timer/pause")
    assert client.get(f"/t/{t.slug}/stream.json", headers={"If-None-Match": etag}).status_code == 200
    assert client.get("/t/nope/stream.json").status_code == 404
    preflight = client.options(f"/t/{t.slug}/stream.json", headers={
        "Origin": "https://overlay.example", "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match"})
    assert preflight.status_code == 200 and preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert preflight.headers["Access-Control-Allow-Headers"] == "If-None-Match"
    assert "private" in client.get(f"/t/{t.slug}/entry.json").headers["Cache-Control"]
    assert "Access-Control-Allow-Origin" not in client.get(f"/t/{t.slug}/entry.json").headers


def test_streaming_travels_in_the_backup(make_user, make_tournament, login):
    to, t, players = _event(make_user, make_tournament, login, n=4)
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    m, seats = matches(t, 1)[0]
    to.post(f"/tournaments/{t.id}/stream", data={"stream_url": "https://twitch.tv/nisei"})
    to.post(f"/tournaments/{t.id}/rounds/1/feature", data={"table": str(m.table)})
    quiet = next(p for p in players if p.id not in {s.player_id for s in seats})
    quiet.no_coverage = True
    db.session.commit()
    doc = backup_service.backup(t)
    assert doc["streaming"]["stream_url"] == "https://twitch.tv/nisei"
    assert len(doc["streaming"]["no_coverage"]) == 1 and doc["streaming"]["featured"] == [
        {"round": 1, "table": m.table}]
    copy = restore.restore(json.dumps(doc).encode(), t.owner)
    assert copy.stream_url == "https://twitch.tv/nisei"
    assert [p.name for p in copy.players if p.no_coverage] == [quiet.name]
    assert _featured(copy) == m.table

    old = {k: v for k, v in doc.items() if k != "streaming"}  # a backup from before streaming
    plain = restore.restore(json.dumps(old).encode(), t.owner)
    assert plain.stream_url == "" and not any(p.no_coverage for p in plain.players) and _featured(plain) is None

    for bad in ({"stream_url": "javascript:x"}, {"no_coverage": [99]}, {"featured": [{"round": 1, "table": 99}]},
                {"no_coverage": [doc["players"][0]["id"]],
                 "featured": [{"round": 1, "table": next(
                     mt["table"] for mt in doc["rounds"][0]["matches"]
                     if doc["players"][0]["id"] in [s["player"] for s in mt["seats"]])}]},
                {"featured": "x"}):
        try:
            restore.restore(json.dumps({**doc, "streaming": bad}).encode(), t.owner)
        except restore.FileError:
            pass
        else:
            raise AssertionError(f"restored {bad}")


def test_a_player_opts_out_after_round_one_from_their_entry_page_and_is_never_featured(make_user, make_tournament,
                                                                                      login, client):
    """Round 1 paired and its table featured: the player opts out from their entry page (POST, CSRF), the table
    comes off the stream and cannot be featured again; they opt back in and it can. A bad value changes nothing."""
    from app.services.players import player_links
    to, t, players = _event(make_user, make_tournament, login, n=4)
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    game = matches(t, 1)
    first = next(g for g in game if not g[0].is_bye)
    url = f"/tournaments/{t.id}/rounds/1/feature"
    assert to.post(url, data={"table": str(first[0].table)}).status_code == 303 and _featured(t) == first[0].table
    shy = first[1][0].player
    token = player_links.token(shy)
    phone = client.application.test_client()
    phone.get(f"/t/{t.slug}/p/{token}")  # this phone is the player
    entry = phone.get(f"/t/{t.slug}/registration").get_data(as_text=True)
    assert "Round 1 has started" in entry and "Don't show me on stream</button>" in entry and 'id="coverage"' in entry

    r = phone.post(f"/t/{t.slug}/p/{token}/coverage", data={"coverage": "sideways", "back": "entry"})
    assert r.status_code == 303 and r.location.endswith(f"/t/{t.slug}/registration")
    db.session.expire_all()
    assert not db.session.get(Player, shy.id).no_coverage and _featured(t) == first[0].table
    r = phone.post(f"/t/{t.slug}/p/{token}/coverage", data={"coverage": "off", "back": "entry"},
                   follow_redirects=True)
    assert "You will not be shown on stream." in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Player, shy.id).no_coverage and _featured(t) is None
    to.post(url, data={"table": str(first[0].table)})
    assert _featured(t) is None and any("opted out of coverage" in m for m in flashed(to))
    assert "Let the organizer show me on stream" in phone.get(f"/t/{t.slug}/registration").get_data(as_text=True)

    page = phone.get(f"/t/{t.slug}/p/{token}").get_data(as_text=True)  # the player's own page offers it too
    assert 'id="coverage"' in page and "Let the organizer show me on stream</button>" in page
    r = phone.post(f"/t/{t.slug}/p/{token}/coverage", data={"coverage": "on", "back": "page"})
    assert r.status_code == 303 and r.location.endswith(f"/t/{t.slug}/p/{token}")  # back to the player page
    db.session.expire_all()
    assert not db.session.get(Player, shy.id).no_coverage
    to.post(url, data={"table": str(first[0].table)})
    assert _featured(t) == first[0].table
    # another link is no player; a POST without the form's token changes nothing
    assert phone.post(f"/t/{t.slug}/p/not-a-token/coverage", data={"coverage": "off"}).status_code == 404

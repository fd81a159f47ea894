"""Issue 22's smaller frictions, each through the pages that showed it: print links on the round page, labelled
points on the public pairings, registration closed after the cut, the cut counting active players, a custom
double-sided result told per game, no log-in offer on player pages, a 403 that says why and links back, a damaged
backup's message, the cut's games in the games CSV, an empty dashboard's advice."""
from __future__ import annotations

import csv
import html
import io
import json
import random
import re

import sqlalchemy as sa

from app.extensions import db
from app.models import Player, Staff
from app.services import cut as cut_service
from app.services.players import player_links
from cut_helpers import add_players, paired_event, play_cut, random_swiss
from tests.web.views.test_rounds import matches, pair, report_all, setup_event


def _text(response) -> str:
    """The page's text with its runs of white space as one space."""
    return re.sub(r"\s+", " ", html.unescape(response.get_data(as_text=True)))


def _read(response) -> str:
    """What a reader sees: the page's text without its tags (a score is wrapped to keep it on one line)."""
    return re.sub(r"<[^>]+>", "", _text(response))


def _cut_event(make_user, make_tournament, n=10, **fields):
    owner = make_user()
    t = make_tournament(owner, **fields)
    players = add_players(t, [f"P{i:02d}" for i in range(1, n + 1)])
    random_swiss(t, players, 3, random.Random(4))
    return t, players


def test_the_round_page_links_its_printouts(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=6)
    pair(client, t, 1)
    page = _text(client.get(f"/tournaments/{t.id}/rounds/1"))
    assert f'href="/tournaments/{t.id}/rounds/1/by-name">Pairings by name' in page
    assert f'href="/tournaments/{t.id}/rounds/1/slips">Match slips' in page
    assert client.get(f"/tournaments/{t.id}/rounds/1/slips").status_code == 200


def test_public_pairings_label_this_rounds_points(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    pair(client, t, 1)
    client.post(f"/tournaments/{t.id}/rounds/1/publish")
    assert "+3 pts" not in _text(client.get(f"/t/{t.slug}/pairings"))  # nothing reported: nothing to label
    report_all(client, t, 1, "corp")
    page = _text(client.get(f"/t/{t.slug}/pairings"))
    assert page.count("+3 pts</span>") == 2 and page.count("+0 pts</span>") == 2
    assert "the points this round's result gave" in page and "(3)" not in page


def test_registration_reads_closed_after_the_cut(make_user, make_tournament, login):
    t, _ = _cut_event(make_user, make_tournament, registration_open=True, late_registration=True)
    client = login()
    assert "registration is open" in _text(client.get(f"/tournaments/{t.id}"))
    assert "Self-registration is <strong>open</strong>" in _text(client.get(f"/tournaments/{t.id}/players"))
    cut_service.create(t, 4, "double", [])
    assert "registration is open" not in _text(client.get(f"/tournaments/{t.id}"))
    page = _text(client.get(f"/tournaments/{t.id}/players"))
    assert "Self-registration is closed: the top cut has started" in page and "is <strong>open" not in page


def test_the_cut_form_counts_active_players(make_user, make_tournament, login):
    t, players = _cut_event(make_user, make_tournament, n=17)
    players[0].dropped = True
    db.session.commit()
    page = _text(login().get(f"/tournaments/{t.id}/cut"))
    assert "16 active players: the usual cut is the top 4" in page and "17" not in page.split("<h1>")[1][:400]


def test_a_custom_double_sided_result_reads_game_by_game(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=2, fmt="double")
    pair(client, t, 1)
    client.post(f"/tournaments/{t.id}/rounds/1/publish")
    (m, seats), = matches(t, 1)
    # seat 1 lost game 1 as Corp, tied game 2 as Runner
    assert client.post(f"/tournaments/{t.id}/matches/{m.id}/result",
                       data={"result": "custom", "first": "0", "second": "1"}).status_code == 303
    (m, seats), = matches(t, 1)
    assert m.result == "0-3/1-1"
    phone = _read(client.get(f"/t/{t.slug}/p/{player_links.token(seats[0].player)}"))
    pages = [_text(client.get(f"/tournaments/{t.id}/rounds/1")), phone,
             _text(client.get(f"/tournaments/{t.id}/games.csv"))]
    for page in pages:
        assert "0-3/1-1" not in page
    assert "1-4 (Runner win, then tie)" in pages[0] and "1-4 (Runner win, then tie)" in pages[2]
    assert "I lost 1-4 (lost as Corp, tied as Runner)" in phone  # worded from the player's seat


def test_player_pages_offer_no_log_in(app, make_user):
    t = paired_event(make_user(), "Link Open", ["Ann", "Ben"])
    ann = db.session.scalars(sa.select(Player).filter_by(name="Ann")).one()
    phone = app.test_client()
    page = _text(phone.get(f"/t/{t.slug}/p/{player_links.token(ann)}"))
    assert "Sign up" not in page and ">Log in<" not in page
    you = phone.get(f"/t/{t.slug}/me.json?page=pairings").get_json()["you"]  # the public pages' "You" line
    assert 'class="you-go"' in you and "My page ›" in you  # the banner reads as a link to the page
    # an event's public pages: no "Log in / Sign up" at their head (players need no account), a small door for
    # the organizers; the site's own front page keeps the offer
    for path in ("", "/pairings", "/standings"):
        public = _text(phone.get(f"/t/{t.slug}{path}"))
        assert "Sign up" not in public and ">Log in<" not in public and "Organizer log-in" in public, path
    assert "Sign up" in _text(phone.get("/"))


def test_a_scorekeepers_403_says_why_and_links_back(make_user, make_tournament, login):
    owner = make_user()
    t = make_tournament(owner)
    keeper = make_user("sam@example.com")
    db.session.add(Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"))
    db.session.commit()
    client = login("sam@example.com")
    r = client.get(f"/tournaments/{t.id}/players")
    page = _text(r)
    assert r.status_code == 403
    assert "This is for the event's organizers; you are a scorekeeper here." in page
    assert f'href="/tournaments/{t.id}">Back to the event' in page
    make_user("mallory@example.com")
    stranger = login("mallory@example.com", c=client.application.test_client())
    page = _text(stranger.get(f"/tournaments/{t.id}/players"))
    assert "you have no role in this event" in page and "Back to the event" not in page
    assert 'href="/tournaments">My tournaments' in page


def test_a_damaged_backup_says_so_plainly(make_user, login):
    make_user()
    client = login()
    for payload, says in ((b'{"format": "sass-backup", "players": [{"name": "A"', "it ends too soon"),
                          (b'{"players": [1,, 2]}', "it breaks at line 1, column 16"),
                          (b"\x89PNG\r\n\x1a\n\x00\x00", "it is not text at all")):
        r = client.post("/tournaments/restore", data={"file": (io.BytesIO(payload), "backup.json")},
                        content_type="multipart/form-data")
        page = _text(r)
        assert r.status_code == 400 and says in page, page[-800:]
        assert "JSONDecodeError" not in page and "Expecting" not in page


def test_the_games_csv_has_the_cut(make_user, make_tournament, login):
    t, players = _cut_event(make_user, make_tournament, n=8)
    cut_service.create(t, 4, "single", [])
    play_cut(t, lambda game: game.player1)
    cut = cut_service.load(t)
    rows = list(csv.DictReader(io.StringIO(login().get(f"/tournaments/{t.id}/games.csv").get_data(as_text=True))))
    assert {r["stage"] for r in rows[:-len(cut.bracket.games)]} == {"swiss"}
    cut_rows = [r for r in rows if r["stage"] == "cut"]
    assert len(cut_rows) == len(cut.bracket.games) == 3  # top 4 single elimination: two semis and the final
    names = {p.id: p.name for p in players}
    for row, game in zip(cut_rows, cut.bracket.games):
        assert (row["round"], row["player 1"], row["player 2"]) == (str(game.round), names[game.player1],
                                                                    names[game.player2])
        assert row["result"] == f"{names[game.winner]} won" and row["player 1 points"] == ""
        assert {row["player 1 side"], row["player 2 side"]} == {"corp", "runner"}


def test_an_empty_dashboard_recommends_no_rounds(make_user, make_tournament, login):
    owner = make_user()
    t = make_tournament(owner)
    client = login()
    page = _text(client.get(f"/tournaments/{t.id}"))
    block = page.split('id="recommended-rounds"')[1].split("</div>")[0]
    assert "add players first" in block and "log₂" not in block and ">0<" not in block
    add_players(t, ["Ann", "Ben", "Cat", "Dan", "Eve"])
    block = _text(client.get(f"/tournaments/{t.id}")).split('id="recommended-rounds"')[1].split("</div>")[0]
    assert '<span class="value">3</span>' in block and "⌈log₂ 5⌉" in block


def test_every_page_has_an_icon(client):
    page = client.get("/login").get_data(as_text=True)
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    for url in ("/favicon.ico", "/static/favicon.svg"):
        r = client.get(url)
        assert r.status_code == 200 and r.mimetype == "image/svg+xml" and b"<svg" in r.data


def test_an_unquoted_identity_with_a_comma_is_named(make_user, make_tournament, login):
    owner = make_user()
    t = make_tournament(owner)
    client = login()
    text = "Ada,SYNC: Everything, Everywhere,Hoshiko Shiro: Untold Protagonist\nBo,\"SYNC: Everything, Everywhere\",\n"
    r = client.post(f"/tournaments/{t.id}/players/import", data={"text": text})
    page = _text(r)
    assert r.status_code == 422
    assert ("Row 1: the row has 4 fields because “SYNC: Everything, Everywhere” holds a comma: put it in double "
            "quotes, \"SYNC: Everything, Everywhere\"") in page
    assert "pronouns are longer" not in page and "Row 2" not in page  # the quoted row is fine
    fixed = text.replace("Ada,SYNC: Everything, Everywhere,", "Ada,\"SYNC: Everything, Everywhere\",")
    assert client.post(f"/tournaments/{t.id}/players/import", data={"text": fixed}).status_code == 302
    db.session.expire_all()
    assert {p.corp_identity for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id))} == \
        {"SYNC: Everything, Everywhere"}


def test_the_dashboard_asks_for_the_nrtm_organiser(make_user, make_tournament, login):
    owner = make_user()
    t = make_tournament(owner)
    client = login()
    page = _text(client.get(f"/tournaments/{t.id}"))
    assert "The NRTM file names no organiser." in page and 'href="/account">Account page' in page
    before = json.loads(client.get(f"/t/{t.slug}.json").get_data(as_text=True))
    assert before["tournamentOrganiser"]["name"] is None  # built now, and kept until the event changes
    client.post("/account", data={"display_name": "Tess Organa", "nrdb_username": ""})
    assert "names no organiser" not in _text(client.get(f"/tournaments/{t.id}"))
    after = json.loads(client.get(f"/t/{t.slug}.json").get_data(as_text=True))
    assert after["tournamentOrganiser"]["name"] == "Tess Organa"

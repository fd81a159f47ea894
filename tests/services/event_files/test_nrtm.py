"""NRTM JSON: export against a checked-in file, import from Cobra-style files, round trip, malformed files."""
from __future__ import annotations

import html
import re
import io
import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import CutEntry, CutResult, Match, Player, Round, Seat, Tournament
from app.services import cut as cut_service
from app.services.event_files import nrtm_export
from cut_helpers import add_players, add_round, fixture_event

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "nrtm_fixture_open.json"
URL = "https://sass.example/t/fixture"


def _upload(client, data, name="event.json"):
    payload = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post("/tournaments/import", data={"file": (io.BytesIO(payload), name)},
                       content_type="multipart/form-data")


def _counts():
    return tuple(db.session.scalar(sa.select(sa.func.count()).select_from(m))
                 for m in (Tournament, Player, Round, Match, Seat, CutEntry, CutResult))


def test_fixed_event_matches_the_checked_in_file(app, make_user, make_tournament):
    t = fixture_event(make_user(), make_tournament)
    assert nrtm_export.export(t, URL) == json.loads(FIXTURE.read_text())


def test_fixture_file_says_what_the_rules_say():
    """Spot checks of the expected file itself, by hand from docs/domain.md 7 to 9, so it is not just a snapshot."""
    data = json.loads(FIXTURE.read_text())
    players = {p["name"]: p for p in data["players"]}
    # Dave met Carol (6 pts), Bob (4) and Alice (4) in 3 rounds each: SoS = (2 + 4/3 + 4/3) / 3 = 14/9
    assert players["Dave"]["strengthOfSchedule"] == 14 / 9  # full precision, as Cobra writes it
    assert players["Dave"]["matchPoints"] == 7 and players["Dave"]["rank"] == 1
    assert players["Carol"]["sideBalance"] == 2  # Corp twice and a bye
    assert data["preliminaryRounds"] == 3 and len(data["rounds"]) == 3 + 5  # cut rounds 1..5 with the reset
    bye = data["rounds"][0][2]
    assert bye["player2"]["id"] is None and bye["player1"]["combinedScore"] == 3
    assert data["rounds"][1][1]["intentionalDraw"] is True
    assert all(p["eliminationGame"] for r in data["rounds"][3:] for p in r)
    reset = data["rounds"][-1][0]
    assert reset["table"] == 7 and reset["player2"]["winner"] is True  # Dave, from the upper bracket
    assert [e["name"] for e in data["eliminationPlayers"]] == ["Dave", "Carol", "Bob", "Erin"]
    assert data["uploadedFrom"] == "SASS"


def test_public_json_route_and_download(client, make_user, make_tournament):
    t = fixture_event(make_user(), make_tournament)
    response = client.get(f"/t/{t.slug}.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    data = response.get_json()
    expected = json.loads(FIXTURE.read_text())
    assert {k: v for k, v in data.items() if k != "links"} == {k: v for k, v in expected.items() if k != "links"}
    assert data["links"][1]["href"].endswith(f"/t/{t.slug}")
    download = client.get(f"/t/{t.slug}.json?download=1")
    assert "attachment" in download.headers["Content-Disposition"]
    assert client.get("/t/nosuchslug.json").status_code == 404


def _without_links(data):
    return {k: v for k, v in data.items() if k != "links"}


def test_round_trip_export_import_export(client, make_user, make_tournament, login):
    owner = make_user()
    t = fixture_event(owner, make_tournament)
    first = nrtm_export.export(t, URL)
    login()
    response = _upload(client, first)
    assert response.status_code in (302, 303), response.get_data(as_text=True)
    copy = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    assert copy.owner_id == owner.id and copy.slug != t.slug and copy.cut_kind == "double"
    second = nrtm_export.export(copy, URL)
    assert second == first
    # and the imported event is a real one: its standings and bracket come from the stored games
    assert cut_service.load(copy).bracket.champion() is not None


def test_import_a_cobra_single_sided_file(client, make_user, login):
    make_user()
    login()
    cobra = {
        "name": "Some Tournament", "date": "2017-01-01", "cutToTop": 0, "preliminaryRounds": 1,
        "tournamentOrganiser": {"nrdbId": 123, "nrdbUsername": "username"},
        "players": [
            {"id": 1001, "name": "Jack", "rank": 1, "corpIdentity": "ETF", "runnerIdentity": "Noise",
             "matchPoints": 3, "strengthOfSchedule": 0, "extendedStrengthOfSchedule": 0},
            {"id": 1002, "name": "Jill", "rank": 3, "corpIdentity": "PE", "runnerIdentity": None,
             "matchPoints": 0, "strengthOfSchedule": 0, "extendedStrengthOfSchedule": 0},
            {"id": 1005, "name": "Snap", "rank": 2, "corpIdentity": "ST", "runnerIdentity": "Kate",
             "matchPoints": 3, "strengthOfSchedule": 0, "extendedStrengthOfSchedule": 0},
        ],
        "eliminationPlayers": [],
        "rounds": [[
            {"table": 1, "player1": {"id": 1001, "role": "runner", "runnerScore": 3, "corpScore": None,
                                     "combinedScore": 3},
             "player2": {"id": 1002, "role": "corp", "runnerScore": None, "corpScore": 0, "combinedScore": 0},
             "intentionalDraw": False, "twoForOne": False, "eliminationGame": False},
            {"table": 2, "player1": {"id": 1005, "role": None, "runnerScore": None, "corpScore": None,
                                     "combinedScore": 3},
             "player2": {"id": None, "role": None, "runnerScore": None, "corpScore": None, "combinedScore": 0},
             "intentionalDraw": False, "twoForOne": False, "eliminationGame": False},
        ]],
        "uploadedFrom": "Cobra",
        "links": [],
    }
    response = _upload(client, cobra)
    assert response.status_code in (302, 303), response.get_data(as_text=True)
    t = db.session.scalars(sa.select(Tournament)).one()
    assert (t.name, t.date.isoformat(), t.format, t.cut_kind) == ("Some Tournament", "2017-01-01", "single", None)
    assert [p.name for p in t.players] == ["Jack", "Jill", "Snap"]
    assert t.players[1].runner_identity == ""
    standings = cut_service.swiss_standings(t)
    assert [(s.name, s.points, s.corp, s.runner) for s in standings] == [
        ("Jack", 3, 0, 1), ("Snap", 3, 0, 0), ("Jill", 0, 1, 0)]
    game = t.rounds[0].matches[0]
    assert game.result == "runner" and [s.side for s in game.seats] == ["runner", "corp"]
    assert t.rounds[0].matches[1].is_bye


def test_import_a_double_sided_file_with_a_cut(client, make_user, login):
    """Cobra's double-sided rounds (no roles) and a top 4 double elimination named by table = game."""
    make_user()
    login()
    names = ["Jack", "Hansel", "Snap", "Pop", "Jill"]
    players = [{"id": 1001 + i, "name": n} for i, n in enumerate(names)]

    def ds(table, a, sa_, b, sb):
        return {"table": table, "player1": {"id": a, "corpScore": None, "runnerScore": None, "combinedScore": sa_},
                "player2": {"id": b, "corpScore": None, "runnerScore": None, "combinedScore": sb},
                "intentionalDraw": False, "twoForOne": False, "eliminationGame": False}

    def cut(table, a, role_a, b, a_won):
        role_b = "runner" if role_a == "corp" else "corp"
        return {"table": table, "player1": {"id": a, "role": role_a, "winner": a_won},
                "player2": {"id": b, "role": role_b, "winner": not a_won},
                "intentionalDraw": False, "eliminationGame": True}

    doc = {
        "name": "Double Open", "date": "2024-02-03", "players": players,
        "eliminationPlayers": [{"id": 1001, "seed": 1}, {"id": 1002, "seed": 2}, {"id": 1003, "seed": 3},
                               {"id": 1004, "seed": 4}],
        "rounds": [
            [ds(1, 1001, 6, 1005, 0), ds(2, 1002, 4, 1003, 1), ds(3, 1004, 6, None, 0)],
            [cut(1, 1001, "corp", 1004, True), cut(2, 1002, "corp", 1003, True)],
            [cut(3, 1001, "runner", 1002, True), cut(4, 1004, "corp", 1003, False)],
            [cut(5, 1002, "corp", 1003, True)],
            [cut(6, 1001, "corp", 1002, True)],
        ],
    }
    response = _upload(client, doc)  # 4-1 without side scores: kept as that total, shown first (not guessed)
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 200 and "1 double-sided game gives only a total" in page
    assert "round 1 table 2" in page
    fields = dict(re.findall(r'<input[^>]*name="(token|csrf_token)"[^>]*value="([^"]*)"', page))
    response = client.post("/tournaments/import/confirm", data=fields)
    assert response.status_code in (302, 303), response.get_data(as_text=True)
    t = db.session.scalars(sa.select(Tournament)).one()
    assert t.format == "double" and t.cut_kind == "double"
    assert t.rounds[0].matches[1].result == "4-1"
    c = cut_service.load(t)
    assert c.bracket.is_complete() and c.name(c.bracket.champion()) == "Jack"
    assert [r["name"] for r in c.final_standings()] == ["Jack", "Hansel", "Snap", "Pop", "Jill"]
    bye = t.rounds[0].matches[2]
    assert bye.is_bye and bye.result == "bye" and bye.seats[0].points == 6


def _cut_file(rounds, seeds=4, both_win=False):
    """Four players, no swiss, a cut of `seeds`: `rounds` of (player1, player2, winner or None) games."""
    def game(table, a, b, w):
        return {"table": table, "player1": {"id": a, "role": "corp", "winner": (w == a) or both_win if w else None},
                "player2": {"id": b, "role": "runner", "winner": (w == b) or both_win if w else None},
                "eliminationGame": True}
    return json.dumps({
        "name": "x", "players": [{"id": i, "name": f"P{i}"} for i in range(1, 5)],
        "eliminationPlayers": [{"id": i, "seed": i} for i in range(1, seeds + 1)],
        "rounds": [[game(t, *g) for t, g in enumerate(r, 1)] for r in rounds]}).encode()


def _aesop_cut(corp, runner):
    return {"name": "x", "players": [{"id": i, "name": f"P{i}"} for i in range(1, 3)],
            "eliminationPlayers": [{"id": 1, "seed": 1}, {"id": 2, "seed": 2}],
            "rounds": [[{"tableNumber": 1, "player1": {"id": 1, "role": "corp", **corp},
                         "player2": {"id": 2, "role": "runner", **runner}, "intentionalDraw": False,
                         "eliminationGame": True}]]}


def _old_aesop_cut(winner_id=1, corpScore="3"):
    """Aesop's Tables before 2024: corpPlayer/runnerPlayer, string scores, cut games with winner_id."""
    return {"name": "x", "players": [{"id": i, "name": f"P{i}"} for i in range(1, 4)],
            "eliminationPlayers": [{"id": 1, "seed": 1}, {"id": 2, "seed": 2}],
            "rounds": [[{"tableNumber": 1, "corpPlayer": 1, "runnerPlayer": 2, "corpScore": corpScore,
                         "runnerScore": "0"},
                        {"tableNumber": 2, "corpPlayer": 3, "runnerPlayer": "(BYE)", "corpScore": "3",
                         "runnerScore": "0"}],
                       [{"tableNumber": 1, "corpPlayer": 2, "runnerPlayer": 1, "winner_id": winner_id,
                         "loser_id": 2}]]}


@pytest.mark.parametrize("payload, message", [
    (b"", "not valid JSON"),
    (b"\xff\xfe garbage", "not valid JSON"),
    (b"[1, 2, 3]", "should be an object"),
    (b'{"name": "x"}', "no 'players'"),
    (json.dumps({"name": "x", "players": [], "rounds": [[
        {"table": 1, "player1": {"id": 1, "combinedScore": 3}, "player2": {"id": 2, "combinedScore": 0}}]]}).encode(),
     "no players but has games"),
    (json.dumps({"name": "x", "players": [{"id": 1, "name": "A"}, {"id": 1, "name": "B"}], "rounds": []}).encode(),
     "appears twice"),
    (json.dumps({"name": "x", "players": [{"id": 1, "name": "A"}, {"id": 2, "name": "a"}], "rounds": []}).encode(),
     "two players are called"),
    (json.dumps({"name": "x", "players": [{"id": 1, "name": "A"}], "rounds": [[
        {"table": 1, "player1": {"id": 1, "combinedScore": 3}, "player2": {"id": 7, "combinedScore": 0}}]]}).encode(),
     "not in the players list"),
    (json.dumps({"name": "x", "players": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}], "rounds": [[
        {"table": 1, "player1": {"id": 1, "combinedScore": "three"}, "player2": {"id": 2, "combinedScore": 0}}]]}
                ).encode(), "whole number"),
    (json.dumps({"name": "x", "date": "yesterday", "players": [{"id": 1, "name": "A"}], "rounds": []}).encode(),
     "date"),
    (json.dumps({"name": "x" * 500, "players": [{"id": 1, "name": "A"}], "rounds": []}).encode(), "longer"),
    (_cut_file([[(1, 9, 1)]]), "player 9, who is not in the players list"),
    (_cut_file([[(1, 4, 1)]], seeds=3), "player 4, who is not in eliminationPlayers"),
    # after a second loss: out even in double elimination
    (_cut_file([[(1, 4, 4), (2, 3, 2)], [(4, 2, 4), (1, 3, 3)], [(1, 2, 1)]]), "1 plays game 5 after going out"),
    (_cut_file([[(1, 4, 1), (2, 4, 2)]]), "4 plays twice in cut round 1"),
    (_cut_file([[(1, 4, None), (2, 3, 2)], [(1, 2, 2)]]), "1 plays game 3 before game 1 has a result"),
    (_cut_file([[(1, 4, 1), (2, 3, 2)]]).replace(b'"table": 2', b'"table": 1'), "two elimination games at table 1"),
    (_cut_file([[(1, 4, None), (4, 1, None)]]), "plays twice in cut round 1"),  # one waiting game listed twice
    (_cut_file([[(1, 2, 1)]], seeds=1), "a cut has 2 to 64 eliminationplayers, not 1"),
    (_cut_file([[(1, 4, 1)]], both_win=True), "two winners"),
    (json.dumps(_aesop_cut({"corpScore": 1, "runnerScore": None}, {"corpScore": None, "runnerScore": 1})).encode(),
     "cannot end 1-1"),
    (json.dumps(_old_aesop_cut(winner_id=3)).encode(), "the winner, player 3, does not play in it"),
    (json.dumps(_old_aesop_cut(corpScore="three")).encode(), "whole number"),
])
def test_malformed_files_create_nothing(client, make_user, login, payload, message):
    make_user()
    login()
    before = _counts()
    response = _upload(client, payload)
    assert response.status_code == 400
    assert message.lower() in html.unescape(response.get_data(as_text=True)).lower()
    assert _counts() == before


def test_import_needs_a_file_and_a_login(client, make_user, login):
    assert client.get("/tournaments/import").status_code in (302, 303)
    make_user()
    login()
    assert client.get("/tournaments/import").status_code == 200
    response = client.post("/tournaments/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400 and "Choose a file" in response.get_data(as_text=True)


def test_too_big_upload_is_refused(client, app, make_user, login):
    make_user()
    login()
    app.config["MAX_CONTENT_LENGTH"] = 1000
    response = _upload(client, b"{" + b" " * 5000 + b"}")
    assert response.status_code == 413
    assert db.session.scalar(sa.select(sa.func.count(Tournament.id))) == 0


def test_unpublished_draft_round_is_not_exported(app, make_user, make_tournament):
    t = make_tournament(make_user())
    a, b = add_players(t, ["Ann", "Ben"])
    add_round(t, 1, [(a, b, "corp")])
    add_round(t, 2, [(b, a, None)], published=False)
    data = nrtm_export.export(t, URL)
    assert data["preliminaryRounds"] == 1 and len(data["rounds"]) == 1


def test_cut_games_are_found_by_their_players_when_tables_differ(client, make_user, make_tournament, login):
    """Aesop's Tables numbers cut tables per round; the games are then matched by who played them."""
    owner = make_user()
    t = fixture_event(owner, make_tournament)
    data = nrtm_export.export(t, URL)
    for rnd in data["rounds"][3:]:
        for table, pairing in enumerate(rnd, 1):
            pairing["table"] = table
    login()
    assert _upload(client, data).status_code in (302, 303)
    copy = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    assert _without_links(nrtm_export.export(copy, URL))["eliminationPlayers"] == data["eliminationPlayers"]
    names = {p.id: p.name for p in db.session.scalars(sa.select(Player))}
    original = [(g, names[w], names[c]) for g, w, c in cut_service.load(t).bracket.results()]
    imported = [(g, names[w], names[c]) for g, w, c in cut_service.load(copy).bracket.results()]
    assert imported == original and len(imported) == 7


def test_control_characters_are_refused(client, make_user, login):
    make_user()
    login()
    doc = {"name": "Cup", "players": [{"id": 1, "name": "Nul\u0000l"}], "rounds": []}
    response = _upload(client, doc)
    assert response.status_code == 400 and "control characters" in response.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count(Tournament.id))) == 0

"""The NRTM export's Cobra fields (factions, organiser, pronouns, canonical identity names, double-sided corpScore and
runnerScore) and the double-sided round trips: a Cobra file imported then exported, SASS's own export re-imported."""
from __future__ import annotations

import html
import io
import json
from datetime import date
from pathlib import Path

import sqlalchemy as sa

from app.extensions import db
from app.models import CutEntry, CutResult, Match, Player, Round, Seat, Tournament
from app.services import cut as cut_service
from app.services.event_files import nrtm_export
from cut_helpers import add_round, play_cut

COBRA_DOUBLE = Path(__file__).resolve().parents[2] / "fixtures" / "cobra_double_sided.json"
URL = "https://sass.example/t/fixture"


def _upload(client, data):
    payload = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post("/tournaments/import", data={"file": (io.BytesIO(payload), "event.json")},
                       content_type="multipart/form-data")


def _counts():
    return tuple(db.session.scalar(sa.select(sa.func.count()).select_from(m))
                 for m in (Tournament, Player, Round, Match, Seat, CutEntry, CutResult))


def _imported(exclude=()):
    return db.session.scalars(sa.select(Tournament).where(Tournament.id.not_in(exclude) if exclude else sa.true())
                              .order_by(Tournament.id.desc())).first()


def _results(t: Tournament) -> list:
    """Every table as (round, table, [(name, points)], result): what was stored, ids aside."""
    names = {p.id: p.name for p in t.players}
    rows = db.session.execute(sa.select(Round.number, Match.table, Match.result, Match.id)
                              .join(Match, Match.round_id == Round.id).where(Round.tournament_id == t.id)
                              .order_by(Round.number, Match.table)).all()
    out = []
    for number, table, result, mid in rows:
        seats = db.session.execute(sa.select(Seat.player_id, Seat.points).where(Seat.match_id == mid)
                                   .order_by(Seat.position)).all()
        out.append((number, table, [(names[p], pts) for p, pts in seats], result))
    return out


def _players(t, specs):
    players = [Player(tournament_id=t.id, name=n, corp_identity=c, runner_identity=r, pronouns=pro)
               for n, c, r, pro in specs]
    db.session.add_all(players)
    db.session.commit()
    return players


def double_event(owner, make_tournament) -> Tournament:
    """A double-sided event with every kind of round (both 3-3s, 4-1, 2-2, sweeps, byes) and a top 4 cut."""
    t = make_tournament(owner, name="Double Night", date=date(2026, 6, 6), format="double")
    a, b, c, d, e = _players(t, [
        ("Ana", "Haas-Bioroid: Precision Design", "Rielle “Kit” Peddler: Transhuman", "she/her"),  # curly quotes
        ("Bo", "Jinteki: Restoring Humanity", "Homebrew Runner", ""),
        ("Cy", "weyland consortium: built to last", "Esa Afontov: Eco-Insurrectionist", "they/them"),
        ("Di", "", "", ""),
        ("Ed", "Ampère: Cybernetics For Anyone", "Sunny Lebeau: Security Specialist", "he/him"),
    ])
    add_round(t, 1, [(a, b, "3-0/0-3"), (c, d, "0-3/3-0"), (e, None, None)])
    add_round(t, 2, [(a, c, "3-0/1-1"), (b, e, "0-3/0-3"), (d, None, None)])
    add_round(t, 3, [(e, a, "1-1/1-1"), (d, b, "3-0/3-0"), (c, None, None)])
    cut_service.create(t, 4, "double")
    play_cut(t, lambda g: g.higher_seed)
    return t


def test_export_writes_both_games_factions_pronouns_and_the_organiser(app, make_user, make_tournament):
    owner = make_user(email="secret.address@example.com")
    owner.display_name, owner.nrdb_username = "Store TO", "store_to"
    t = double_event(owner, make_tournament)
    data = nrtm_export.export(t, URL)
    assert data["tournamentOrganiser"] == {"nrdbId": None, "nrdbUsername": "store_to", "name": "Store TO"}
    assert "secret.address" not in json.dumps(data)
    rows = {p["name"]: p for p in data["players"]}
    assert rows["Ana"]["runnerIdentity"] == 'Rielle "Kit" Peddler: Transhuman'  # straight, as NetrunnerDB has it
    assert (rows["Ana"]["corpFaction"], rows["Ana"]["runnerFaction"]) == ("haas-bioroid", "shaper")
    assert rows["Cy"]["corpIdentity"] == "Weyland Consortium: Built to Last"  # the canonical spelling
    assert rows["Cy"]["runnerIdentity"] == "Esâ Afontov: Eco-Insurrectionist"
    assert (rows["Cy"]["corpFaction"], rows["Cy"]["runnerFaction"]) == ("weyland-consortium", "anarch")
    assert (rows["Bo"]["runnerIdentity"], rows["Bo"]["runnerFaction"]) == ("Homebrew Runner", None)
    assert (rows["Di"]["corpIdentity"], rows["Di"]["corpFaction"]) == (None, None)
    assert (rows["Ed"]["corpFaction"], rows["Ed"]["runnerFaction"]) == ("neutral-corp", "sunny-lebeau")
    assert rows["Ana"]["pronouns"] == "she/her" and rows["Bo"]["pronouns"] == ""  # always present, as Cobra
    number = {p["name"]: p["id"] for p in data["players"]}

    def scores(rnd, table):
        pairing = data["rounds"][rnd - 1][table - 1]
        return [(p["id"], p["corpScore"], p["runnerScore"], p["combinedScore"])
                for p in (pairing["player1"], pairing["player2"])]

    n = number
    assert scores(1, 1) == [(n["Ana"], 3, 0, 3), (n["Bo"], 3, 0, 3)]  # each won as Corp
    assert scores(1, 2) == [(n["Cy"], 0, 3, 3), (n["Di"], 0, 3, 3)]  # each won as Runner
    assert scores(1, 3) == [(n["Ed"], None, None, 6), (None, None, None, 0)]  # the bye
    assert scores(2, 1) == [(n["Ana"], 3, 1, 4), (n["Cy"], 1, 0, 1)]  # Ana won as Corp, then a tie
    assert scores(2, 2) == [(n["Bo"], 0, 0, 0), (n["Ed"], 3, 3, 6)]
    assert scores(3, 1) == [(n["Ed"], 1, 1, 2), (n["Ana"], 1, 1, 2)]
    assert all("role" not in p for r in data["rounds"][:3] for g in r for p in (g["player1"], g["player2"]))


def test_unreported_double_sided_table_has_no_scores(app, make_user, make_tournament):
    t = make_tournament(make_user(), format="double")
    a, b = _players(t, [("Ana", "", "", ""), ("Bo", "", "", "")])
    add_round(t, 1, [(a, b, None)])
    pairing = nrtm_export.export(t, URL)["rounds"][0][0]
    assert pairing["player1"] == {"id": 1, "corpScore": None, "runnerScore": None, "combinedScore": None}


def test_organiser_without_a_name_is_not_the_email(app, make_user, make_tournament):
    t = make_tournament(make_user(email="hidden@example.com"))
    data = nrtm_export.export(t, URL)
    assert data["tournamentOrganiser"] == {"nrdbId": None, "nrdbUsername": None, "name": None}
    assert "hidden@" not in json.dumps(data)


def test_account_page_sets_the_organiser_names(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    page = client.get("/account")
    assert page.status_code == 200 and "NetrunnerDB username" in page.get_data(as_text=True)
    response = client.post("/account", data={"display_name": "  Store TO ", "nrdb_username": "store_to"})
    assert response.status_code in (302, 303)
    db.session.refresh(owner)
    assert (owner.display_name, owner.nrdb_username) == ("Store TO", "store_to")
    t = make_tournament(owner)
    assert client.get(f"/t/{t.slug}.json").get_json()["tournamentOrganiser"]["name"] == "Store TO"
    for bad in ({"display_name": "x" * 81}, {"display_name": "tab\there"}, {"nrdb_username": "no spaces"},
                {"nrdb_username": "<script>"}):
        assert client.post("/account", data=bad).status_code == 422
    db.session.refresh(owner)
    assert (owner.display_name, owner.nrdb_username) == ("Store TO", "store_to")


def test_sass_double_sided_export_import_export_is_identical(client, make_user, make_tournament, login):
    owner = make_user()
    owner.display_name = "Store TO"
    t = double_event(owner, make_tournament)
    first = nrtm_export.export(t, URL)
    login()
    response = _upload(client, first)
    assert response.status_code in (302, 303), response.get_data(as_text=True)
    copy = _imported(exclude=[t.id])
    assert copy.format == "double" and copy.cut_kind == "double"
    assert nrtm_export.export(copy, URL) == first
    assert _results(copy) == _results(t)  # each game came back: a 3-3 is still the right 3-3
    assert [p.pronouns for p in copy.players] == ["she/her", "", "they/them", "", "he/him"]


def _by_name(doc):
    return {p["id"]: p["name"] for p in doc["players"]}


def _swiss(doc):
    name = _by_name(doc)
    return [[(g["table"], *[(name.get(p["id"]), p["corpScore"], p["runnerScore"], p["combinedScore"])
                            for p in (g["player1"], g["player2"])]) for g in r]
            for r in doc["rounds"][:doc["preliminaryRounds"]]]


def _cut_games(doc):
    """Each elimination game as its players' (name, role, winner), whoever is player1."""
    name = _by_name(doc)
    return [[(g["table"], frozenset((name[p["id"]], p["role"], p["winner"]) for p in (g["player1"], g["player2"])))
             for g in r] for r in doc["rounds"][doc["preliminaryRounds"]:]]


def _rows(doc):
    return [{**{k: v for k, v in p.items() if k != "id"}, "pronouns": p.get("pronouns", "")} for p in doc["players"]]


def test_cobra_double_sided_file_imports_both_games(client, make_user, login):
    make_user()
    login()
    response = _upload(client, COBRA_DOUBLE.read_bytes())
    assert response.status_code in (302, 303), response.get_data(as_text=True)
    t = _imported()
    assert (t.name, t.format, t.cut_kind) == ("Cobra Double Open", "double", "double")
    assert _results(t)[:3] == [
        (1, 1, [("Amara", 3), ("Bartek", 3)], "3-0/0-3"),  # each won as Corp
        (1, 2, [("Chen", 3), ("Dunja", 3)], "0-3/3-0"),  # each won as Runner
        (1, 3, [("Emeka", 6)], "bye")]
    assert [r for _, _, _, r in _results(t)[3:]] == ["3-0/1-1", "0-3/0-3", "bye", "1-1/1-1", "3-0/0-3", "bye"]
    assert {p.name: p.pronouns for p in t.players}["Chen"] == "they/them"
    c = cut_service.load(t)
    assert [r["name"] for r in c.final_standings()] == ["Amara", "Dunja", "Emeka", "Chen", "Bartek"]


def test_cobra_double_sided_import_then_export_is_the_same_event(client, make_user, login):
    """Same players, rounds, results, standings and cut, ids aside; the organiser is the importing account."""
    user = make_user()
    user.nrdb_username = "importer"
    db.session.commit()
    login()
    cobra = json.loads(COBRA_DOUBLE.read_text())
    assert _upload(client, cobra).status_code in (302, 303)
    ours = nrtm_export.export(_imported(), URL)
    for key in ("name", "date", "cutToTop", "preliminaryRounds"):
        assert ours[key] == cobra[key]
    assert _rows(ours) == _rows(cobra)  # ranks, identities, factions, points, SoS and ESoS
    assert _swiss(ours) == _swiss(cobra)  # corpScore and runnerScore of every game
    assert _cut_games(ours) == _cut_games(cobra)
    name = _by_name(ours)
    assert [{**e, "id": name[e["id"]]} for e in ours["eliminationPlayers"]] == \
        [{**e, "id": e["name"]} for e in cobra["eliminationPlayers"]]
    assert ours["tournamentOrganiser"] == {"nrdbId": None, "nrdbUsername": "importer", "name": None}


def test_fixture_says_what_the_rules_say():
    """Hand checks of the Cobra fixture (docs/domain.md 1, 7), so the round trip above is not checked against itself."""
    cobra = json.loads(COBRA_DOUBLE.read_text())
    rows = {p["name"]: p for p in cobra["players"]}
    # Emeka: a bye (6), 6-0 over Bartek, 2-2 with Amara = 14; SoS = mean(Bartek 6/3, Amara 9/3) = 2.5
    assert rows["Emeka"]["matchPoints"] == 14 and rows["Emeka"]["strengthOfSchedule"] == 2.5
    # Amara met Bartek (6/3), Chen (10/3) and Emeka (14/3): SoS = 10/3
    assert rows["Amara"]["strengthOfSchedule"] == 10 / 3  # full precision, as Cobra writes it
    for r in cobra["rounds"][:3]:
        for g in r:
            for p in (g["player1"], g["player2"]):
                if p["corpScore"] is not None:
                    assert p["corpScore"] + p["runnerScore"] == p["combinedScore"]


def test_inconsistent_double_sided_scores_are_shown_before_anything_is_written(client, make_user, login):
    """Side scores that are not two games, or that disagree with combinedScore: the TO sees a warning and
    nothing is created until they choose to import; a score that is not a number still refuses the file."""
    make_user()
    login()
    before = _counts()
    players = [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}]
    for p1, p2, message, status in [
        ({"corpScore": 3, "runnerScore": 0, "combinedScore": 6}, {"corpScore": 3, "runnerScore": 0, "combinedScore": 0},
         "combinedScore says 6-0; combinedScore stands", 200),
        ({"corpScore": 3, "runnerScore": 3}, {"corpScore": 3, "runnerScore": 0}, "not two games", 200),
        ({"corpScore": 2, "runnerScore": 0}, {"corpScore": 3, "runnerScore": 0}, "not two games", 200),
        ({"corpScore": 9, "runnerScore": 0}, {"corpScore": 0, "runnerScore": 0}, "9-0 is not a result", 200),
        ({"corpScore": "3", "runnerScore": 0}, {"corpScore": 0, "runnerScore": 0}, "corpScore", 400),
    ]:
        doc = {"name": "x", "players": players, "rounds": [[
            {"table": 1, "player1": {"id": 1, **p1}, "player2": {"id": 2, **p2}}]]}
        response = _upload(client, doc)
        assert response.status_code == status, (p1, p2)
        page = html.unescape(response.get_data(as_text=True))
        assert message in page
        assert ("Nothing has been created yet" in page) == (status == 200)
        assert _counts() == before
"""Real NRTM files' quirks (issue 20), each in a fixture of tests/fixtures/nrtm/ built from its description: an old
Cobra file's 0/0 side scores, a TO's typo of 5 points, a cut ranking the file's own games contradict, the NRTM
app's empty date, bye opponent 0 and 2-point timed wins, an event not started, a mid-round export. A file that
contradicts itself is shown to the TO with its warnings and written only when they choose to; import then export
gives back every field SASS stores."""
from __future__ import annotations

import html
import io
import json
import re
from datetime import date
from pathlib import Path

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import CutEntry, CutResult, Match, Player, Round, Seat, Tournament
from app.services.event_files import backup as backup_service
from app.services.event_files import restore as restore_service
from app.services import state
from app.services.event_files import nrtm_export, nrtm_import
from app.services.event_files.jsonfile import FileError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "nrtm"
URL = "https://sass.example/t/x"


def _file(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def _bytes(doc) -> bytes:
    return json.dumps(doc).encode()


def _upload(client, doc):
    return client.post("/tournaments/import", data={"file": (io.BytesIO(_bytes(doc)), "event.json")},
                       content_type="multipart/form-data")


def _hidden(page: str, name: str) -> str:
    return re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page).group(1)


def _counts():
    return tuple(db.session.scalar(sa.select(sa.func.count()).select_from(m))
                 for m in (Tournament, Player, Round, Match, Seat, CutEntry, CutResult))


def _latest() -> Tournament:
    return db.session.scalars(sa.select(Tournament).order_by(Tournament.id.desc())).first()


def _stored_fields(doc: dict) -> dict:
    """What SASS stores of an NRTM file, by player name: players (identities, pronouns, points), each swiss
    pairing (table, names, roles, combinedScore, intentional draw) and each cut game (table, names, winner)."""
    names = {p["id"]: p["name"] for p in doc["players"]}
    rows = {p["name"]: (p["corpIdentity"], p["runnerIdentity"], p["matchPoints"], p.get("pronouns") or "")
            for p in doc["players"]}

    def seat(s):
        if s.get("id") in (None, 0) and s.get("id") not in names:
            return None
        return (names[s["id"]], s.get("role"), s.get("combinedScore"), s.get("winner"))
    rounds = [sorted((p["table"], seat(p["player1"]), seat(p["player2"]), p.get("intentionalDraw", False))
                     for p in r) for r in doc["rounds"]]
    return {"name": doc["name"], "players": rows, "rounds": rounds,
            "cut": [(names[e["id"]], e["seed"]) for e in doc["eliminationPlayers"]]}


def test_old_cobra_zero_side_scores_come_in_by_combined_score_and_round_trip(client, make_user, login):
    """2018 Cobra: corpScore and runnerScore 0 beside the real combinedScore; a rotated identity; factions
    spelled with hyphens, as SASS writes them back."""
    make_user()
    login()
    doc = _file("cobra_2018_zero_side_scores")
    warnings = nrtm_import.check(_bytes(doc)).warnings
    assert len(warnings) == 1 and "1 double-sided game gives only a total" in warnings[0]  # round 1's 3-3
    assert "round 1 table 1" in warnings[0]
    response = _upload(client, doc)
    assert response.status_code == 200
    client.post("/tournaments/import/confirm", data={"token": _hidden(response.get_data(as_text=True), "token"),
                                                      "csrf_token": _hidden(response.get_data(as_text=True),
                                                                            "csrf_token")})
    out = nrtm_export.export(_latest(), URL)
    total = out["rounds"][0][0]  # 4-1: a win and a tie, in an order the file does not say
    assert (total["player1"]["combinedScore"], total["player2"]["combinedScore"]) == (4, 1)
    assert total["player1"]["corpScore"] is None and total["player2"]["runnerScore"] is None  # not guessed
    assert _stored_fields(out) | {"rounds": None} == _stored_fields(doc) | {"rounds": None}
    assert [[(p["player1"]["combinedScore"], p["player2"]["combinedScore"]) for p in r] for r in out["rounds"]] == \
        [[(p["player1"]["combinedScore"], p["player2"]["combinedScore"]) for p in r] for r in doc["rounds"]]
    factions = {p["name"]: (p["corpFaction"], p["runnerFaction"]) for p in out["players"]}
    assert factions == {p["name"]: (p["corpFaction"], p["runnerFaction"]) for p in doc["players"]}
    assert factions["Ama"][0] == "weyland-consortium"  # Builder of Nations, rotated long ago
    assert [p["name"] for p in out["players"]] == ["Ama", "Bren", "Cai", "Dee"]


def test_a_file_that_contradicts_itself_is_shown_first_and_imported_only_when_chosen(client, make_user, login):
    """A combinedScore of 5 (no single-sided result gives it) and eliminationPlayers ranking Eli first although
    Gus won the final: warnings, nothing written; "Import anyway" writes the file as it says."""
    make_user()
    login()
    before = _counts()
    doc = _file("cobra_typo_score_and_ranking")
    response = _upload(client, doc)
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 200 and "Nothing has been created yet" in page
    assert "Round 1 table 1: 5-0 is not a result of single-sided swiss; the file's points stand" in page
    assert "eliminationPlayers ranks player 1 first, but the elimination games make player 3 the champion" in page
    assert _counts() == before
    token, csrf = _hidden(page, "token"), _hidden(page, "csrf_token")

    assert client.post("/tournaments/import/confirm", data={"csrf_token": csrf, "token": token[:-3] + "xyz"}
                       ).status_code == 400  # a forged file
    assert _counts() == before
    response = client.post("/tournaments/import/confirm", data={"csrf_token": csrf, "token": token})
    assert response.status_code in (302, 303)
    t = _latest()
    rows = {s.name: s for s in state.standings(t)}
    assert rows["Eli"].points == 5 and rows["Hal"].points == 0  # the file's total stands
    out = nrtm_export.export(t, URL)
    assert out["rounds"][0][0]["player1"]["combinedScore"] == 5
    assert {p["name"]: p["matchPoints"] for p in out["players"]} == {p["name"]: p["matchPoints"]
                                                                     for p in doc["players"]}
    # its backup restores: the kept score is not a hand-edited one
    copy = restore_service.restore(json.dumps(backup_service.backup(t)).encode(), t.owner)
    assert {s.name: s.points for s in state.standings(copy)} == {s.name: s.points for s in state.standings(t)}


def test_the_review_is_for_the_account_that_uploaded(client, app, make_user, login):
    make_user()
    make_user("other@example.com")
    login()
    page = html.unescape(_upload(client, _file("cobra_typo_score_and_ranking")).get_data(as_text=True))
    token = _hidden(page, "token")
    other = app.test_client()
    login("other@example.com", c=other)
    form = html.unescape(other.get("/tournaments/import").get_data(as_text=True))
    csrf = _hidden(form, "csrf_token")
    before = _counts()
    response = other.post("/tournaments/import/confirm", data={"csrf_token": csrf, "token": token})
    assert response.status_code == 400 and "upload the file again" in response.get_data(as_text=True)
    assert _counts() == before


def test_nrtm_app_file(app, make_user):
    """The NRTM iOS app: an empty date (today, with a warning), a bye against player 0, and a timed win worth 2
    (FFG's modified win) that makes a round of 5-1: the totals stand."""
    plan = nrtm_import.check(_bytes(_file("nrtm_app_ffg_era")))
    assert plan.tournament["date"] == date.today() and plan.tournament["format"] == "double"
    assert any("gives no date" in w for w in plan.warnings)
    assert any("not two games" in w and "combinedScore 5-1 stands" in w for w in plan.warnings)
    t = nrtm_import.import_file(_bytes(_file("nrtm_app_ffg_era")), make_user())
    assert {s.name: s.points for s in state.standings(t)} == {"Ira": 6, "Jo": 5, "Kit": 1}
    bye = next(m for m in db.session.scalars(sa.select(Match).where(Match.tournament_id == t.id)) if m.is_bye)
    assert [s.player.name for s in bye.seats] == ["Ira"]


def test_an_event_not_started_imports_with_its_settings(client, make_user, login):
    make_user()
    login()
    response = _upload(client, _file("cobra_not_started"))
    assert response.status_code in (302, 303)
    t = _latest()
    assert (t.name, t.date, t.planned_rounds, len(t.players)) == \
        ("Next month's Circuit Opener", date(2026, 12, 12), 5, 0)
    out = nrtm_export.export(t, URL)
    assert (out["players"], out["rounds"], out["eliminationPlayers"]) == ([], [], [])
    assert out["preliminaryRounds"] == 5  # the plan, as the file gave it


def test_mid_round_bye_does_not_count_until_the_round_is_complete(app, make_user):
    """Cobra scores round 2's bye when it pairs the round and leaves it out of its standings until the round is
    complete; so does SASS."""
    t = nrtm_import.import_file(_bytes(_file("cobra_mid_round_bye")), make_user())
    points = {s.name: s.points for s in state.standings(t)}
    assert points == {p["name"]: p["matchPoints"] for p in _file("cobra_mid_round_bye")["players"]}
    assert points["Ned"] == 0  # not 6
    m = db.session.scalars(sa.select(Match).join(Round).where(Round.tournament_id == t.id, Round.number == 2,
                                                              Match.is_bye.is_(False))).one()
    m.result = "6-0"
    for s in m.seats:
        s.points = 6 if s.position == 1 else 0
    t.version += 1
    db.session.commit()
    assert {s.name: s.points for s in state.standings(t)} == {"Lu": 12, "Mo": 6, "Ned": 6}


def test_not_nrtm_at_all_gets_a_clear_message(client, make_user, login):
    make_user()
    login()
    before = _counts()
    response = client.post("/tournaments/import", data={"file": (io.BytesIO(b"name,corp\nA,B\n"), "players.csv")},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and "not valid JSON" in response.get_data(as_text=True)
    response = _upload(client, {"players": []})
    assert response.status_code == 400 and "is it an NRTM JSON export?" in response.get_data(as_text=True)
    assert _counts() == before


def test_a_bad_file_is_still_refused_whole(app, make_user):
    doc = _file("cobra_typo_score_and_ranking")
    doc["rounds"][0][0]["player1"]["combinedScore"] = 7  # more than twice a round's points: not a typo we keep
    try:
        nrtm_import.check(_bytes(doc))
    except FileError as e:
        assert "combinedScore should be between -6 and 6, not 7" in str(e)
    else:
        raise AssertionError("a 7 was kept")


def test_the_files_organiser_is_written_back_unless_the_account_names_one(app, make_user):
    doc = _file("cobra_2018_zero_side_scores")
    owner = make_user()
    t = nrtm_import.import_file(_bytes(doc), owner)
    assert nrtm_export.export(t, URL)["tournamentOrganiser"] == {"nrdbId": 4242, "nrdbUsername": "organiser",
                                                                 "name": None}
    copy = restore_service.restore(json.dumps(backup_service.backup(t)).encode(), owner)
    assert nrtm_export.export(copy, URL)["tournamentOrganiser"]["nrdbId"] == 4242
    owner.display_name = "Store Champs Crew"
    db.session.commit()
    assert nrtm_export.export(t, URL)["tournamentOrganiser"] == {"nrdbId": None, "nrdbUsername": None,
                                                                 "name": "Store Champs Crew"}


def _second_seat_bye() -> dict:
    """cobra_mid_round_bye with round 1's bye written as Cobra sometimes does: player1 null, the player second."""
    doc = _file("cobra_mid_round_bye")
    bye = doc["rounds"][0][1]
    bye["player1"], bye["player2"] = bye["player2"], bye["player1"]
    assert bye["player1"]["id"] is None and bye["player2"]["id"] == 1
    return doc


def test_a_bye_in_the_second_seat_stays_there_and_counts_everywhere(client, make_user, login):
    """Stored in the seat the file gave it, written back there, and every page, export and standing that reads
    byes still finds it (no query assumes a bye sits first)."""
    from app.services.event_files import export as csv_export
    from app.services.players import player_links

    make_user()
    login()
    doc = _second_seat_bye()
    assert _upload(client, doc).status_code in (302, 303)
    t = _latest()
    bye = db.session.scalars(sa.select(Match).join(Round).where(Round.tournament_id == t.id, Round.number == 1,
                                                                Match.is_bye.is_(True))).one()
    assert [(s.player.name, s.position, s.points) for s in bye.seats] == [("Lu", 2, 6)]
    out = nrtm_export.export(t, URL)
    assert out["rounds"][0][1]["player1"]["id"] is None and out["rounds"][0][1]["player2"]["id"] == 1
    assert out["rounds"][0][1]["player2"]["combinedScore"] == 6
    assert _stored_fields(out) == _stored_fields(doc)
    assert {s.name: s.points for s in state.standings(t)} == {"Lu": 6, "Mo": 6, "Ned": 0}
    assert [r for r in out["players"] if r["name"] == "Lu"][0]["matchPoints"] == 6
    games = csv_export.games_csv(t)
    assert any(line.startswith("1,2,Lu,") for line in games.splitlines())
    pairings = client.get(f"/t/{t.slug}/rounds/1").get_data(as_text=True)
    assert re.search(r'class="seat">Lu</span> <span class="muted">bye', pairings)
    api = client.get(f"/api/tournaments/{t.slug}/rounds/1").get_json()
    assert [[s["name"] for s in p["seats"]] for p in api["pairings"] if p["bye"]] == [["Lu"]]
    assert client.get(f"/tournaments/{t.id}/rounds/1").status_code == 200
    lu = next(p for p in t.players if p.name == "Lu")
    page = client.get(f"/t/{t.slug}/p/{player_links.token(lu)}")
    assert page.status_code == 200 and "Lu" in page.get_data(as_text=True)
    # a backup keeps the seat too
    copy = restore_service.restore(json.dumps(backup_service.backup(t)).encode(), t.owner)
    assert nrtm_export.export(copy, URL)["rounds"] == out["rounds"]


def _factions(doc: dict) -> dict:
    return {p["name"]: (p["corpIdentity"], p["corpFaction"], p["runnerIdentity"], p["runnerFaction"])
            for p in doc["players"] if "corpFaction" in p}


def test_a_files_faction_stays_with_an_identity_sass_does_not_know(client, make_user, login):
    """Vantage Point identities (card data supplement) keep NetrunnerDB's factions; an identity SASS does not
    know keeps the file's faction (either spelling), written back as Cobra writes it; a code of the wrong side or
    no faction at all is not kept; a TO's edit of the identity forgets the file's faction."""
    make_user()
    login()
    doc = _file("cobra_mid_round_bye")
    lu, mo, ned = doc["players"]
    lu.update(corpIdentity="Méliès U: Only the Brightest", corpFaction="jinteki",
              runnerIdentity="Hiram “0mission” Svensson: Shadow of the Past", runnerFaction="shaper")
    mo.update(corpIdentity="Homebrew Corp: Testing Ground", corpFaction="haas_bioroid",
              runnerIdentity="A Runner From Next Year", runnerFaction="neutral-runner")
    ned.update(corpIdentity="Typo Identity", corpFaction="anarch", runnerIdentity="Another Typo",
               runnerFaction="mystery")
    assert _upload(client, doc).status_code in (302, 303)
    t = _latest()
    out = _factions(nrtm_export.export(t, URL))
    assert out == {
        "Lu": ("Méliès U: Only the Brightest", "jinteki", 'Hiram "0mission" Svensson: Shadow of the Past', "shaper"),
        "Mo": ("Homebrew Corp: Testing Ground", "haas-bioroid", "A Runner From Next Year", "neutral-runner"),
        "Ned": ("Typo Identity", None, "Another Typo", None)}
    stored = {p.name: (p.corp_faction, p.runner_faction) for p in t.players}
    assert stored == {"Lu": (None, None), "Mo": ("haas_bioroid", "neutral_runner"), "Ned": (None, None)}
    # export -> import -> export keeps them, and so does a backup
    again = nrtm_import.import_file(_bytes(nrtm_export.export(t, URL)), t.owner)
    assert _factions(nrtm_export.export(again, URL)) == out
    copy = restore_service.restore(json.dumps(backup_service.backup(t)).encode(), t.owner)
    assert _factions(nrtm_export.export(copy, URL)) == out

    mo_row = next(p for p in t.players if p.name == "Mo")
    url = f"/tournaments/{t.id}/players/{mo_row.id}/edit"
    keep = {"name": "Mo", "corp_identity": "Homebrew Corp: Testing Ground", "runner_identity": "Another Homebrew"}
    assert client.post(url, data=keep).status_code == 302
    assert _factions(nrtm_export.export(t, URL))["Mo"] == ("Homebrew Corp: Testing Ground", "haas-bioroid",
                                                           "Another Homebrew", None)
    assert client.post(url, data=keep | {"corp_identity": "NBN: Making News"}).status_code == 302
    assert _factions(nrtm_export.export(t, URL))["Mo"][:2] == ("NBN: Making News", "nbn")


def test_a_bad_kept_faction_in_a_backup_is_refused(app, make_user):
    doc = _file("cobra_mid_round_bye")
    doc["players"][0].update(corpIdentity="Homebrew", corpFaction="nbn")
    t = nrtm_import.import_file(_bytes(doc), make_user())
    backup = backup_service.backup(t)
    backup["players"][0]["corp_faction"] = "shaper"
    try:
        restore_service.restore(json.dumps(backup).encode(), t.owner)
    except FileError as e:
        assert "corp_faction should be a corp faction" in str(e)
    else:
        raise AssertionError("a Runner faction was kept for a Corp identity")


def test_the_files_cut_ranking_stands(client, make_user, login):
    """The file ranks Eli first although Gus won the final: imported as the file says, the cut standings, the
    champion, the event list, the API and the export give the file's ranking; a backup keeps it; a cut result
    changed here hands the ranking back to the games."""
    from app.services import cut as cut_service

    owner = make_user()
    login()
    doc = _file("cobra_typo_score_and_ranking")
    plan = nrtm_import.check(_bytes(doc))
    assert plan.cut_ranking == [1, 3]
    t = nrtm_import.store(plan, owner)
    assert sorted((e.player.name, e.seed, e.rank) for e in db.session.scalars(
        sa.select(CutEntry).filter_by(tournament_id=t.id))) == [("Eli", 1, 1), ("Gus", 2, 2)]
    cut = cut_service.load(t)
    assert [(r["name"], r["champion"]) for r in cut.final_standings()[:2]] == [("Eli", True), ("Gus", False)]
    assert cut.name(cut.bracket.champion()) == "Eli" and cut.name(cut.bracket.games_champion()) == "Gus"
    out = nrtm_export.export(t, URL)
    assert out["eliminationPlayers"] == doc["eliminationPlayers"]
    assert _stored_fields(out)["rounds"][1:] == _stored_fields(doc)["rounds"][1:]  # the final as played
    page = html.unescape(client.get(f"/t/{t.slug}/bracket").get_data(as_text=True))
    assert "Champion: <strong>Eli</strong>" in page and "Ranked as the imported file ranks the cut" in page
    assert re.search(r"<td>Eli</td>\s*<td>seed 1, champion</td>", page)
    assert cut_service.champions([t]) == {t.id: "Eli"}
    api = client.get(f"/api/tournaments/{t.slug}/bracket").get_json()
    assert [r["name"] for r in api["standings"][:2]] == ["Eli", "Gus"]
    copy = restore_service.restore(json.dumps(backup_service.backup(t)).encode(), owner)
    assert nrtm_export.export(copy, URL)["eliminationPlayers"] == doc["eliminationPlayers"]

    final = cut.bracket.games[-1]
    cut_service.report(t, final.id, final.winner)  # the TO re-enters the final here: the games rank it now
    cut = cut_service.load(t)
    assert [r["name"] for r in cut.final_standings()[:2]] == ["Gus", "Eli"] and cut.bracket.file_ranking is None
    assert "Ranked as the imported file" not in client.get(f"/t/{t.slug}/bracket").get_data(as_text=True)


def test_a_ranking_that_only_orders_players_out_together_is_kept_without_a_warning(app, make_user):
    """Two players out in the same cut round may come in either order: the file's order is kept, and it is no
    contradiction."""
    from app.services import cut as cut_service

    doc = _file("cobra_single_sided_double_elimination")
    t = nrtm_import.import_file(_bytes(doc), make_user())
    cut = cut_service.load(t)
    order = [cut.name(p) for p in cut.bracket.final_standings()]
    out = {cut.name(p): r for p, r in cut.bracket.out_rounds().items()}
    together = [i for i in range(len(order) - 1) if order[i] in out and out[order[i]] == out.get(order[i + 1])]
    assert together, "the fixture has two players out in the same round"
    by_name = {e["name"]: e for e in doc["eliminationPlayers"]}
    first, second = by_name[order[together[0]]], by_name[order[together[0] + 1]]
    first["rank"], second["rank"] = second["rank"], first["rank"]
    plan = nrtm_import.check(_bytes(doc))
    assert not any("eliminationPlayers" in w for w in plan.warnings) and plan.cut_ranking
    swapped = nrtm_import.store(plan, t.owner)

    def ranks(entries):
        return sorted((e["name"], e["rank"], e["seed"]) for e in entries)
    assert ranks(nrtm_export.export(swapped, URL)["eliminationPlayers"]) == ranks(doc["eliminationPlayers"])


@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("*.json")))
def test_every_fixture_round_trips_what_sass_stores(app, make_user, name):
    """Import then export gives back what SASS stores of each file: players (identities, factions, pronouns,
    points), every pairing in its seats, the cut's seeds and ranks, the organiser, name and date."""
    doc = _file(name)
    plan = nrtm_import.check(_bytes(doc))
    t = nrtm_import.store(plan, make_user())
    out = nrtm_export.export(t, URL)
    if name.startswith("aesops"):  # Aesop's Tables' own shape (tableNumber, side scores): compared elsewhere
        doc = nrtm_export.export(nrtm_import.import_file(_bytes(out), t.owner), URL)
    assert _stored_fields(out) == _stored_fields(doc)
    given = {p["name"] for p in doc["players"] if "corpFaction" in p}
    assert {k: v for k, v in _factions(out).items() if k in given} == _factions(doc)
    names = {p["id"]: p["name"] for p in doc["players"]}
    names_out = {p["id"]: p["name"] for p in out["players"]}
    assert sorted((names_out[e["id"]], e["seed"], e["rank"]) for e in out["eliminationPlayers"]) == \
        sorted((names[e["id"]], e["seed"], e["rank"]) for e in doc["eliminationPlayers"])
    assert out["name"] == doc["name"]
    if doc.get("date"):
        assert out["date"] == doc["date"]
    if doc.get("tournamentOrganiser"):
        assert {k: v for k, v in out["tournamentOrganiser"].items() if v is not None} == \
            {k: v for k, v in doc["tournamentOrganiser"].items() if v is not None}


def test_ranks_that_are_no_ranking_are_left_to_the_games(app, make_user):
    doc = _file("cobra_typo_score_and_ranking")
    doc["eliminationPlayers"][1]["rank"] = 1  # two firsts
    plan = nrtm_import.check(_bytes(doc))
    assert plan.cut_ranking == [] and any("ranks are not 1, 2, 3" in w for w in plan.warnings)
    doc["eliminationPlayers"][1]["rank"] = "2"
    assert nrtm_import.check(_bytes(doc)).cut_ranking == []
    for e in doc["eliminationPlayers"]:
        del e["rank"]
    plan = nrtm_import.check(_bytes(doc))
    assert plan.cut_ranking == [] and not any("eliminationPlayers" in w for w in plan.warnings)

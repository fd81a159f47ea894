"""Real files, round three (issue 29), each quirk in a small synthetic file written here from its description: a
penalty's negative score, a bye sharing a game's table, `table: null` in round 1 (three Cobra files ABR accepted
and SASS refused), a bye the file scores 0 or 7, matchPoints that contradict the games (Aesop's Tables), the NRTM
app's faction names, twoForOne, a double-sided 3-3 without side scores, and a swiss #2 who declined the cut. What
SASS adjusts is listed before anything is written, with "Import anyway"; the exported ranks are the swiss order."""
from __future__ import annotations

import html
import io
import json
import re

import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Player, Seat, Tournament
from app.services import state
from app.services.event_files import nrtm_export, nrtm_import

URL = "https://sass.example/t/x"
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eun", "Finn"]


def _players(points: dict, ranks: list = None) -> list:
    ranks = ranks or sorted(points, key=lambda n: -points[n])
    return [{"id": NAMES.index(n) + 1, "name": n, "rank": ranks.index(n) + 1, "matchPoints": points[n],
             "corpIdentity": "Haas-Bioroid: Engineering the Future", "corpFaction": "haas-bioroid",
             "runnerIdentity": "Noise: Hacker Extraordinaire", "runnerFaction": "anarch"} for n in points]


def _seat(name, role, score):
    return {"id": None if name is None else NAMES.index(name) + 1, "role": role,
            "corpScore": score if role == "corp" else None, "runnerScore": score if role == "runner" else None,
            "combinedScore": score}


def _game(table, corp, corp_score, runner, runner_score, two_for_one=False):
    return {"table": table, "player1": _seat(corp, "corp", corp_score), "player2": _seat(runner, "runner", runner_score),
            "intentionalDraw": False, "twoForOne": two_for_one, "eliminationGame": False}


def _bye(table, name, score=3):
    return {"table": table, "player1": _seat(name, None, score), "player2": _seat(None, None, 0),
            "intentionalDraw": False, "twoForOne": False, "eliminationGame": False}


def _doc(players, rounds, **extra) -> dict:
    return {"name": "Real quirks", "date": "2024-06-01", "cutToTop": 0, "preliminaryRounds": len(rounds),
            "players": players, "eliminationPlayers": [], "rounds": rounds, "uploadedFrom": "Cobra", **extra}


def _upload(client, doc):
    return client.post("/tournaments/import", data={"file": (io.BytesIO(json.dumps(doc).encode()), "e.json")},
                       content_type="multipart/form-data")


def _review_then_import(client, doc) -> tuple[str, Tournament]:
    """The review page (nothing written yet), then "Import anyway": (the page's text, the new event)."""
    before = db.session.scalar(sa.select(sa.func.count()).select_from(Tournament))
    response = _upload(client, doc)
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 200 and "Nothing has been created yet" in page and "Import anyway" in page
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == before
    token = re.search(r'name="token"[^>]*value="([^"]*)"', page).group(1)
    assert client.post("/tournaments/import/confirm", data={"token": token}).status_code in (302, 303)
    return page, db.session.scalars(sa.select(Tournament).order_by(Tournament.id.desc())).first()


def _points(t) -> dict:
    return {r.name: r.points for r in state.swiss_standings(t)}


def test_a_penalty_is_kept_as_a_penalty(client, make_user, login):
    """Cobra: Dev's runner game carries -1 (a penalty, already in their matchPoints). Listed first; imported, the
    game is a Corp win, Dev has 0 points from it and a penalty of 1, which their standings count; the export
    writes -1 back and every rank and point the file gave."""
    make_user()
    login()
    rounds = [[_game(1, "Ana", 3, "Ben", 0), _game(2, "Cleo", 3, "Dev", -1)],
              [_game(1, "Ana", 3, "Cleo", 0), _game(2, "Ben", 1, "Dev", 1)]]
    doc = _doc(_players({"Ana": 6, "Cleo": 3, "Ben": 1, "Dev": 0}), rounds)
    page, t = _review_then_import(client, doc)
    assert "Round 1 table 2: Dev's score is -1, a penalty: SASS keeps it as a penalty of 1 point" in page
    seat = db.session.scalars(sa.select(Seat).join(Player, Player.id == Seat.player_id)
                              .where(Player.name == "Dev", Seat.tournament_id == t.id)
                              .order_by(Seat.round_id)).first()
    assert (seat.points, seat.penalty, seat.match.result) == (0, 1, "corp")
    assert _points(t) == {"Ana": 6, "Cleo": 3, "Ben": 1, "Dev": 0}
    out = nrtm_export.export(t, URL)
    assert out["rounds"][0][1]["player2"] == {"id": 4, "role": "runner", "corpScore": None, "runnerScore": -1,
                                              "combinedScore": -1}
    assert [(p["name"], p["rank"], p["matchPoints"]) for p in out["players"]] == \
        [(p["name"], p["rank"], p["matchPoints"]) for p in doc["players"]]


def test_a_bye_sharing_a_games_table_and_null_tables_are_numbered_after_the_last(client, make_user, login):
    """Cobra: round 2's bye has table 1, as a game does; round 1 has `table: null` on two pairings. Each gets the
    next number after the round's last table, listed first; the pairings and points are the file's."""
    make_user()
    login()
    rounds = [[_game(None, "Ana", 3, "Ben", 0), _game(2, "Cleo", 0, "Dev", 3), _game(None, "Eun", 1, "Finn", 1)],
              [_game(1, "Ana", 3, "Dev", 0), _game(2, "Finn", 3, "Cleo", 0), _game(3, "Ben", 1, "Eun", 1)],
              [_game(1, "Ana", 3, "Finn", 0), _game(2, "Dev", 3, "Eun", 0), _bye(1, "Ben")]]  # Cleo has left
    points = {"Ana": 9, "Dev": 6, "Finn": 4, "Ben": 4, "Eun": 2, "Cleo": 0}
    page, t = _review_then_import(client, _doc(_players(points), rounds))
    assert "Round 1: the pairing Ana v Ben has no table number (null); SASS numbers it table 3" in page
    assert "Round 1: the pairing Eun v Finn has no table number (null); SASS numbers it table 4" in page
    assert "Round 3: Ben's bye shares table 1 with a game; SASS numbers it table 3" in page
    tables = {(m.round.number, m.table): sorted(s.player.name for s in m.seats)
              for m in db.session.scalars(sa.select(Match).where(Match.tournament_id == t.id))}
    assert tables[(1, 3)] == ["Ana", "Ben"] and tables[(1, 4)] == ["Eun", "Finn"] and tables[(3, 3)] == ["Ben"]
    assert _points(t) == points


def test_a_byes_points_stand_whatever_they_are(client, make_user, login):
    """A double-sided bye the file scores 0, another 7: the file's points stand (the page says so), and nobody
    moves."""
    make_user()
    login()

    def ds(table, a, pa, b, pb):
        return {"table": table, "player1": {"id": NAMES.index(a) + 1, "corpScore": None, "runnerScore": None,
                                            "combinedScore": pa},
                "player2": {"id": NAMES.index(b) + 1, "corpScore": None, "runnerScore": None, "combinedScore": pb},
                "intentionalDraw": False, "twoForOne": False, "eliminationGame": False}

    def bye(table, name, score):
        return {"table": table, "player1": {"id": NAMES.index(name) + 1, "corpScore": None, "runnerScore": None,
                                            "combinedScore": score},
                "player2": {"id": None, "corpScore": None, "runnerScore": None, "combinedScore": 0},
                "intentionalDraw": False, "twoForOne": False, "eliminationGame": False}

    rounds = [[ds(1, "Ana", 6, "Ben", 0), bye(2, "Cleo", 0)], [ds(1, "Cleo", 6, "Ana", 0), bye(2, "Ben", 7)]]
    points = {"Ben": 7, "Ana": 6, "Cleo": 6}
    page, t = _review_then_import(client, _doc(_players(points, ["Ben", "Ana", "Cleo"]), rounds))
    assert "Round 1 table 2: Cleo's bye is worth 0 points in the file (a bye is 6); the file's points stand." in page
    assert "Round 2 table 2: Ben's bye is worth 7 points in the file (a bye is 6)" in page
    assert _points(t) == points
    out = nrtm_export.export(t, URL)
    assert [(p["name"], p["rank"], p["matchPoints"]) for p in out["players"]] == [("Ben", 1, 7), ("Ana", 2, 6),
                                                                                   ("Cleo", 3, 6)]
    assert out["rounds"][0][1]["player1"]["combinedScore"] == 0


def test_matchpoints_that_contradict_the_games_are_listed(client, make_user, login):
    """Aesop's Tables: Ben's matchPoints say 3, his games 0; Ana is ranked below him. Both listed; the games
    stand."""
    make_user()
    login()
    rounds = [[_game(1, "Ana", 3, "Ben", 0)]]
    page, t = _review_then_import(client, _doc(_players({"Ben": 3, "Ana": 3}, ["Ben", "Ana"]), rounds,
                                               uploadedFrom="AesopsTables"))
    assert "1 player's matchPoints differ from the points their games give; SASS counts the games: Ben (3 points " \
           "in the file, 0 points from the games)." in page
    assert "Ben (1st in the file, 2nd here)" in page
    assert _points(t) == {"Ana": 3, "Ben": 0}


def test_the_nrtm_apps_faction_names_and_two_for_one_round_trip(client, make_user, login):
    """The NRTM app writes factions by name ("Weyland", "Sunny Lebeau"); an identity SASS does not know keeps
    the faction they name. twoForOne comes back as the file gave it."""
    make_user()
    login()
    players = _players({"Ana": 3, "Ben": 0})
    players[0].update(corpIdentity="Homebrew: Next Year's Corp", corpFaction="Weyland",
                      runnerIdentity="Homebrew: Next Year's Runner", runnerFaction="Sunny Lebeau")
    players[1].update(corpIdentity="Homebrew: Neutral Corp", corpFaction="Neutral")
    doc = _doc(players, [[_game(1, "Ana", 3, "Ben", 0, two_for_one=True)]])
    assert nrtm_import.check(json.dumps(doc).encode()).warnings == []
    assert _upload(client, doc).status_code in (302, 303)
    t = db.session.scalars(sa.select(Tournament)).one()
    out = nrtm_export.export(t, URL)
    factions = {p["name"]: (p["corpFaction"], p["runnerFaction"]) for p in out["players"]}
    assert factions == {"Ana": ("weyland-consortium", "sunny-lebeau"), "Ben": ("neutral-corp", "anarch")}
    assert out["rounds"][0][0]["twoForOne"] is True


def test_a_double_sided_total_without_side_scores_is_not_guessed(client, make_user, login):
    """3-3 with only combinedScore: kept as 3-3 (flagged), its side scores exported as null, not as two Corp
    wins; the statistics count no game for it."""
    make_user()
    login()
    seat = lambda n, s: {"id": NAMES.index(n) + 1, "corpScore": None, "runnerScore": None, "combinedScore": s}  # noqa
    rounds = [[{"table": 1, "player1": seat("Ana", 3), "player2": seat("Ben", 3), "intentionalDraw": False,
                "twoForOne": False, "eliminationGame": False}]]
    page, t = _review_then_import(client, _doc(_players({"Ana": 3, "Ben": 3}, ["Ana", "Ben"]), rounds))
    assert "1 double-sided game gives only a total that does not say which side won each game" in page
    assert db.session.scalars(sa.select(Match.result).where(Match.tournament_id == t.id)).one() == "3-3"
    out = nrtm_export.export(t, URL)
    assert out["rounds"][0][0]["player1"] == {"id": 1, "corpScore": None, "runnerScore": None, "combinedScore": 3}


def test_exported_ranks_are_the_swiss_order_when_the_swiss_2_declined_the_cut(client, make_user, login):
    """The cut seeds swiss #1 and #3 (Ben, #2, declined): the file ranks Ben 2nd, as the swiss placed him; the
    cut's order stays in eliminationPlayers; the standings page still lists the cut's players first."""
    make_user()
    login()
    rounds = [[_game(1, "Ana", 3, "Dev", 0), _game(2, "Ben", 3, "Cleo", 0)],
              [_game(1, "Ana", 3, "Ben", 0), _game(2, "Cleo", 3, "Dev", 0)],
              [{"table": 1, "player1": {"id": 1, "role": "corp", "winner": False},
                "player2": {"id": 3, "role": "runner", "winner": True}, "intentionalDraw": False,
                "twoForOne": False, "eliminationGame": True}]]
    players = _players({"Ana": 6, "Ben": 3, "Cleo": 3, "Dev": 0}, ["Ana", "Ben", "Cleo", "Dev"])
    doc = _doc(players, rounds, cutToTop=2, eliminationPlayers=[{"id": 3, "name": "Cleo", "rank": 1, "seed": 2},
                                                                 {"id": 1, "name": "Ana", "rank": 2, "seed": 1}])
    assert nrtm_import.check(json.dumps(doc).encode()).warnings == []
    assert _upload(client, doc).status_code in (302, 303)
    t = db.session.scalars(sa.select(Tournament)).one()
    out = nrtm_export.export(t, URL)
    assert [(p["name"], p["rank"]) for p in out["players"]] == [("Ana", 1), ("Ben", 2), ("Cleo", 3), ("Dev", 4)]
    assert [(e["name"], e["seed"], e["rank"]) for e in out["eliminationPlayers"]] == [("Cleo", 2, 1), ("Ana", 1, 2)]
    assert [r.name for r in state.standings(t)][:2] == ["Ana", "Cleo"]  # pages: the cut's players first

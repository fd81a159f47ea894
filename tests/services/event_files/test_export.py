"""CSV exports read back with the csv module: the numbers, the file names, formula escaping."""
from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest

from app.extensions import db
from app.models import Player
from app.services import state
from app.services.event_files.export import exact_decimal, filename, safe_cell
from app.core.standings import compute_standings
from tests.web.views.test_rounds import matches, pair, report_all, setup_event


def read(response) -> list[dict]:
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))


def terminates(value: Fraction) -> bool:
    den = value.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    return den == 1


def test_standings_csv_numbers(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=7, name="Store Champs 2026")
    players[0].corp_identity, players[0].runner_identity = "Haas-Bioroid: Precision Design", "Hoshiko Shiro"
    players[1].dropped = True
    db.session.commit()
    for number in (1, 2, 3):
        pair(client, t, number)
        report_all(client, t, number, "runner" if number == 2 else "corp")
    m = matches(t, 3)[0][0]
    client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "id"})
    response = client.get(f"/tournaments/{t.id}/standings.csv")
    assert response.headers["Content-Disposition"] == 'attachment; filename="Store-Champs-2026-standings.csv"'
    rows = read(response)
    # player 1 dropped before round 1: never played, so in no results (the old file ranked them last)
    expected = compute_standings(t.fmt, state.entrants(t), state.completed_games(t), left_out={players[1].id})
    assert len(rows) == 6 and players[1].name not in {r["name"] for r in rows}
    for row, s in zip(rows, expected):
        assert int(row["rank"]) == s.rank and row["name"] == s.name and int(row["points"]) == s.points
        sos, esos = (Fraction(row[k]) for k in ("SoS", "ESoS"))
        for got, exact in ((sos, s.tiebreakers[0]), (esos, s.tiebreakers[1])):
            assert abs(got - exact) < Fraction(1, 10**11)
            if terminates(exact):
                assert got == exact
        assert row["record (W-L-T)"] == f"{s.wins}-{s.losses}-{s.ties}"
        assert (int(row["corp games"]), int(row["runner games"]), row["side balance"]) == (s.corp, s.runner, s.side_label)
        assert row["dropped"] == ("yes" if s.dropped else "") and row["status"] == ""
    ann = [r for r in rows if r["name"] == players[0].name][0]
    assert (ann["corp identity"], ann["runner identity"]) == ("Haas-Bioroid: Precision Design", "Hoshiko Shiro")
    assert sum(int(r["points"]) for r in rows) == sum(s.points for s in expected)


def test_games_csv(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=5)
    pair(client, t, 1)
    report_all(client, t, 1, "corp")
    pair(client, t, 2)
    response = client.get(f"/tournaments/{t.id}/games.csv")
    assert response.headers["Content-Disposition"] == 'attachment; filename="Store-Championship-games.csv"'
    rows = read(response)
    assert len(rows) == 6  # 3 tables a round (2 games and a bye)
    names = {p.id: p.name for p in players}
    for number in (1, 2):
        for m, seats in matches(t, number):
            (row,) = [r for r in rows if r["round"] == str(number) and r["table"] == str(m.table)]
            assert row["player 1"] == names[seats[0].player_id]
            if m.is_bye:
                assert (row["player 2"], row["player 1 points"], row["result"]) == ("BYE", "3", "Bye")
            else:
                assert row["player 2"] == names[seats[1].player_id]
                assert (row["player 1 side"], row["player 2 side"]) == ("corp", "runner")
                if number == 1:
                    assert (row["player 1 points"], row["player 2 points"], row["result"]) == ("3", "0", "Corp win")
                else:
                    assert (row["player 1 points"], row["player 2 points"], row["result"]) == ("", "", "")


def test_plain_games_csv_has_games(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=2, fmt="plain")
    pair(client, t, 1)
    report_all(client, t, 1, "2-1")
    (row,) = read(client.get(f"/tournaments/{t.id}/games.csv"))
    assert (row["player 1 games won"], row["player 2 games won"], row["player 1 points"], row["result"]) == \
        ("2", "1", "3", "2-1")


def test_formula_injection_is_escaped(make_user, make_tournament, login):
    evil = ["=HYPERLINK(\"http://x\")", "+1+cmd", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]
    client, t, players = setup_event(make_user, make_tournament, login, n=len(evil), fmt="plain",
                                     tiebreakers="wow", name="=cmd|' /C calc'!A0")
    for p, name in zip(players, evil):
        p.name = name
        p.corp_identity = "@evil"
    db.session.commit()
    pair(client, t, 1)
    report_all(client, t, 1, "2-0")
    standings = client.get(f"/tournaments/{t.id}/standings.csv")
    assert standings.headers["Content-Disposition"] == 'attachment; filename="cmd-C-calc-A0-standings.csv"'
    rows = read(standings)
    assert sorted(r["name"] for r in rows) == sorted("'" + n for n in evil)
    assert all(r["corp identity"] == "'@evil" for r in rows)
    assert {r["Opp W-L"] for r in rows} == {"-1", "1"}  # negative numbers stay numbers
    for row in read(client.get(f"/tournaments/{t.id}/games.csv")):
        assert row["player 1"].startswith("'") and row["player 2"].startswith("'")


@pytest.mark.parametrize("value,cell", [
    ("=1+1", "'=1+1"), ("-3", "-3"), ("-1.5", "-1.5"), ("-x", "'-x"), ("Ann", "Ann"), (3, 3), ("", ""),
    ("@", "'@"), ("+", "'+"), ("\t1", "'\t1"),
])
def test_safe_cell(value, cell):
    assert safe_cell(value) == cell


def test_exact_decimal():
    assert exact_decimal(Fraction(3, 2)) == "1.5"
    assert exact_decimal(Fraction(21, 4)) == "5.25"
    assert exact_decimal(Fraction(12)) == "12"
    assert exact_decimal(Fraction(-3)) == "-3"
    assert exact_decimal(Fraction(1, 3)) == "0.333333333333"
    assert exact_decimal(Fraction(1, 10**8)) == "0.00000001"


def test_filename_is_sanitised(app):
    class T:
        name = 'Wörlds "2026" / ;\r\nSet-Cookie: x'

    assert filename(T, "games") == "Wörlds-2026-Set-Cookie-x-games.csv"  # letters of any script stay
    T.name = "ÄÖÜ"
    assert filename(T, "standings") == "ÄÖÜ-standings.csv"
    T.name = "?!"
    assert filename(T, "standings") == "tournament-standings.csv"


def test_exports_need_the_owner(make_user, make_tournament, login, client):
    t = make_tournament(make_user(email="owner@example.com"))
    db.session.add(Player(tournament_id=t.id, name="Ann"))
    db.session.commit()
    for path in ("standings.csv", "games.csv"):
        assert client.get(f"/tournaments/{t.id}/{path}").status_code in (302, 401)
    make_user(email="nosy@example.com")
    login(email="nosy@example.com")
    for path in ("standings.csv", "games.csv"):
        assert client.get(f"/tournaments/{t.id}/{path}").status_code == 403

"""The TO's standings page: live from the engine, tiebreakers, record, side balance, dropped players."""
from __future__ import annotations

import re
from fractions import Fraction

from app.extensions import db
from app.services import state
from app.core.standings import TIEBREAKERS, compute_standings
from app.web.template_helpers import tiebreak
from tests.web.views.test_rounds import matches, pair, report_all, setup_event


def rows(page: str) -> list[str]:
    body = re.split(r"<tbody[^>]*>", page, maxsplit=1)[1].split("</tbody>", 1)[0]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", tr)).strip() for tr in body.split("</tr>")[:-1]]


def test_pair_report_and_standings_follow(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=4)
    url = f"/tournaments/{t.id}/standings"
    before = client.get(url).get_data(as_text=True)
    assert "SoS" in before and "ESoS" in before
    pair(client, t, 1)
    (m, (corp, runner)), _ = matches(t, 1)
    corp_id, runner_id = corp.player_id, runner.player_id
    client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "corp"})
    names = {p.id: p.name for p in players}
    page = client.get(url).get_data(as_text=True)
    top = rows(page)[0]
    assert top.startswith(f"1 {names[corp_id]}") and " 3 " in f" {top} " and "1-0-0" in top and "Corp +1" in top
    assert any(names[runner_id] in r and "0-1-0" in r and "Runner +1" in r for r in rows(page))
    # editing the result turns the table around at once
    client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "runner"})
    assert rows(client.get(url).get_data(as_text=True))[0].startswith(f"1 {names[runner_id]}")


def test_tiebreakers_match_the_engine_with_three_decimals(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=6)
    for number in (1, 2):
        pair(client, t, number)
        report_all(client, t, number, "corp")
    first, *_ = matches(t, 2)
    client.post(f"/tournaments/{t.id}/matches/{first[0].id}/result", data={"result": "tie"})
    players[5].dropped = True
    db.session.commit()
    expected = compute_standings(t.fmt, state.entrants(t), state.completed_games(t))
    page = client.get(f"/tournaments/{t.id}/standings").get_data(as_text=True)
    got = rows(page)
    assert len(got) == 6
    for row, s in zip(got, expected):
        assert row.startswith(f"{s.rank} {s.name}")
        for value in s.tiebreakers:
            assert tiebreak(value) in row
        assert f"{s.wins}-{s.losses}-{s.ties}" in row and s.side_label in row
    assert "dropped" in [r for r in got if players[5].name in r][0]


def test_tiebreak_filter():
    assert tiebreak(Fraction(3, 2)) == "1.500"
    assert tiebreak(Fraction(2, 3)) == "0.667"
    assert tiebreak(Fraction(1, 3)) == "0.333"
    assert tiebreak(Fraction(-3)) == "-3"
    assert tiebreak(Fraction(21, 4)) == "5.250"


def test_plain_swiss_shows_magic_tiebreakers_and_no_sides(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, fmt="plain")
    pair(client, t, 1)
    report_all(client, t, 1, "2-1")
    page = client.get(f"/tournaments/{t.id}/standings").get_data(as_text=True)
    for name in TIEBREAKERS["magic"]:
        assert f">{name}<" in page
    assert "Balanced" not in page and "Sides" not in page


def test_wow_tiebreakers_by_setting(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, fmt="plain", tiebreakers="wow")
    pair(client, t, 1)
    report_all(client, t, 1, "2-0")
    page = client.get(f"/tournaments/{t.id}/standings").get_data(as_text=True)
    assert ">Opp W-L<" in page and ">-1<" in page  # a winner's only opponent went 0-1


def test_standings_need_the_owner(make_user, make_tournament, login, client):
    owner = make_user(email="owner@example.com")
    t = make_tournament(owner)
    assert client.get(f"/tournaments/{t.id}/standings").status_code in (302, 401)
    make_user(email="nosy@example.com")
    login(email="nosy@example.com")
    assert client.get(f"/tournaments/{t.id}/standings").status_code == 403
    assert client.get("/tournaments/999999/standings").status_code == 404


def test_standings_say_which_rounds_they_include(make_user, make_tournament, login, app):
    client, t, _ = setup_event(make_user, make_tournament, login, n=8)
    url, public = f"/tournaments/{t.id}/standings", f"/t/{t.slug}/standings"
    anon = app.test_client()
    pair(client, t, 1)
    client.post(f"/tournaments/{t.id}/rounds/1/publish")
    assert "round 1 in progress, 0 of 4 results" in client.get(url).get_data(as_text=True)
    assert "round 1 in progress, 0 of 4 results" in anon.get(public).get_data(as_text=True)
    report_all(client, t, 1, "corp")
    pair(client, t, 2)
    client.post(f"/tournaments/{t.id}/rounds/2/publish")
    (m, _), *_ = matches(t, 2)
    client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "runner"})
    for page in (client.get(url).get_data(as_text=True), anon.get(public).get_data(as_text=True)):
        assert "after round 1; round 2 in progress, 1 of 4 results" in page
        assert "after round 2" not in page
    report_all(client, t, 2, "corp")
    page = client.get(url).get_data(as_text=True)
    assert "after round 2" in page and "in progress" not in page
    pair(client, t, 3)  # paired, not published: the public page still shows round 2 complete
    assert "after round 2; round 3 in progress, 0 of 4 results" in client.get(url).get_data(as_text=True)
    public_page = anon.get(public).get_data(as_text=True)
    assert "after round 2" in public_page and "in progress" not in public_page


def test_magic_percentages_on_pages_exact_numbers_in_csv_and_api(make_user, make_tournament, login, app):
    client, t, _ = setup_event(make_user, make_tournament, login, n=6, fmt="plain")
    for number in (1, 2):
        pair(client, t, number)
        client.post(f"/tournaments/{t.id}/rounds/{number}/publish")
        report_all(client, t, number, "2-1")
    expected = compute_standings(t.fmt, state.entrants(t), state.completed_games(t))
    pages = (client.get(f"/tournaments/{t.id}/standings").get_data(as_text=True),
             app.test_client().get(f"/t/{t.slug}/standings").get_data(as_text=True))
    for page in pages:
        for row, s in zip(rows(page), expected):
            for value in s.tiebreakers:
                shown = f"{float(value * 100):.1f}%"
                assert f" {shown}" in f" {row}", (shown, row)
            assert not re.search(r" 0\.\d{3} ", f" {row} ")  # no 0.444 left on the page
    csv = client.get(f"/tournaments/{t.id}/standings.csv").get_data(as_text=True)
    header, *body = csv.splitlines()
    assert "OMW%" in header and "%" not in "".join(body)
    assert "0.666666666667" in csv  # a 2-1 winner's GW% stays an exact number
    api = app.test_client().get(f"/api/tournaments/{t.slug}/standings").get_json()
    top = expected[0]
    assert api["standings"][0]["tiebreakers"]["OMW%"] == round(float(top.tiebreakers[0]), 6)


def test_percentage_tiebreak_filter():
    assert tiebreak(Fraction(4, 9), "OMW%") == "44.4%"
    assert tiebreak(Fraction(1), "GW%") == "100.0%"
    assert tiebreak(Fraction(1, 3), "OGW%") == "33.3%"
    assert tiebreak(Fraction(4, 9), "SoS") == "0.444"

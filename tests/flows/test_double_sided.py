"""Double-sided rounds stored as two games: players' reports, the API, the CSV, backups (old and new) and the
migration that converted stored totals."""
from __future__ import annotations

import pytest
import csv
import io
import json
import re

import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from app.extensions import db
from app.models import Player, Tournament
from app.services.event_files import backup as backup_service
from cut_helpers import add_players, add_round
from tests.services.results.test_participation import link, player_report, published_round, state
from tests.web.views.test_rounds import matches, setup_event

CORPS_WON, RUNNERS_WON = "3-0/0-3", "0-3/3-0"


def _first_table(t):
    m, seats = [(m, s) for m, s in matches(t, 1) if not m.is_bye][0]
    first, second = (db.session.get(Player, s.player_id) for s in seats)
    return m, first, second


@pytest.mark.slow
def test_players_report_which_three_three(app, make_user, make_tournament, login):
    """The one-tap buttons on the phone tell the two 3-3s apart; claims that differ only there are a dispute."""
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, fmt="double")
    published_round(client, t)
    m, first, second = _first_table(t)
    for player in (first, second):  # each reads both games from their own side
        page = app.test_client().get(link(t, player)).get_data(as_text=True)
        drew = 'We drew <span class="nowrap">3-3</span>'  # the score never breaks in a narrow button
        assert re.search(rf'value="{CORPS_WON}"[^>]*>{drew}: each won as Corp<', page)
        assert re.search(rf'value="{RUNNERS_WON}"[^>]*>{drew}: each won as Runner<', page)
    assert player_report(app, t, first, m.id, CORPS_WON).status_code == 303
    assert player_report(app, t, second, m.id, RUNNERS_WON).status_code == 303
    assert state(t, m.id) == (None, sorted([CORPS_WON, RUNNERS_WON]), [(1, None), (2, None)])
    round_page = client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert "Disputed" in round_page and "3-3 Corps won" in round_page and "3-3 Runners won" in round_page
    assert player_report(app, t, second, m.id, CORPS_WON).status_code == 303  # second thoughts: they agree
    assert state(t, m.id) == (CORPS_WON, [CORPS_WON, CORPS_WON], [(1, 3), (2, 3)])


def test_players_cannot_report_a_bare_total_or_a_custom_result(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, fmt="double")
    published_round(client, t)
    m, first, _ = _first_table(t)
    for key in ("3-3", "6-0", "3-0/1-1", "3-0/0-3/3-0"):  # not a button
        player_report(app, t, first, m.id, key)
        assert state(t, m.id) == (None, [], [(1, None), (2, None)])


def test_api_and_csv_show_each_game(client, make_user, make_tournament, login):
    owner = make_user()
    t = make_tournament(owner, format="double")
    a, b, c, d, e = add_players(t, ["Ann", "Ben", "Cat", "Dan", "Eve"])
    add_round(t, 1, [(a, b, RUNNERS_WON), (c, d, "3-0/1-1"), (e, None, None)])
    seats = client.get(f"/api/tournaments/{t.slug}/rounds/1").get_json()["pairings"][0]["seats"]
    assert [(s["name"], s["points"], s["corp_points"], s["runner_points"]) for s in seats] == [
        ("Ann", 3, 0, 3), ("Ben", 3, 0, 3)]
    bye = client.get(f"/api/tournaments/{t.slug}/rounds/1").get_json()["pairings"][2]["seats"]
    assert bye == [{"player": e.id, "name": "Eve", "points": 6}]
    login()
    rows = list(csv.DictReader(io.StringIO(client.get(f"/tournaments/{t.id}/games.csv").get_data(as_text=True))))
    assert [(r["player 1"], r["player 1 points"], r["player 1 as corp"], r["player 1 as runner"], r["player 2"],
             r["player 2 points"], r["player 2 as corp"], r["player 2 as runner"], r["result"]) for r in rows] == [
        ("Ann", "3", "0", "3", "Ben", "3", "0", "3", "3-3 Runners won"),
        ("Cat", "4", "3", "1", "Dan", "1", "1", "0", "4-1 (Corp win, then tie)"),
        ("Eve", "6", "", "", "BYE", "", "", "", "Bye")]


def _restore(client, data):
    return client.post("/tournaments/restore", data={"file": (io.BytesIO(json.dumps(data).encode()), "b.json")},
                       content_type="multipart/form-data")


def test_backups_keep_both_games_and_old_backups_still_restore(client, make_user, make_tournament, login):
    owner = make_user()
    t = make_tournament(owner, format="double")
    a, b, c, d, e = add_players(t, ["Ann", "Ben", "Cat", "Dan", "Eve"])
    add_round(t, 1, [(a, b, RUNNERS_WON), (c, d, "1-1/3-0"), (e, None, None)])
    data = backup_service.backup(t)
    assert data["version"] == backup_service.VERSION  # 2 and later name both games
    assert [m["result"] for m in data["rounds"][0]["matches"]] == [RUNNERS_WON, "1-1/3-0", "bye"]
    login()
    assert _restore(client, data).status_code in (302, 303)
    copy = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    assert [m.result for m in copy.rounds[0].matches] == [RUNNERS_WON, "1-1/3-0", "bye"]
    # a version 1 backup stored totals: they restore, the ambiguous ones by the documented default
    old = json.loads(json.dumps(data))
    old["version"] = 1
    for match, total in zip(old["rounds"][0]["matches"], ["3-3", "4-1", "bye"]):
        match["result"] = total
    assert _restore(client, old).status_code in (302, 303)
    oldest = db.session.scalars(sa.select(Tournament).order_by(Tournament.id.desc())).first()
    assert [m.result for m in oldest.rounds[0].matches] == [CORPS_WON, "3-0/1-1", "bye"]
    assert [[s.points for s in m.seats] for m in oldest.rounds[0].matches] == [[3, 3], [4, 1], [6]]
    # the points must still follow from the result, whichever form it has
    bad = json.loads(json.dumps(data))
    bad["rounds"][0]["matches"][0]["seats"][0]["points"] = 6
    assert _restore(client, bad).status_code == 400


@pytest.mark.slow
def test_migration_converts_stored_totals_and_back(unmigrated_app):
    upgrade(revision="5e1f7a3c9b20")
    run = lambda sql, **kw: db.session.execute(sa.text(sql), kw)  # noqa: E731
    run("INSERT INTO users (id, email, password_hash, is_admin, session_token, created_at) "
        "VALUES (1, 'a@b.c', 'x', false, 'tok', '2026-01-01')")
    for tid, fmt in ((1, "double"), (2, "plain")):
        run("INSERT INTO tournaments (id, owner_id, name, date, format, score_factor, power_pairing, slug, seed, "
            "single_report, version, round_minutes, registration_open, late_registration, created_at) VALUES "
            "(:tid, 1, 'T', '2026-01-01', :fmt, '2', false, :slug, 's', false, 0, 65, false, false, '2026-01-01')",
            tid=tid, fmt=fmt, slug=f"s{tid}")
        run("INSERT INTO rounds (id, tournament_id, number, published, created_at) "
            "VALUES (:tid, :tid, 1, true, '2026-01-01')", tid=tid)
    for mid, (tid, result) in enumerate([(1, "3-3"), (1, "4-1"), (1, "6-0"), (1, "2-2"), (1, None), (2, "1-1")], 1):
        run('INSERT INTO matches (id, tournament_id, round_id, "table", is_bye, result, intentional_draw, '
            "drawn_games) VALUES (:mid, :tid, :tid, :mid, false, :result, false, 0)", mid=mid, tid=tid, result=result)
    run("INSERT INTO players (id, tournament_id, name, name_key, corp_identity, runner_identity, pronouns, "
        "self_registered, dropped, first_round_bye, link_key, created_at) "
        "VALUES (1, 1, 'A', 'a', '', '', '', false, false, false, 'k', '2026-01-01')")
    run("INSERT INTO result_claims (id, tournament_id, match_id, player_id, result, created_at) "
        "VALUES (1, 1, 5, 1, '1-4', '2026-01-01')")
    db.session.commit()
    upgrade()

    def stored():
        return (db.session.scalars(sa.text("SELECT result FROM matches ORDER BY id")).all(),
                db.session.scalar(sa.text("SELECT result FROM result_claims")))

    assert stored() == (["3-0/0-3", "3-0/1-1", "3-0/3-0", "1-1/1-1", None, "1-1"], "1-1/0-3")
    assert db.session.scalar(sa.text("SELECT display_name || nrdb_username FROM users")) == ""
    run("UPDATE matches SET result = '0-3/3-0' WHERE id = 1")  # a Runners-won 3-3 entered after the upgrade
    db.session.commit()
    downgrade(revision="5e1f7a3c9b20")
    assert stored() == (["3-3", "4-1", "6-0", "2-2", None, "1-1"], "1-4")

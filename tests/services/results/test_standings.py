"""Who is in an event's results (docs/domain.md 7, 19a): a player out before they ever played (two no-shows) is in
no standings, count, file or statistic (the TO's standings list them apart under "Did not play"); a disqualified
player is listed after everyone, in every view, without a placing, and the public reads "dropped"; a waitlisted
registrant reads "You: waitlist position N", never "dropped". The day this was seen: phones said "place 7 of 18"
in a 16-player event."""
from __future__ import annotations

import csv
import html
import io
import random

import pytest
import sqlalchemy as sa

from app.core.penalties import Infraction, Kind
from app.extensions import db
from app.models import Player, Tournament
from app.services import cut as cut_service
from app.services import event_stats
from app.services.event_files import nrtm_export
from app.services.penalties import record as penalties
from app.services.players import player_links
from app.services.series import standings as series_standings
from cut_helpers import add_players, random_swiss

NO_SHOWS = ("Nora NoShow", "Nico NoShow")


@pytest.fixture
def event(make_user, make_tournament):
    """16 players who played three swiss rounds, two no-shows dropped before round 1 (never at a table), and the
    swiss leader then disqualified. Returns (tournament, owner, the disqualified player's id, the 16's ids)."""
    owner = make_user()
    t = make_tournament(owner, format="single")
    played = add_players(t, [f"P{i:02d}" for i in range(1, 17)])
    random_swiss(t, played, 3, random.Random(7))
    db.session.add_all(Player(tournament_id=t.id, name=n, dropped=True, drop_reason="no_show",
                              corp_identity="Nora Corp", runner_identity="Nora Runner") for n in NO_SHOWS)
    db.session.commit()
    leader = _names(t)[0]
    penalties.record(t, owner, leader, None, Infraction.CHEATING, Kind.DISQUALIFICATION)
    db.session.expire_all()
    return db.session.get(Tournament, t.id), owner, leader, [p.id for p in played]


def _names(t) -> list[int]:
    """The swiss order by the API, as player ids."""
    from app.services import state
    return [s.player for s in state.standings(t, published_only=True)]


def test_the_standings_service_leaves_out_the_no_shows_and_puts_the_disqualified_player_last(event):
    from app.services import state
    t, _, dq, played = event
    rows = state.standings(t)
    assert sorted(r.player for r in rows) == sorted(played)  # 16 rows, not 18
    assert rows[-1].player == dq and rows[-1].disqualified and [r.rank for r in rows] == list(range(1, 17))
    assert not any(r.disqualified for r in rows[:-1])


def test_the_tos_standings_list_the_no_shows_apart_and_say_disqualified(event, login, client):
    t, _, dq, _ = event
    login()
    page = client.get(f"/tournaments/{t.id}/standings").get_data(as_text=True)
    table, _, apart = page.partition('id="did-not-play"')
    assert apart, "no Did not play list"
    for name in NO_SHOWS:
        assert name not in table and name in apart
    assert apart.count("no-show (dropped), did not play") == 2
    rows = table.split('<tr data-names=')[1:]
    assert len(rows) == 16
    dq_name = db.session.get(Player, dq).name
    assert dq_name in rows[-1] and "disqualified" in rows[-1] and '>16</td>' in rows[-1]


def test_the_public_standings_and_the_api_leave_out_the_no_shows_and_hide_the_disqualification(event, app):
    t, _, dq, _ = event
    anon = app.test_client()
    page = anon.get(f"/t/{t.slug}/standings").get_data(as_text=True)
    assert not any(name in page for name in NO_SHOWS)
    assert "Did not play" not in page and "disqualified" not in page
    rows = page.split('<tr data-names=')[1:]
    assert len(rows) == 16 and db.session.get(Player, dq).name in rows[-1] and ">dropped<" in rows[-1]
    api = anon.get(f"/api/tournaments/{t.slug}/standings").get_json()["standings"]
    assert [r["rank"] for r in api] == list(range(1, 17)) and not any(r["name"] in NO_SHOWS for r in api)
    assert api[-1]["player"] == dq and api[-1]["status"] == "dropped" and api[-1]["dropped"]
    assert all(r["status"] == "" for r in api[:-1])


def test_the_api_reports_no_waitlist_once_round_1_is_paired_and_counts_who_played(event, app):
    t, *_ = event
    info = app.test_client().get(f"/api/tournaments/{t.slug}").get_json()
    assert info["waitlist"] is None and info["players"] == 16


def test_the_csv_and_the_nrtm_file(event, login, client):
    t, _, dq, _ = event
    login()
    text = client.get(f"/tournaments/{t.id}/standings.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 16 and not any(r["name"] in NO_SHOWS for r in rows)
    dq_name = db.session.get(Player, dq).name
    assert (rows[-1]["name"], rows[-1]["rank"], rows[-1]["status"]) == (dq_name, "16", "disqualified")
    document = nrtm_export.export(t, "https://example.org/t/x")
    players = document["players"]
    assert len(players) == 16 and not any(p["name"] in NO_SHOWS for p in players)
    last = max(players, key=lambda p: p["rank"])
    assert last["name"] == dq_name and last["rank"] == 16
    assert sorted(p["id"] for p in players) == list(range(1, 17))  # numbered among those the file holds


def test_the_statistics_count_no_no_show(event):
    t, *_ = event
    built = event_stats.build(t)
    assert built.swiss.players == 16
    ids = [line for side in built.swiss.identities for line in built.swiss.identities[side]]
    assert not any("Nora" in line.name for line in ids)
    assert sum(line.tally.players for line in built.swiss.identities[next(iter(built.swiss.identities))]) == 16


def test_place_n_of_m_counts_the_placed_players_only(event, app):
    t, owner, dq, played = event
    cut_service.create(t, 4, "single")
    phone = app.test_client()
    seeds = set(cut_service.load(t).bracket.seeds)
    assert dq not in seeds  # the disqualified leader is last, never seeded
    out = next(p for p in played if p not in seeds and p != dq)
    phone.get(f"/t/{t.slug}/p/{player_links.token(db.session.get(Player, out))}")
    banner = html.unescape(phone.get(f"/t/{t.slug}/me.json?page=standings").get_json()["you"])
    assert " of 15" in banner and " of 18" not in banner and " of 16" not in banner
    final = cut_service.load(t).final_standings()
    assert len(final) == 16 and final[-1]["player"] == dq and final[-1]["disqualified"]
    # the disqualified player's own banner: their state, no place
    phone.get(f"/t/{t.slug}/p/{player_links.token(db.session.get(Player, dq))}")
    banner = html.unescape(phone.get(f"/t/{t.slug}/me.json?page=standings").get_json()["you"])
    assert "disqualified: see the head judge" in banner and "place" not in banner


def test_a_series_field_counts_who_played(event):
    t, *_ = event
    placed = series_standings._placings(t)
    assert placed.field == 16 and len(placed.places) == 15  # the disqualified player played, without a placing


def test_a_waitlisted_registrant_reads_their_position_not_dropped(app, client, login, make_user, make_tournament):
    t = make_tournament(make_user(), registration_open=True, registration_cap=1)
    login()
    assert client.post(f"/tournaments/{t.id}/check-in/settings",
                       data={"waitlist": "y", "no_shows": "drop"}).status_code == 303
    assert app.test_client().post(f"/t/{t.slug}/register", data={"name": "Ana"}).status_code == 303
    phone = app.test_client()
    r = phone.post(f"/t/{t.slug}/register", data={"name": "Ben"})
    assert r.status_code == 303
    page = html.unescape(phone.get(r.headers["Location"]).get_data(as_text=True))  # the confirmation page
    assert "<strong>You:</strong> waitlist position 1" in page and "You:</strong> dropped" not in page
    for name in ("pairings", "standings"):
        banner = html.unescape(phone.get(f"/t/{t.slug}/me.json?page={name}").get_json()["you"])
        assert "<strong>You:</strong> waitlist position 1" in banner and "dropped" not in banner

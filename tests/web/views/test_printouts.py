"""Paper and screens for the venue: the event's QR code, pairings by name, match slips, the projector page."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Player
from app.services.players import player_links
from app.services.results import slip_codes
from app.services.swiss import rounds
from app.services.swiss.printouts import qr_svg
from tests.web.views.test_rounds import matches, pair, setup_event


@pytest.fixture
def event(app, make_user, make_tournament, login):
    """Seven players (a bye), accented and lower-case names among them; round 1 paired and published."""
    if "player.link" not in app.view_functions:  # the player pages land with the participation work
        app.add_url_rule("/t/<slug>/p/<token>", "player.link", lambda slug, token: "")
    to, t, players = setup_event(make_user, make_tournament, login, n=5, name="Print Open")
    db.session.add_all([Player(tournament_id=t.id, name="Émile"), Player(tournament_id=t.id, name="bea")])
    db.session.commit()
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    return to, t


def test_event_qr_code(event, client):
    _, t = event
    r = client.get(f"/t/{t.slug}/qr.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    svg = ET.fromstring(r.data)
    assert svg.tag == "{http://www.w3.org/2000/svg}svg" and svg.get("viewBox")
    assert svg.find("{http://www.w3.org/2000/svg}title").text == f"http://localhost/t/{t.slug}"
    assert r.get_data(as_text=True) == qr_svg(f"http://localhost/t/{t.slug}")
    assert client.get("/t/nope/qr.svg").status_code == 404


def test_dashboard_shows_the_qr_code_and_projector_link(event):
    to, t = event
    page = to.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert f'src="/t/{t.slug}/qr.svg"' in page and f"/t/{t.slug}/projector" in page
    assert f"/tournaments/{t.id}/timer" in page


def test_pairings_by_name(event):
    to, t = event
    page = to.get(f"/tournaments/{t.id}/rounds/1/by-name").get_data(as_text=True)
    rows = re.findall(r'<li><span class="who">([^<]+)</span><span class="num tbl">(\d+)</span>'
                      r'<span class="(corp|runner|)">[^<]*</span><span class="opp">([^<]+)</span></li>', page)
    names = [r[0] for r in rows]
    assert names == ["Ann", "bea", "Ben", "Cat", "Dan", "Émile", "Eve"]  # case and accents ignored
    expected = {}
    for m, seats in matches(t, 1):
        names_by_id = {p.id: p.name for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id))}
        if m.is_bye:
            expected[names_by_id[seats[0].player_id]] = (str(m.table), "", "bye")
        else:
            a, b = seats
            expected[names_by_id[a.player_id]] = (str(m.table), a.side, names_by_id[b.player_id])
            expected[names_by_id[b.player_id]] = (str(m.table), b.side, names_by_id[a.player_id])
    assert {r[0]: r[1:] for r in rows} == expected
    assert to.get(f"/tournaments/{t.id}/rounds/2/by-name").status_code == 404


def test_match_slips(event, app):
    to, t = event
    page = to.get(f"/tournaments/{t.id}/rounds/1/slips").get_data(as_text=True)
    slips = page.split('<section class="slip">')[1:]
    tables = [(m, seats) for m, seats in matches(t, 1) if not m.is_bye]
    assert len(slips) == len(tables) == 3
    for slip, (m, seats) in zip(slips, tables):
        assert f"Table {m.table}</span>" in slip and "Round 1" in slip and "Print Open" in slip
        assert slip.count('class="sign"') == 2 and slip.count('class="box"') >= 2
        for seat in seats:
            player = db.session.get(Player, seat.player_id)
            assert player.name in slip
            with app.test_request_context():
                link = player_links.url(player, t)
            assert qr_svg(link, inline=True) not in slip  # no player's identity on paper
        with app.test_request_context():
            code = slip_codes.url(t, m.round.slip_ref, m.table, [db.session.get(Player, s.player_id).name for s in seats])
        assert slip.count("<svg") == 1 and qr_svg(code, inline=True) in slip  # the table's own report code
    assert "<script>" not in page and "onclick" not in page
    assert to.get(f"/tournaments/{t.id}/rounds/7/slips").status_code == 404


def test_projector_page(event, client):
    to, t = event
    page = client.get(f"/t/{t.slug}/projector").get_data(as_text=True)
    assert "Print Open" in page and "Round 1" in page and f'src="/t/{t.slug}/qr.svg"' in page
    assert 'class="site"' not in page and "Log in" not in page  # no navigation
    listed = re.findall(r'<li data-names="([^"]+)"><span class="seat-name">([^<]+)</span> '
                        r'<span class="seat-table">(\d+)</span></li>', page)
    assert [n for _, n, _ in listed] == ["Ann", "bea", "Ben", "Cat", "Dan", "Émile", "Eve"]
    assert ("emile", "Émile") in [(k, n) for k, n, _ in listed]
    assert 'data-countdown' in page and "Timer not started" in page
    to.post(f"/tournaments/{t.id}/rounds/1/timer/start", data={"minutes": "50"})
    page = client.get(f"/t/{t.slug}/projector").get_data(as_text=True)
    assert 'data-state="running"' in page and ("50:00" in page or "49:59" in page)
    assert client.get("/t/nope/projector").status_code == 404


def test_projector_before_any_round(client, make_user, make_tournament):
    t = make_tournament(make_user(), name="Soon")
    page = client.get(f"/t/{t.slug}/projector").get_data(as_text=True)
    assert "Soon" in page and "appear here as soon as" in page


def test_print_styles_hide_navigation_and_buttons(client):
    css = client.get("/static/style.css").get_data(as_text=True)
    media = css[css.index("@media print"):]
    hidden = media[:media.index("display:none")]
    for selector in ("header.site", "nav", ".actions", "form", "button", ".no-print"):
        assert selector in hidden


def test_public_url_names_every_absolute_link_whatever_the_host(event, app, client):
    """PUBLIC_URL set: the QR code, slips, projector page, dashboard, API and NRTM file name it, never the Host
    header the request came with (a poisoned or loopback Host cannot leak into what phones scan)."""
    to, t = event
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
    public = f"http://192.168.1.20:5000/t/{t.slug}"
    evil = {"Host": "evil.example"}
    r = client.get(f"/t/{t.slug}/qr.svg", headers=evil)
    assert r.get_data(as_text=True) == qr_svg(public) and r.headers["Cache-Control"] == "public, max-age=86400"
    slips = to.get(f"/tournaments/{t.id}/rounds/1/slips").get_data(as_text=True)
    rnd = rounds.load_round(t, 1)
    with app.test_request_context():
        slip = slip_codes.url(t, rnd.slip_ref, rnd.matches[0].table, [s.name for s in rnd.matches[0].seats])
    assert slip.startswith(f"{public}/") and qr_svg(slip, inline=True) in slips
    assert f"<strong>{public}</strong>" in client.get(f"/t/{t.slug}/projector", headers=evil).get_data(as_text=True)
    dashboard = to.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert f'href="{public}"' in dashboard and "loopback-warning" not in dashboard
    nrtm = client.get(f"/t/{t.slug}.json", headers=evil).get_json()
    assert {"rel": "uploadedfrom", "href": public} in nrtm["links"]
    api = client.get(f"/api/tournaments/{t.slug}", headers=evil).get_json()
    assert api["links"]["standings"] == f"http://192.168.1.20:5000/api/tournaments/{t.slug}/standings"
    assert "localhost" not in slips + dashboard  # the host the TO came by


def test_host_derived_qr_code_is_not_shared_and_the_dashboard_warns_on_loopback(event, app, client):
    to, t = event
    app.config["PUBLIC_URL"] = ""
    assert client.get(f"/t/{t.slug}/qr.svg").headers["Cache-Control"] == "private, no-cache"
    page = to.get(f"/tournaments/{t.id}").get_data(as_text=True)  # the TO came by http://localhost
    assert "loopback-warning" in page and "phones cannot open it" in page
    app.config["PUBLIC_URL"] = "http://127.0.0.1:5000"
    assert "loopback-warning" in to.get(f"/tournaments/{t.id}").get_data(as_text=True)

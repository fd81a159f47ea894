"""Authorization matrix of the player routes (every route with a <token>, found in app.url_map): anonymous,
another player's link, a revoked link, a link from another event, and the owner of the link.

Only the owner may act, and only on their own table and their own entry; every other try leaves the
database exactly as it was. The TO-side participation routes refuse visitors and other organizers.
"""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Player, ResultClaim
from app.services.players import player_links
from app.services.swiss import rounds as service
from cut_helpers import paired_event
from tests.web.test_authz import _snapshot

MUTATING = {"POST", "PUT", "PATCH", "DELETE"}


def _event(owner, name, n=6):
    return paired_event(owner, name, [f"{name} player {i}" for i in range(n)])


def _seat_of(t, player_id):
    rnd = service.load_round(t, 1)
    return next(m for m in rnd.matches if any(s.player_id == player_id for s in m.seats))


@pytest.fixture
def world(app, make_user):
    owner = make_user()
    t = _event(owner, "Home")
    other_event = _event(make_user("other@example.com"), "Away")
    players = db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id).order_by(Player.id)).all()
    victim = players[0]
    match = _seat_of(t, victim.id)
    table_ids = {s.player_id for s in match.seats}
    stranger = next(p for p in players if p.id not in table_ids)  # a player of the event, another table
    revoked = player_links.token(victim)
    player_links.reissue(victim)
    db.session.commit()
    away_player = db.session.scalars(sa.select(Player).filter_by(tournament_id=other_event.id)).first()
    return {"t": t, "slug": t.slug, "victim": victim, "match": match.id, "revoked": revoked,
            "victim_token": player_links.token(victim), "stranger_token": player_links.token(stranger),
            "stranger": stranger, "away_token": player_links.token(away_player)}


def _player_rules(app):
    rules = [r for r in app.url_map.iter_rules() if "token" in r.arguments]
    assert {r.endpoint for r in rules} >= {"player.link", "player.live", "player.report", "player.drop"}
    return rules


def _try_all(app, client, rules, slug, token, match_id):
    answers = {}
    for rule in rules:
        url = rule.build({"slug": slug, "token": token}, append_unknown=False)[1]
        for method in sorted(rule.methods & (MUTATING | {"GET"})):
            answers[(method, rule.endpoint)] = client.open(url, method=method,
                                                           data={"match": match_id, "result": "corp"})
    return answers


@pytest.mark.parametrize("who", ["anonymous", "garbage", "revoked", "other event"])
def test_no_valid_link_no_access(app, world, who):
    token = {"anonymous": "", "garbage": "1.abc", "revoked": world["revoked"],
             "other event": world["away_token"]}[who]
    before = _snapshot()
    rules = _player_rules(app)
    if who == "anonymous":  # no token at all: the route does not exist
        for rule in rules:
            for method in rule.methods & (MUTATING | {"GET"}):
                assert app.test_client().open(f"/t/{world['slug']}/p/", method=method).status_code == 404
    else:
        for key, response in _try_all(app, app.test_client(), rules, world["slug"], token, world["match"]).items():
            assert response.status_code == 404, (who, key, response.status_code)
    assert _snapshot() == before


def test_another_players_link_cannot_touch_the_victims_table(app, world):
    stranger_client = app.test_client()
    before_claims = db.session.scalars(sa.select(ResultClaim)).all()
    assert not before_claims
    page = stranger_client.get(f"/t/{world['slug']}/p/{world['stranger_token']}")
    assert page.status_code == 200 and world["stranger"].name in page.get_data(as_text=True)
    before = _snapshot()
    r = stranger_client.post(f"/t/{world['slug']}/p/{world['stranger_token']}/report",
                             data={"match": world["match"], "result": "corp"})
    assert r.status_code == 303
    assert "not your table" in stranger_client.get(r.headers["Location"]).get_data(as_text=True)
    assert _snapshot() == before
    # the stranger's drop drops the stranger only
    stranger_client.post(f"/t/{world['slug']}/p/{world['stranger_token']}/drop")
    db.session.expire_all()
    assert db.session.get(Player, world["victim"].id).dropped is False
    assert db.session.get(Player, world["stranger"].id).dropped is True


def test_the_owner_of_the_link_may_act(app, world):
    phone = app.test_client()
    base = f"/t/{world['slug']}/p/{world['victim_token']}"
    assert phone.get(base).status_code == 200
    assert phone.get(f"{base}/live").status_code == 200
    assert phone.post(f"{base}/report", data={"match": world["match"], "result": "corp"}).status_code == 303
    db.session.expire_all()
    claims = db.session.execute(sa.select(ResultClaim.player_id, ResultClaim.result)).all()
    assert claims == [(world["victim"].id, "corp")]
    assert phone.post(f"{base}/drop").status_code == 303
    db.session.expire_all()
    assert db.session.get(Player, world["victim"].id).dropped is True


def test_to_side_routes_refuse_visitors_and_other_organizers(app, world, make_user, login):
    t, victim = world["t"], world["victim"]
    urls = [f"/tournaments/{t.id}/players/{victim.id}/link", f"/tournaments/{t.id}/rounds/1/live"]
    for url in urls:
        r = app.test_client().get(url)
        assert r.status_code in (302, 401) and "/login" in (r.location or "/login")
    make_user("mallory@example.com", "mallory password")
    mallory = login("mallory@example.com", "mallory password")
    for url in urls:
        assert mallory.get(url).status_code == 403
    before = _snapshot()
    assert mallory.post(f"/tournaments/{t.id}/players/{victim.id}/link/reissue").status_code == 403
    assert _snapshot() == before


@pytest.mark.slow
def test_only_the_canonical_spelling_of_a_link_works(app, world):
    """A link is `<id>.<hex>` exactly as player_links.token writes it: a superscript or another script's digit
    (once a 500: '²'.isdigit() but int('²') raises), a leading zero, upper-case hex or a trailing newline is not
    another spelling of the player's link but a wrong one: 404 on every player route, nothing changed."""
    pid, mac = world["victim_token"].split(".")
    spellings = ["\u00b2." + mac, "0" + pid + "." + mac, pid.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")) +
                 "." + mac, pid.translate(str.maketrans("0123456789", "０１２３４５６７８９")) + "." + mac,
                 pid + "." + mac.upper(), pid + "." + mac + "\n", pid + ".\u00b2" + mac[1:], "+" + pid + "." + mac]
    client = app.test_client()
    before = _snapshot()
    for raw in spellings:
        for (method, endpoint), answer in _try_all(app, client, _player_rules(app), world["slug"], raw,
                                                    world["match"]).items():
            assert answer.status_code == 404, (raw, method, endpoint, answer.status_code)
    assert _snapshot() == before
    assert client.get(f"/t/{world['slug']}/p/{world['victim_token']}").status_code == 200

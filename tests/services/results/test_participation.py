"""Players take part through their link: their page, report / confirm / dispute, the TO's settling and
result log, the live round feed, self-drop, the API's report state, and refusals that change nothing."""
from __future__ import annotations

import re

import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Player, ResultChange, ResultClaim, Tournament
from app.services.players import player_links
from tests.web.views.test_rounds_page import live, live_counts
from tests.web.views.test_rounds import matches, pair, report_all, setup_event


def link(t, player) -> str:
    return f"/t/{t.slug}/p/{player_links.token(player)}"


def published_round(client, t, number=1):
    assert pair(client, t, number).status_code == 303
    assert client.post(f"/tournaments/{t.id}/rounds/{number}/publish").status_code == 303


def table(t, number=1, index=0):
    """(match, corp player, runner player) of a round's index-th game."""
    m, seats = [(m, s) for m, s in matches(t, number) if not m.is_bye][index]
    by_id = {p.id: p for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id))}
    corp = next(s for s in seats if s.side == "corp")
    runner = next(s for s in seats if s.side == "runner")
    return m, by_id[corp.player_id], by_id[runner.player_id]


def player_report(app, t, player, match_id, result, client=None):
    client = client or app.test_client()
    return client.post(f"{link(t, player)}/report", data={"match": match_id, "result": result})


def state(t, match_id):
    db.session.expire_all()
    m = db.session.get(Match, match_id)
    claims = sorted(db.session.scalars(sa.select(ResultClaim.result).filter_by(match_id=match_id)).all())
    points = sorted((s.position, s.points) for s in m.seats)
    return m.result, claims, points


def test_link_opens_the_players_page_and_remembers_the_device(app, make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=4)
    published_round(client, t)
    m, corp, runner = table(t)
    phone = app.test_client()
    page = phone.get(link(t, corp))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f"Table {m.table}" in html and runner.name in html and "You play" in html and "I won as Corp" in html
    you = phone.get(f"/t/{t.slug}/me.json?page=pairings").get_json()["you"]  # what the pairings page shows
    assert f"table {m.table}, Corp against {runner.name}" in you
    # another device without the link sees no banner
    assert "you" not in app.test_client().get(f"/t/{t.slug}/me.json?page=pairings").get_json()


def test_banner_says_waiting_before_pairings(app, make_user, make_tournament, login):
    _, t, players = setup_event(make_user, make_tournament, login, n=4)
    phone = app.test_client()
    assert "Waiting for pairings" in phone.get(link(t, players[0])).get_data(as_text=True)
    assert "waiting for pairings" in phone.get(f"/t/{t.slug}").get_data(as_text=True)


def test_bad_and_revoked_links_are_a_clear_404(app, make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=4)
    old = link(t, players[0])
    for url in (f"/t/{t.slug}/p/nonsense", f"/t/{t.slug}/p/{players[0].id}.{'0' * 32}", f"/t/{t.slug}/p/{'9' * 9}.{'a' * 32}"):
        r = app.test_client().get(url)
        assert r.status_code == 404 and "player link does not work" in r.get_data(as_text=True)
    assert client.post(f"/tournaments/{t.id}/players/{players[0].id}/link/reissue").status_code == 303
    db.session.expire_all()
    r = app.test_client().get(old)
    assert r.status_code == 404 and "replaced" in r.get_data(as_text=True)
    assert app.test_client().get(link(t, db.session.get(Player, players[0].id))).status_code == 200


def test_to_sees_a_printable_qr_link(app, make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=4)
    assert f"/tournaments/{t.id}/players/{players[0].id}/link" in client.get(f"/tournaments/{t.id}/players").get_data(as_text=True)
    page = client.get(f"/tournaments/{t.id}/players/{players[0].id}/link").get_data(as_text=True)
    assert "<svg" in page and f"http://localhost{link(t, players[0])}" in page and "Replace with a new link" in page


def test_report_then_confirm(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    published_round(client, t)
    m, corp, runner = table(t)
    assert player_report(app, t, corp, m.id, "corp").status_code == 303
    assert state(t, m.id) == (None, ["corp"], [(1, None), (2, None)])
    to_page = client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert f"Reported by {corp.name}: Corp win, waiting for {runner.name}" in to_page
    runner_page = app.test_client().get(link(t, runner)).get_data(as_text=True)
    # the runner reads the claim from their side: a loss as Runner
    assert f"{corp.name} reported: you lost as Runner" in runner_page and "Yes: I lost as Runner" in runner_page
    assert player_report(app, t, runner, m.id, "corp").status_code == 303
    assert state(t, m.id) == ("corp", ["corp", "corp"], [(1, 3), (2, 0)])
    log = db.session.scalars(sa.select(ResultChange).filter_by(match_id=m.id)).all()
    assert [(c.actor, c.player_id, c.old_result, c.new_result) for c in log] == [("player", runner.id, None, "corp")]
    # the exchange is over: a later tap changes nothing
    phone = app.test_client()
    r = player_report(app, t, corp, m.id, "runner", client=phone)
    assert r.status_code == 303 and state(t, m.id)[0] == "corp"
    assert "The result is in: Corp win" in phone.get(r.headers["Location"]).get_data(as_text=True)


def test_dispute_is_shown_to_the_to_who_settles_it(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    published_round(client, t)
    m, corp, runner = table(t)
    player_report(app, t, corp, m.id, "corp")
    player_report(app, t, runner, m.id, "runner")
    assert state(t, m.id) == (None, ["corp", "runner"], [(1, None), (2, None)])
    page = client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert "Disputed results" in page
    assert f"Disputed: {corp.name} says Corp win; {runner.name} says Runner win" in page
    assert live_counts(client, t, 1) == {"confirmed": 0, "waiting": 0, "disputed": 1, "unreported": 1}
    r = client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "runner"})
    assert r.status_code == 303
    assert state(t, m.id)[0] == "runner" and state(t, m.id)[2] == [(1, 0), (2, 3)]
    log = db.session.scalars(sa.select(ResultChange).filter_by(match_id=m.id)).all()
    assert [(c.actor, c.user_id is not None, c.new_result) for c in log] == [("organizer", True, "runner")]
    page = client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert "History (1)" in page and "to@example.com (organizer)" in page
    # the TO's result ended the exchange: players can no longer change it
    player_report(app, t, corp, m.id, "corp")
    assert state(t, m.id)[0] == "runner"


def test_a_player_may_correct_their_own_claim(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    published_round(client, t)
    m, corp, runner = table(t)
    player_report(app, t, corp, m.id, "runner")
    player_report(app, t, runner, m.id, "corp")  # they disagree...
    player_report(app, t, corp, m.id, "corp")  # ...until the Corp corrects a stray tap
    assert state(t, m.id) == ("corp", ["corp", "corp"], [(1, 3), (2, 0)])


def test_single_report_setting(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, single_report=True)
    published_round(client, t)
    m, corp, runner = table(t)
    player_report(app, t, runner, m.id, "tie")
    assert state(t, m.id) == ("tie", ["tie"], [(1, 1), (2, 1)])


def test_single_report_checkbox_on_the_edit_form(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    assert "One player&#39;s report is enough" in client.get(f"/tournaments/{t.id}/edit").get_data(as_text=True)
    r = client.post(f"/tournaments/{t.id}/edit", data={"name": t.name, "date": "2026-11-23", "format": "single",
                                                       "score_factor": "2", "single_report": "y"})
    assert r.status_code in (302, 303)
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).single_report is True


def test_refusals_change_nothing(app, make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=4)
    pair(client, t, 1)  # not published yet
    m, corp, runner = table(t)
    phone = app.test_client()
    r = player_report(app, t, corp, m.id, "corp", client=phone)
    assert r.status_code == 303 and state(t, m.id) == (None, [], [(1, None), (2, None)])
    assert "closed for reports" in phone.get(r.headers["Location"]).get_data(as_text=True)
    client.post(f"/tournaments/{t.id}/rounds/1/publish")
    other, o_corp, o_runner = table(t, index=1)
    for who, mid, key in [(corp, other.id, "corp"),  # not their table
                          (corp, m.id, "nonsense"), (corp, m.id, "6-0"), (corp, m.id, ""),  # not a button
                          (corp, 2**40, "corp"), (corp, 987654, "corp")]:
        r = player_report(app, t, who, mid, key)
        assert r.status_code in (303, 404), (mid, key, r.status_code)
    assert state(t, m.id)[:2] == (None, []) and state(t, other.id)[:2] == (None, [])
    # a closed round: round 2 is paired, so round 1 takes no more reports
    report_all(client, t, 1)
    pair(client, t, 2)
    client.post(f"/tournaments/{t.id}/rounds/2/publish")
    before = state(t, m.id)
    phone = app.test_client()
    r = player_report(app, t, corp, m.id, "runner", client=phone)
    assert r.status_code == 303 and state(t, m.id) == before
    assert "Round 1 is closed for reports" in phone.get(r.headers["Location"]).get_data(as_text=True)


def test_self_drop(app, make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=4)
    published_round(client, t)
    m, corp, runner = table(t)
    player_report(app, t, corp, m.id, "corp")
    phone = app.test_client()
    r = phone.post(f"{link(t, corp)}/drop")
    assert r.status_code == 303
    assert "You have dropped" in phone.get(r.headers["Location"]).get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Player, corp.id).dropped is True
    assert state(t, m.id)[1] == ["corp"]  # this round's report stays
    assert "dropped" in client.get(f"/tournaments/{t.id}/players").get_data(as_text=True)
    version = db.session.get(Tournament, t.id).version
    r = phone.post(f"{link(t, corp)}/drop")
    assert r.status_code == 303 and "dropped already; nothing changed" in phone.get(r.headers["Location"]).get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).version == version
    # only the TO undrops
    assert client.post(f"/tournaments/{t.id}/players/{corp.id}/undrop").status_code in (302, 303)
    db.session.expire_all()
    assert db.session.get(Player, corp.id).dropped is False


def test_api_report_state(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=6)
    published_round(client, t)
    (m1, c1, r1), (m2, c2, r2), (m3, _, _) = (table(t, index=i) for i in range(3))
    player_report(app, t, c1, m1.id, "corp")
    player_report(app, t, c2, m2.id, "corp")
    player_report(app, t, r2, m2.id, "runner")
    client.post(f"/tournaments/{t.id}/matches/{m3.id}/result", data={"result": "tie"})
    data = app.test_client().get(f"/api/tournaments/{t.slug}/rounds/1").get_json()
    states = {p["table"]: p["report"] for p in data["pairings"]}
    assert states == {m1.table: "waiting", m2.table: "disputed", m3.table: "confirmed"}
    assert "claims" not in str(data) and c1.name not in str([p["report"] for p in data["pairings"]])


def test_reports_reach_the_round_page_poll(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    published_round(client, t)
    m, corp, runner = table(t)
    first = live(client, t, 1)
    assert first.status_code == 200 and first.headers["ETag"]
    assert live(client, t, 1, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    player_report(app, t, corp, m.id, "corp")
    changed = live(client, t, 1, headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200
    digests = first.get_json()["digests"]
    assert {p for p, d in changed.get_json()["digests"].items() if digests[p] != d} == {f"t{m.table}", "report-counts"}
    row = live(client, t, 1, f"t{m.table}").get_json()["fragments"][f"t{m.table}"]
    assert "report-waiting" in row and f"Reported by {corp.name}: Corp win" in row
    assert live_counts(client, t, 1)["waiting"] == 1
    assert live(app.test_client(), t, 1).status_code in (302, 401)  # anonymous: the login page


def test_player_posts_need_csrf(csrf_app, make_user, make_tournament):
    owner = make_user()
    t = Tournament(owner=owner, name="Csrf Open", format="single")
    db.session.add(t)
    db.session.flush()
    p = Player(tournament_id=t.id, name="Ana")
    db.session.add(p)
    db.session.commit()
    phone = csrf_app.test_client()
    assert phone.post(f"{link(t, p)}/drop").status_code == 400
    db.session.expire_all()
    assert db.session.get(Player, p.id).dropped is False


def test_double_sided_and_plain_reports_read_from_the_players_side(app, make_user, make_tournament, login):
    for fmt, key, points in (("double", "3-0/3-0", (6, 0)), ("plain", "2-1", (3, 0))):
        client, t, _ = setup_event(make_user, make_tournament, login, n=4, fmt=fmt, email=f"{fmt}@example.com",
                                     c=app.test_client())
        published_round(client, t)
        m, seats = [(m, s) for m, s in matches(t, 1) if not m.is_bye][0]
        first, second = (db.session.get(Player, s.player_id) for s in seats)
        page = re.sub(r"<[^>]+>", "", app.test_client().get(link(t, second)).get_data(as_text=True))  # as read
        total = "0-6" if fmt == "double" else "1-2"
        assert f"I lost {total}" in page and first.name not in page.split("I lost")[0][-80:]  # from their seat
        player_report(app, t, second, m.id, key)
        player_report(app, t, first, m.id, key)
        db.session.expire_all()
        m = db.session.get(Match, m.id)
        assert m.result == key
        assert [s.points for s in sorted(m.seats, key=lambda s: s.position)] == list(points)

"""Match slips and player links by role (docs/security.md, "What paper grants"): a slip's code reports its table,
in its round, once, and nothing else; no staff member, current or removed, gains through paper more than their
role; the log never names a player for a slip's report; a player's link is shown only to the player and to those
who may reissue it. The walk covers every role, the removed scorekeeper included."""
from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Player, ResultChange, Staff
from app.services.players import player_links
from app.services.results import slip_codes
from tests.web.test_authz import _snapshot
from tests.web.views.test_rounds import matches, pair, setup_event

PASSWORD = "staff password"
ROLES = ("anonymous", "other", "scorekeeper", "organizer", "owner", "admin", "removed scorekeeper")


@pytest.fixture
def event(app, make_user, make_tournament, login):
    """Eight players, round 1 paired and published, a scorekeeper, an organizer, a scorekeeper who printed the
    slips and was then removed, another organizer and the site admin."""
    to, t, players = setup_event(make_user, make_tournament, login, n=8, name="Slip Open")
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    accounts = {}
    for role, email in (("scorekeeper", "sk@example.com"), ("organizer", "org@example.com"),
                        ("removed scorekeeper", "gone@example.com"), ("other", "mallory@example.com")):
        user = make_user(email, PASSWORD)
        accounts[role] = email
        if role != "other":
            db.session.add(Staff(tournament_id=t.id, user_id=user.id, role=role.split()[-1]))
    make_user("admin@example.com", PASSWORD, is_admin=True)
    accounts["admin"] = "admin@example.com"
    db.session.commit()
    clients = {"owner": to, "anonymous": app.test_client()}
    for role, email in accounts.items():
        clients[role] = login(email, PASSWORD, c=app.test_client())
    printed = clients["removed scorekeeper"].get(f"/tournaments/{t.id}/rounds/1/slips").get_data(as_text=True)
    gone = db.session.scalar(sa.select(Staff).join(Staff.user).where(sa.text("users.email = 'gone@example.com'")))
    db.session.delete(gone)
    db.session.commit()
    return t, players, clients, printed


def codes_in(page: str, t) -> dict[int, str]:
    """table -> the report code each slip's QR code holds (read back from the page's own SVGs)."""
    found = {}
    for m, seats in matches(t, 1):
        if m.is_bye:
            continue
        code = slip_codes.code(t, m.round.slip_ref, m.table, [db.session.get(Player, s.player_id).name for s in seats])
        from app.services.swiss.printouts import qr_svg
        from flask import url_for
        if qr_svg(url_for("slips.show", slug=t.slug, code=code, _external=True), inline=True) in page:
            found[m.table] = code
    return found


def test_every_role_sees_what_its_role_grants(app, event):
    t, players, clients, printed = event
    with app.test_request_context():
        assert len(codes_in(printed, t)) == 4  # what the scorekeeper printed before their removal
        for role in ROLES:
            c = clients[role]
            slips = c.get(f"/tournaments/{t.id}/rounds/1/slips")
            expected = {"scorekeeper": 200, "organizer": 200, "owner": 200, "admin": 200}.get(role)
            if expected is None:
                assert slips.status_code in (302, 403), role
            else:
                assert slips.status_code == 200, role
                page = slips.get_data(as_text=True)
                assert len(codes_in(page, t)) == (0 if role == "admin" else 4), role
                for p in players:  # no slip carries anyone's link
                    assert player_links.token(p) not in page and "/p/" not in page
            link = c.get(f"/tournaments/{t.id}/players/{players[0].id}/link")
            assert (link.status_code == 200) == (role in ("organizer", "owner")), (role, link.status_code)
            if link.status_code == 200:
                assert player_links.token(players[0]) in link.get_data(as_text=True)


@pytest.mark.slow
def test_what_a_slip_grants_whoever_holds_it(app, event):
    """The removed scorekeeper's printed slips (and anyone's copy of them): each reports its own table, in the
    live round, once; never as a player, never another table, never a result already in, never another round,
    never a player's action."""
    t, players, clients, printed = event
    with app.test_request_context():
        codes = codes_in(printed, t)
    tables = {m.table: (m, seats) for m, seats in matches(t, 1) if not m.is_bye}
    first, second = sorted(codes)[:2]
    for role in ROLES:
        c = clients[role]
        before = _snapshot()
        # a code is no player link, and a forged or edited code is no code
        forged = [codes[first].rsplit(".", 1)[0] + "." + "0" * 32, f"{tables[first][0].round.slip_ref}.{second}."
                  + codes[first].rsplit(".", 1)[1], codes[first].upper(), "\u00b2" + codes[first]]
        for raw in forged:
            assert c.get(f"/t/{t.slug}/s/{raw}").status_code == 404, (role, raw)
            assert c.post(f"/t/{t.slug}/s/{raw}/report", data={"result": "corp"}).status_code == 404
        for url in (f"/t/{t.slug}/p/{codes[first]}", f"/t/{t.slug}/p/{codes[first]}/drop",
                    f"/t/{t.slug}/p/{codes[first]}/report"):
            assert c.open(url, method="GET" if url.endswith(codes[first]) else "POST",
                          data={"match": tables[first][0].id, "result": "corp"}).status_code == 404
        assert _snapshot() == before, role
        page = c.get(f"/t/{t.slug}/s/{codes[first]}")
        assert page.status_code == 200 and "Table %d" % first in page.get_data(as_text=True)

    # the first report through a slip counts, logged as the slip's; the table is then closed to slips
    holder = clients["removed scorekeeper"]
    assert holder.post(f"/t/{t.slug}/s/{codes[first]}/report", data={"result": "runner"}).status_code == 303
    db.session.expire_all()
    assert db.session.get(Match, tables[first][0].id).result == "runner"
    log = db.session.scalars(sa.select(ResultChange).filter_by(match_id=tables[first][0].id)).all()
    assert [(c.actor, c.player_id, c.user_id, c.new_result) for c in log] == [("slip", None, None, "runner")]
    before = _snapshot()
    for role in ROLES:
        answer = clients[role].post(f"/t/{t.slug}/s/{codes[first]}/report", data={"result": "corp"},
                                    follow_redirects=True)
        assert "Only the organizer can change it now" in answer.get_data(as_text=True)
    assert _snapshot() == before
    page = clients["owner"].get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert "the table&#39;s match slip" in page or "the table's match slip" in page

    # the round over (round 2 paired): every slip of round 1 reports nothing
    for m, _ in matches(t, 1):
        if not m.is_bye and m.result is None:
            assert clients["owner"].post(f"/tournaments/{t.id}/matches/{m.id}/result",
                                         data={"result": "corp"}).status_code == 303
    assert clients["owner"].post(f"/tournaments/{t.id}/rounds/pair", data={"number": 2}).status_code in (302, 303)
    assert len(matches(t, 2)) == 4
    before = _snapshot()
    for code in codes.values():
        page = holder.get(f"/t/{t.slug}/s/{code}").get_data(as_text=True)
        assert "Round 1 is over" in page and 'name="result"' not in page
        answer = holder.post(f"/t/{t.slug}/s/{code}/report", data={"result": "tie"}, follow_redirects=True)
        assert "Round 1 is over" in answer.get_data(as_text=True)
    assert _snapshot() == before


def test_admin_reports_nothing_through_a_link(app, event):
    """The admin never gets a link (above); one they got anyway is still the player's, so the rule is that they
    never see one: the players page offers them no Link button."""
    t, players, clients, _ = event
    page = clients["admin"].get(f"/tournaments/{t.id}/players").get_data(as_text=True)
    assert f"/players/{players[0].id}/link" not in page
    assert re.search(rf"/players/{players[0].id}/link", clients["owner"].get(
        f"/tournaments/{t.id}/players").get_data(as_text=True))


def test_a_slip_printed_before_the_table_changed_reports_nothing(app, event):
    """The audit: a slip printed before a swap reported the table's new match (its code named only round and
    table), and on SQLite a slip of an undone round worked again after the re-pair (the round id is reused). A
    code binds its table's players: after a swap, or an undo and a re-pair that seats others there, the old slip
    is refused with what happened (410), never taken for the new match nor for a typo; the new slip works."""
    t, players, clients, printed = event
    to = clients["owner"]
    with app.test_request_context():
        old = codes_in(printed, t)
    tables = {m.table: [s.player_id for s in seats] for m, seats in matches(t, 1) if not m.is_bye}
    first, second = sorted(old)[:2]
    a, b = tables[first][0], tables[second][0]
    assert to.post(f"/tournaments/{t.id}/rounds/1/edit", data={"action": "swap", "first": a, "second": b,
                                                               "confirm": "1"}).status_code in (302, 303)
    assert {s.player_id for m, seats in matches(t, 1) if m.table == first for s in seats} != set(tables[first])
    before = _snapshot()
    for table in (first, second):
        page = clients["anonymous"].get(f"/t/{t.slug}/s/{old[table]}")
        assert page.status_code == 410
        assert "before the table changed" in page.get_data(as_text=True)
        answer = clients["anonymous"].post(f"/t/{t.slug}/s/{old[table]}/report", data={"result": "corp"})
        assert answer.status_code == 410
    assert _snapshot() == before
    reprinted = to.get(f"/tournaments/{t.id}/rounds/1/slips").get_data(as_text=True)
    with app.test_request_context():
        new = codes_in(reprinted, t)
    assert new[first] != old[first]
    assert new[3] == old[3]  # an unchanged table keeps its slip
    assert clients["anonymous"].get(f"/t/{t.slug}/s/{new[first]}").status_code == 200

    # undo and re-pair: the new round may get the old id back (SQLite); a slip names players, not a round id
    swapped = {s.player_id for m, seats in matches(t, 1) if m.table == first for s in seats}
    assert to.post(f"/tournaments/{t.id}/rounds/1/undo").status_code in (302, 303)
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    now = {m.table: {s.player_id for s in seats} for m, seats in matches(t, 1) if not m.is_bye}
    assert now[first] != swapped  # the re-pair seats others at that table
    assert clients["anonymous"].get(f"/t/{t.slug}/s/{new[first]}").status_code in (404, 410)

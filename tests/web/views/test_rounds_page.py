"""Issue 12, the TO's round page: points before the round, the "Saved" answer to a tap (JSON for the page's
script, a redirect to the table with a flash without it), going to a table or a name, past rounds read-only unless
the TO chose "Edit results", warnings once and on their table with a fix that applies, Undo apart."""
from __future__ import annotations

import json
import re
from html import unescape

import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Player, Round, Seat, Staff
from app.services.swiss import rounds as service
from app.services.swiss import pairing_edits
from tests.web.views.test_rounds import edit, matches, pair, report_all, setup_event

JSON = {"Accept": "application/json"}


def page_of(client, t, number, **args) -> str:
    query = "&".join(f"{k}={v}" for k, v in args.items())
    return client.get(f"/tournaments/{t.id}/rounds/{number}" + (f"?{query}" if query else "")).get_data(as_text=True)


def row(page: str, table: int) -> str:
    """The HTML of a table's row on the round page."""
    start = page.index(f'<li id="t{table}"')
    return page[start:page.index("</li>\n", page.index('class="report-note"', start))]


def points_so_far(t, before: int) -> dict[int, int]:
    """Each player's points from the seats of rounds before `before`, summed here independently."""
    db.session.expire_all()
    out: dict[int, int] = {}
    for rnd in db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id)):
        if rnd.number < before:
            for m in rnd.matches:
                for s in m.seats:
                    out[s.player_id] = out.get(s.player_id, 0) + (s.points or 0)
    return out


def test_points_before_the_round_beside_the_names(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=7)
    pair(client, t, 1)
    report_all(client, t, 1, "corp")
    pair(client, t, 2)
    report_all(client, t, 2, "runner")
    pair(client, t, 3)
    before = points_so_far(t, 3)
    assert service.points_before(t, 3) == before
    assert service.points_before(t, 1) == {}
    page = page_of(client, t, 3)
    names = {p.id: p.name for p in players}
    for m, seats in matches(t, 3):
        html = row(page, m.table)
        shown = re.findall(r'<span class="name">([^<]+)</span> <span class="pts">(\d+) pts</span>', html)
        assert shown == [(names[s.player_id], str(before[s.player_id])) for s in seats]
    # This round's result stands apart, never beside a name.
    m, seats = [(m, s) for m, s in matches(t, 3) if not m.is_bye][0]
    client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "corp"})
    html = row(page_of(client, t, 3), m.table)
    assert re.search(r'data-result>Corp win</span>', html)
    assert f"{before[seats[0].player_id]} pts" in html and "(3)" not in html
    assert "pts</span>" not in page_of(client, t, 1)


def test_json_answer_and_redirect_to_the_table(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=8)
    pair(client, t, 1)
    m, _ = matches(t, 1)[2]
    r = client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "tie"}, headers=JSON)
    assert r.status_code == 200
    answer = r.get_json()
    parts = {f"t{m.table}", "unreported-line", "report-counts", "disputes", "round-actions", "pairing-tools"}
    assert set(answer.pop("fragments")) == set(answer.pop("digests")) == parts
    assert answer == {"id": m.id, "table": m.table, "round": 1, "result": "tie", "label": "Tie",
                      "state": "confirmed", "message": f"Saved: table {m.table}, Tie."}
    r = client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "nonsense"}, headers=JSON)
    assert r.status_code == 400 and "Unknown result" in r.get_json()["error"]
    db.session.expire_all()
    assert db.session.get(Match, m.id).result == "tie"
    r = client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "corp"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/rounds/1#t{m.table}")
    assert f"Saved: table {m.table}, Corp win." in client.get(r.headers["Location"]).get_data(as_text=True)


def no_csrf(html: str) -> str:
    return re.sub(r'name="csrf_token" value="[^"]*"', "", html)


def test_saved_result_answers_with_the_parts_of_the_page_it_changed(make_user, make_tournament, login):
    """The page's script swaps these in after a background save: each is what a reload would show."""
    client, t, _ = setup_event(make_user, make_tournament, login, n=6)
    pair(client, t, 1)
    assert 'id="edit-pairings"' in page_of(client, t, 1)
    tables = [m for m, _ in matches(t, 1)]
    for i, m in enumerate(tables, 1):
        r = client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "corp"}, headers=JSON)
        parts = r.get_json()["fragments"]
        page = no_csrf(page_of(client, t, 1))
        for html in parts.values():
            assert no_csrf(html).strip() in page
        assert 'data-result>Corp win</span>' in parts[f"t{m.table}"] and "History (1)" in parts[f"t{m.table}"]
        assert 'aria-pressed="true">Corp win</button>' in parts[f"t{m.table}"]
        # The first result closes the hand edits.
        assert "edit-pairings" not in parts["pairing-tools"]
        if i < len(tables):
            assert f"{len(tables) - i} of {len(tables)} results to report." in parts["unreported-line"]
            assert "Pair round 2" not in parts["round-actions"]
        else:
            # the next step (services/next_step.py): this round is not published yet, so publishing it, not
            # pairing round 2
            assert "All results are in." in parts["unreported-line"] and "Pair round 2" not in parts["round-actions"]
            assert "Publish round 1" in parts["round-actions"]
    # Editing a past round's result: the row keeps its buttons marked as a past edit.
    pair(client, t, 2)
    r = client.post(f"/tournaments/{t.id}/matches/{tables[0].id}/result", data={"result": "runner", "past": "1"},
                    headers=JSON)
    row_html = r.get_json()["fragments"][f"t{tables[0].table}"]
    assert 'name="past" value="1"' in row_html and "History (2)" in row_html


LIVE_PARTS = {"unreported-line", "report-counts", "disputes", "round-actions", "pairing-tools"}


def live(client, t, number, *parts, headers=None, **args):
    """The round page's poll: every live part's digest, and the `parts` asked for (rounds.live)."""
    query = {**args, "parts": ",".join(parts)} if parts else args
    return client.get(f"/tournaments/{t.id}/rounds/{number}/live", query_string=query, headers=headers or {})


def live_counts(client, t, number) -> dict[str, int]:
    """The round page's report counts as its poll brings them."""
    html = live(client, t, number, "report-counts").get_json()["fragments"]["report-counts"]
    return {state: int(n) for state, n in re.findall(r'data-count="(\w+)">(\d+)<', html)}


def test_live_parts_are_the_pages_own(make_user, make_tournament, login):
    """The page's poll: a digest of every live part (the page carries them, and the ETag that makes its first poll
    a 304), new digests for exactly the parts a result from another device changed, and those parts drawn as a
    reload draws them."""
    client, t, _ = setup_event(make_user, make_tournament, login, n=6)
    pair(client, t, 1)
    tables = [m for m, _ in matches(t, 1)]
    first = live(client, t, 1)
    assert first.status_code == 200 and first.headers["Cache-Control"] == "private, no-cache"
    before = first.get_json()
    assert set(before["digests"]) == {f"t{m.table}" for m in tables} | LIVE_PARTS and "fragments" not in before
    assert live(client, t, 1).get_json() == before  # a part digests the same while it stays the same
    assert live(client, t, 1, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    page = page_of(client, t, 1)
    live_div = re.search(r"""<div id="round-live" data-url="([^"]+)" data-etag="([^"]+)" data-digests='([^']+)'>""",
                         page)
    assert unescape(live_div[1]) == f"/tournaments/{t.id}/rounds/1/live"
    assert f'"{live_div[2]}"' == first.headers["ETag"]
    assert json.loads(unescape(live_div[3])) == before["digests"]
    page = no_csrf(page)
    every = live(client, t, 1, *before["digests"]).get_json()
    assert every["digests"] == before["digests"] and set(every["fragments"]) == set(before["digests"])
    for m in tables:  # each row exactly as the page has it
        assert no_csrf(every["fragments"][f"t{m.table}"]).strip() == row(page, m.table) + "</li>"
    for part in LIVE_PARTS:
        assert no_csrf(every["fragments"][part]).strip() in page, part
    assert all('name="csrf_token" value="' in every["fragments"][p] for p in ("t1", "round-actions", "pairing-tools"))
    assert "csrf-token-of-this-answer" not in str(every)
    # With the pairing edit kept open (?edit=pairings), the poll draws as that page does.
    editing = page_of(client, t, 1, edit="pairings")
    assert 'data-url="/tournaments/%d/rounds/1/live?edit=pairings"' % t.id in editing
    assert no_csrf(live(client, t, 1, "pairing-tools", edit="pairings").get_json()["fragments"]["pairing-tools"]
                   ).strip() in no_csrf(editing)

    # Another device saves table 2's result: its row, the counts and the progress change, and the edit form goes.
    other = login(c=client.application.test_client())
    other.post(f"/tournaments/{t.id}/matches/{tables[1].id}/result", data={"result": "runner"})
    after = live(client, t, 1, headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] != first.headers["ETag"]
    changed = {p for p, d in after.get_json()["digests"].items() if before["digests"][p] != d}
    assert changed == {f"t{tables[1].table}", "unreported-line", "report-counts", "pairing-tools"}
    got = live(client, t, 1, *sorted(changed)).get_json()["fragments"]
    assert 'data-result>Runner win</span>' in got[f"t{tables[1].table}"]
    assert "2 of 3 results to report." in got["unreported-line"] and "edit-pairings" not in got["pairing-tools"]
    assert live_counts(client, t, 1) == {"confirmed": 1, "waiting": 0, "disputed": 0, "unreported": 2}
    page = no_csrf(page_of(client, t, 1))
    for html in got.values():
        assert no_csrf(html).strip() in page
    # Unknown parts are left out; a missing round is a 404.
    assert live(client, t, 1, "t99", "nonsense").get_json()["fragments"] == {}
    assert live(client, t, 7).status_code == 404


def test_live_parts_are_authorized_as_the_round_page(app, make_user, make_tournament, login):
    """Owner, organizer, scorekeeper and the site admin (reading) get the parts as their own page draws them;
    another organizer and visitors get nothing."""
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    pair(client, t, 1)
    for email, role in (("org@example.com", "organizer"), ("score@example.com", "scorekeeper")):
        db.session.add(Staff(tournament_id=t.id, user_id=make_user(email=email).id, role=role))
    make_user(email="admin@example.com", is_admin=True)
    make_user(email="other@example.com")
    db.session.commit()
    url = f"/tournaments/{t.id}/rounds/1/live"
    anonymous = app.test_client().get(url)
    assert anonymous.status_code in (302, 401) and "/login" in (anonymous.location or "/login")
    assert login("other@example.com", c=app.test_client()).get(url).status_code == 403
    drawn = {}
    for email in ("to@example.com", "org@example.com", "score@example.com", "admin@example.com"):
        c = client if email == "to@example.com" else login(email, c=app.test_client())
        answer = live(c, t, 1)
        assert answer.status_code == 200, email
        parts = live(c, t, 1, *answer.get_json()["digests"]).get_json()["fragments"]
        page = no_csrf(page_of(c, t, 1))
        for part, html in parts.items():
            assert no_csrf(html).strip() in page, (email, part)
        drawn[email] = parts
    assert "Publish round 1" in drawn["org@example.com"]["round-actions"]
    assert "Publish round 1" not in drawn["score@example.com"]["round-actions"]
    assert "result-buttons" in drawn["score@example.com"]["t1"]
    assert "result-buttons" not in drawn["admin@example.com"]["t1"]  # the admin reads, changes nothing
    assert client.post(url).status_code == 405


def test_a_custom_result_reads_as_its_label(make_user, make_tournament, login):
    """A double-sided result entered game by game: the row says what happened, in the save's answer and on a reload
    alike (the page's script shows the server's row, so both must read the same)."""
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, fmt="double")
    pair(client, t, 1)
    m, _ = matches(t, 1)[0]
    r = client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "custom", "first": 3, "second": 1},
                    headers=JSON)
    assert r.get_json()["label"] == "4-1 (Corp win, then tie)"
    assert "data-result>4-1 (Corp win, then tie)</span>" in r.get_json()["fragments"][f"t{m.table}"]
    assert "data-result>4-1 (Corp win, then tie)</span>" in row(page_of(client, t, 1), m.table)


def test_find_a_table_or_a_name(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=8)
    pair(client, t, 1)
    url = f"/tournaments/{t.id}/rounds/1"
    assert client.get(url + "?find=3").headers["Location"].endswith(f"{url}#t3")
    tables = {s.player_id: m.table for m, seats in matches(t, 1) for s in seats}
    gus = next(p for p in players if p.name == "Gus")
    assert client.get(url + "?find=%20gUS%20").headers["Location"].endswith(f"#t{tables[gus.id]}")
    for missing in ("99", "Zed", "9" * 5000):
        r = client.get(url + f"?find={missing}")
        assert r.status_code == 303 and r.headers["Location"].endswith(url)
        assert "No table or player matches" in client.get(r.headers["Location"]).get_data(as_text=True)
    assert client.get(url + "?find=").status_code == 303


def test_past_round_is_read_only_until_edit_results(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=8)
    pair(client, t, 1)
    report_all(client, t, 1, "corp")
    live = page_of(client, t, 1)
    assert 'class="result-buttons"' in live and "Edit results" not in live  # the latest round: live
    pair(client, t, 2)
    page = page_of(client, t, 1)
    assert 'class="result-buttons"' not in page and "read-only" in page and "Edit results" in page
    assert re.search(r'data-confirm="Edit round 1\'s results\? A change counts in the standings at once, and '
                     r'round 2 was paired from the old standings', page.replace("&#39;", "'"))
    m, _ = matches(t, 1)[0]
    # A tap from a stale page (no edit chosen) changes nothing: the server refuses it.
    r = client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "runner"})
    assert r.status_code == 303 and r.headers["Location"].endswith("/rounds/1")
    assert "Round 1 is over" in client.get(r.headers["Location"]).get_data(as_text=True)
    r = client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "runner"}, headers=JSON)
    assert r.status_code == 409 and "Edit results" in r.get_json()["error"]
    db.session.expire_all()
    assert db.session.get(Match, m.id).result == "corp"
    # After "Edit results": buttons that say so, and the change is made (and stays in edit mode).
    editing = page_of(client, t, 1, edit="results")
    assert 'class="result-buttons"' in editing and 'name="past" value="1"' in editing
    assert "Editing round 1" in editing and "round 2 keeps the pairings" in editing
    r = client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "runner", "past": "1"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/rounds/1?edit=results#t{m.table}")
    db.session.expire_all()
    assert db.session.get(Match, m.id).result == "runner"
    assert client.post(f"/tournaments/{t.id}/matches/{m.id}/result",
                       data={"result": "tie", "past": "yes"}).status_code == 400
    # The live round needs no edit step.
    m2, _ = matches(t, 2)[0]
    assert client.post(f"/tournaments/{t.id}/matches/{m2.id}/result", data={"result": "tie"}).status_code == 303
    db.session.expire_all()
    assert db.session.get(Match, m2.id).result == "tie"


def test_undo_is_in_the_danger_zone_only_on_the_latest_round(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=8)
    pair(client, t, 1)
    page = page_of(client, t, 1)
    start = page.index('<div class="actions" id="round-actions">')
    actions = page[start:page.index("</div>", start)]
    assert "Undo" not in actions and "Standings" in actions
    zone = page[page.index('id="danger-zone"'):]
    assert "Undo round 1" in zone and 'data-confirm="Delete round 1' in zone
    assert page.index('id="danger-zone"') > page.index('<ol class="matches')
    report_all(client, t, 1)
    pair(client, t, 2)
    assert "danger-zone" not in page_of(client, t, 1) and "Undo round 2" in page_of(client, t, 2)


def test_warnings_once_on_their_table_and_edit_form_kept_open(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=3)
    pair(client, t, 1)
    report_all(client, t, 1)
    (_, (holder,)), = [(m, s) for m, s in matches(t, 1) if m.is_bye]
    r = pair(client, t, 2)
    r = edit(client, t, 2, "bye", holder.player_id)
    assert r.status_code == 303 and "edit=pairings" in r.headers["Location"]
    assert r.headers["Location"].endswith("#edit-pairings")
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert page.count("would get a second bye") == 1  # no flash repeating the page
    assert re.search(r'<details class="card edit-pairings" id="edit-pairings" open>', page)
    (bye, _), = [(m, s) for m, s in matches(t, 2) if m.is_bye]
    html = row(page, bye.table)
    assert "broken" in html and "would get a second bye" in html
    assert re.search(r'name="action" value="bye"', html) and "Give the bye to" in html
    assert f'href="#t{bye.table}"' in page[page.index('id="pairing-check"'):]
    # Without the edit parameter the form is closed.
    assert '<details class="card edit-pairings" id="edit-pairings">' in page_of(client, t, 2)


def test_one_click_fix_applies_through_the_edit_service(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=3)
    pair(client, t, 1)
    report_all(client, t, 1)
    (_, (holder,)), = [(m, s) for m, s in matches(t, 1) if m.is_bye]
    pair(client, t, 2)
    edit(client, t, 2, "bye", holder.player_id)
    rnd = service.load_round(t, 2)
    (w,) = [w for w in pairing_edits.pairing_warnings(t, rnd) if w.kind == "second_bye"]
    assert w.fix and w.fix.action == "bye"
    r = client.post(f"/tournaments/{t.id}/rounds/2/edit", data={
        "action": w.fix.action, "first": w.fix.first, "back": f"t{w.table}"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"?edit=pairings#t{w.table}")
    assert not [x for x in pairing_edits.pairing_warnings(t, service.load_round(t, 2)) if x.kind == "second_bye"]
    # A bad anchor falls back to the form, never into the redirect.
    r = client.post(f"/tournaments/{t.id}/rounds/2/edit", data={"action": "sides", "first": 1,
                                                                "back": "javascript:alert(1)"})
    assert r.headers["Location"].endswith("#edit-pairings")


def test_swap_fix_for_a_double_sided_rematch(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=8, fmt="double")
    pair(client, t, 1)
    report_all(client, t, 1, "6-0")
    first = {s.player_id: m.table for m, seats in matches(t, 1) for s in seats}
    (_, (a, b)) = matches(t, 1)[0]
    a, b = a.player_id, b.player_id
    pair(client, t, 2)
    where = {s.player_id: (m, seats) for m, seats in matches(t, 2) for s in seats}
    opponent = next(s.player_id for s in where[a][1] if s.player_id != a)
    edit(client, t, 2, "swap", opponent, b)
    warnings = pairing_edits.pairing_warnings(t, service.load_round(t, 2))
    assert warnings and all(w.kind == "rematch" and w.fix.action == "swap" for w in warnings)
    page = page_of(client, t, 2)
    assert page.count("have played each other already") == len(warnings)
    # Each click clears its table and breaks no rule elsewhere, until the round is clean.
    while warnings:
        w = warnings[0]
        assert client.post(f"/tournaments/{t.id}/rounds/2/edit", data={
            "action": "swap", "first": w.fix.first, "second": w.fix.second}).status_code == 303
        left = pairing_edits.pairing_warnings(t, service.load_round(t, 2))
        assert len(left) < len(warnings) and w.text not in [x.text for x in left]
        warnings = left
    assert count_seats(t) == 16
    assert {s.player_id: m.table for m, seats in matches(t, 1) for s in seats} == first  # round 1 untouched


def count_seats(t) -> int:
    db.session.expire_all()
    return db.session.scalar(sa.select(sa.func.count(Seat.id)).where(Seat.tournament_id == t.id))


def test_page_queries_do_not_grow_with_the_tables(app, make_user, make_tournament, login):
    """Points before the round come from one aggregate query, not one per seat."""
    from sqlalchemy import event as sa_event

    counts = []
    for n in (6, 12):
        client, t, _ = setup_event(make_user, make_tournament, login, n=n, email=f"to{n}@example.com",
                                   c=app.test_client(), name=f"Event {n}")
        pair(client, t, 1)
        report_all(client, t, 1)
        pair(client, t, 2)
        seen = []
        listener = lambda *args: seen.append(args[2])  # noqa: E731
        sa_event.listen(db.engine, "before_cursor_execute", listener)
        try:
            assert client.get(f"/tournaments/{t.id}/rounds/2").status_code == 200
        finally:
            sa_event.remove(db.engine, "before_cursor_execute", listener)
        counts.append(len(seen))
    assert counts[0] == counts[1], counts


def test_players_are_named_per_round_and_only_theirs(make_user, make_tournament, login):
    """The name finder searches this round's seats only."""
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    pair(client, t, 1)
    db.session.add(Player(tournament_id=t.id, name="Latecomer"))
    db.session.commit()
    r = client.get(f"/tournaments/{t.id}/rounds/1?find=latecomer")
    assert r.headers["Location"].endswith("/rounds/1")


def test_dropped_and_missing_fixes_post_and_refuse_when_stale(make_user, make_tournament, login):
    """The fixes for a dropped player paired and a player left out: one POST each leaves a clean round; posted
    again (the round moved on) they are refused with a message and change nothing."""
    client, t, players = setup_event(make_user, make_tournament, login, n=5, fmt="plain")
    pair(client, t, 1)
    holder, = [seats[0].player_id for m, seats in matches(t, 1) if m.is_bye]
    d, o = next([s.player_id for s in seats] for m, seats in matches(t, 1) if not m.is_bye)
    db.session.get(Player, d).dropped = True
    db.session.commit()

    def fix_of(kind):
        (w,) = [w for w in pairing_edits.pairing_warnings(t, service.load_round(t, 1)) if w.kind == kind]
        assert w.fix, w
        return {"action": w.fix.action, "first": w.fix.first, "second": w.fix.second or ""}

    def post(data):
        r = client.post(f"/tournaments/{t.id}/rounds/1/edit", data=data)
        assert r.status_code == 303
        return client.get(r.headers["Location"]).get_data(as_text=True)

    fix = fix_of("dropped")
    assert fix == {"action": "remove", "first": d, "second": holder}
    page = post(fix)
    assert "Pairings changed." in page
    assert pairing_edits.pairing_warnings(t, service.load_round(t, 1)) == []
    seated = {s.player_id: m for m, seats in matches(t, 1) for s in seats}
    assert d not in seated and seated[o] is seated[holder]
    assert count_seats(t) == 4
    # Posted again, the fix finds the player gone: a message, nothing changed.
    page = post(fix)
    assert "Choose players who are in this round." in page and count_seats(t) == 4

    late = Player(tournament_id=t.id, name="Zed")
    db.session.add(late)
    db.session.commit()
    page = page_of(client, t, 1)
    assert "Not paired this round: Zed." in page and "Add Zed with a bye" in page
    fix = fix_of("missing")
    assert fix == {"action": "add", "first": late.id, "second": ""}
    post(fix)
    assert pairing_edits.pairing_warnings(t, service.load_round(t, 1)) == []
    assert "is in this round already" in post(fix) and count_seats(t) == 5

    later = Player(tournament_id=t.id, name="Yan")
    db.session.add(later)
    db.session.commit()
    fix = fix_of("missing")
    assert fix == {"action": "add", "first": later.id, "second": late.id}
    post(fix)
    assert pairing_edits.pairing_warnings(t, service.load_round(t, 1)) == []
    assert count_seats(t) == 6 and not [m for m, _ in matches(t, 1) if m.is_bye]

    # Once a result is in, no edit goes through.
    db.session.get(Player, later.id).dropped = True
    db.session.commit()
    fix = fix_of("dropped")
    report_all(client, t, 1, "2-0")
    assert "before any result is in" in post(fix)
    assert later.id in {s.player_id for _, seats in matches(t, 1) for s in seats}

"""Issue 12, the TO's round page, on a 1280 px laptop, every screen also looked at on a 360 px phone: compact rows
(many tables a screen), go to a table or a name, a "Saved" note after each tap without a reload, points before the
round beside the names and the result apart, rule warnings on their table with a one-click fix, a past round read-
only until "Edit results", and Undo apart at the bottom behind a confirmation. Screenshots go to
/tmp/shots/roundpage/."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from app.core import results
from app.extensions import db
from app.models import Player, Round, Tournament
from app.services.swiss import rounds as service
from app.services.results import match_results
from app.services.swiss import pairing_edits

from tests.browser.conftest import at_both_widths

SHOTS = Path("/tmp/shots/roundpage")
SIZES = {
    "1280": {"viewport": {"width": 1280, "height": 900}},
    "360": {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
}
FIRST = ["Ada", "Grace", "Alan", "Barbara", "Edsger", "Margaret", "Donald", "Frances", "Dennis", "Radia"]
LAST = ["Lovelace", "Hopper", "Turing", "Liskov", "Dijkstra", "Hamilton", "Knuth", "Allen"]


def field(n: int) -> list[tuple[str, str, str]]:
    """n players with distinct two-word names."""
    return [(f"{FIRST[i % len(FIRST)]} {LAST[i // len(FIRST)]}", "", "") for i in range(n)]


def shot(page, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.fixture
def to_page(new_context, organizer, log_in):
    """The organizer's laptop: a flow runs there once; at_both_widths looks at each screen on a phone too."""
    page = new_context(**SIZES["1280"]).new_page()
    log_in(page, organizer["email"])
    return page


def visible_rows(page) -> int:
    """Table rows wholly inside the viewport."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('ol.matches > li.match')).filter((li) => {
        const r = li.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }).length""")


def test_compact_rows_go_to_and_saved_note(to_page, organizer, seed_swiss):
    event = seed_swiss(organizer["id"], field(80), rounds=2, name="Compact 1280")
    event.pair(3)
    page = to_page
    page.goto(f"/tournaments/{event.id}/rounds/3")
    rows = page.locator("ol.matches > li.match")
    expect(rows).to_have_count(40)
    at_both_widths(page, SHOTS, "round_top", lambda p, width: p.evaluate("window.scrollTo(0, 0)"), full_page=False)

    def compact(p, width):
        heights = rows.evaluate_all("(els) => els.map((e) => e.getBoundingClientRect().height)")
        if width == 1280:
            assert max(heights) < 60, heights  # one line a table
            p.evaluate("window.scrollTo(0, document.querySelector('ol.matches').offsetTop)")
            assert visible_rows(p) >= 14
        else:
            assert max(heights) < 150, heights
            p.evaluate("window.scrollTo(0, document.querySelector('ol.matches').offsetTop)")
            assert visible_rows(p) >= 5
    at_both_widths(page, SHOTS, "round_live", compact, full_page=False)

    # Go to a table by number, then a player by part of their name (accents and case ignored).
    page.evaluate("window.marker = 'no reload'")
    page.get_by_placeholder("Go to table no. or name").fill("27")
    page.get_by_placeholder("Go to table no. or name").press("Enter")
    expect(page.locator("#t27.found")).to_be_in_viewport()
    assert page.url.endswith("#t27")
    name = page.locator("#t33 .seat-2 .name").inner_text()
    page.get_by_placeholder("Go to table no. or name").fill(name.upper())
    page.get_by_role("button", name="Go", exact=True).click()
    found = page.locator("li.match.found")
    expect(found).to_have_count(1)
    expect(found).to_be_in_viewport()
    assert name.split()[1] in found.inner_text()
    page.get_by_placeholder("Go to table no. or name").fill("Nobody Here")
    page.get_by_placeholder("Go to table no. or name").press("Enter")
    expect(page.locator("#jump-status")).to_have_text("No table or player matches \u201cNobody Here\u201d.")

    # A tap is saved in the background: a note names the table, the row shows the result, no reload.
    page.get_by_placeholder("Go to table no. or name").fill("12")
    page.get_by_placeholder("Go to table no. or name").press("Enter")
    row = page.locator("#t12")
    row.get_by_role("button", name="Runner win", exact=True).click()
    expect(page.locator("#toast")).to_have_text("Saved \u2713 table 12: Runner win")
    expect(row.locator("[data-result]")).to_have_text("Runner win")
    expect(row.locator("button[aria-pressed=true]")).to_have_text("Runner win")
    expect(page.locator('[data-count="confirmed"]')).to_have_text("1")
    expect(page.locator("#unreported-line")).to_have_text("39 of 40 results to report.")
    assert page.evaluate("window.marker") == "no reload"
    at_both_widths(page, SHOTS, "round_saved", lambda p, width: expect(row.locator("[data-result]")).to_have_text(
        "Runner win"), full_page=False)
    with event.live.app_context():
        (m,) = [m for m in service.load_round(db.session.get(Tournament, event.id), 3).matches if m.table == 12]
        assert m.result == "runner"
        db.session.remove()


def test_saved_result_updates_the_page_without_a_reload(to_page, organizer, seed_swiss):
    """The row's history, the progress line, the next round's button and the closed hand edits come with the
    save's answer, as a reload would show them."""
    event = seed_swiss(organizer["id"], field(8), rounds=0, name="Live parts 1280")
    event.pair(1)
    page = to_page
    page.goto(f"/tournaments/{event.id}/rounds/1")
    page.evaluate("window.marker = 'no reload'")
    expect(page.locator("#edit-pairings")).to_have_count(1)
    row = page.locator("#t2")
    expect(row.locator(".result-log")).to_have_count(0)
    row.get_by_role("button", name="Corp win", exact=True).click()
    expect(page.locator("#toast")).to_have_text("Saved \u2713 table 2: Corp win")
    expect(row.locator(".result-log summary")).to_have_text("History (1)")
    expect(row).not_to_have_class(re.compile(r"\bwaiting\b"))
    expect(page.locator("#unreported-line")).to_have_text("3 of 4 results to report.")
    expect(page.locator("#edit-pairings")).to_have_count(0)  # no hand edits once a result is in
    expect(page.locator("#round-actions")).not_to_contain_text("Pair round 2")
    # Focus stays on the tapped button, now in the new row.
    assert page.evaluate("document.activeElement.closest('li.match').id + ' ' + document.activeElement.textContent") \
        == "t2 Corp win"
    row.locator(".result-log summary").click()
    expect(row.locator(".result-log")).to_contain_text("no result \u2192 Corp win")
    at_both_widths(page, SHOTS, "round_parts_saved", lambda p, width: expect(
        row.locator(".result-log")).to_contain_text("no result \u2192 Corp win"), full_page=False)
    row.get_by_role("button", name="Tie", exact=True).click()
    expect(row.locator(".result-log summary")).to_have_text("History (2)")
    expect(row.locator("[data-result]")).to_have_text("Tie")
    for table in (1, 3, 4):
        page.locator(f"#t{table}").get_by_role("button", name="Runner win", exact=True).click()
        expect(page.locator(f"#t{table} .result-log summary")).to_have_text("History (1)")
    expect(page.locator("#unreported-line")).to_have_text("All results are in.")
    expect(page.locator("#round-actions").get_by_role("button", name="Pair round 2")).to_be_visible()
    assert page.evaluate("window.marker") == "no reload"
    at_both_widths(page, SHOTS, "round_parts_all_in", lambda p, width: expect(
        p.locator("#round-actions").get_by_role("button", name="Pair round 2")).to_be_visible())


def test_saved_without_javascript_goes_back_to_the_table(new_context, organizer, log_in, seed_swiss):
    event = seed_swiss(organizer["id"], field(40), rounds=0, name="No JS 1280")
    event.pair(1)
    page = new_context(java_script_enabled=False, **SIZES["1280"]).new_page()
    log_in(page, organizer["email"])
    page.goto(f"/tournaments/{event.id}/rounds/1")
    page.locator("#t15").get_by_role("button", name="Tie", exact=True).click()
    assert page.url.endswith("/rounds/1#t15")
    expect(page.locator(".flash.success")).to_have_text("Saved: table 15, Tie.")
    expect(page.locator("#t15 [data-result]")).to_have_text("Tie")
    page.get_by_placeholder("Go to table no. or name").fill(event_name_at(event, 1, 7))
    page.get_by_role("button", name="Go", exact=True).click()
    assert page.url.endswith("/rounds/1#t7")


def event_name_at(event, number: int, table: int) -> str:
    return next(name for name, t in event.tables(number).items() if t == table)


def test_points_before_the_round_and_the_result_apart(to_page, organizer, seed_swiss):
    event = seed_swiss(organizer["id"], field(12), rounds=2, name="Points 1280")
    before = event.points()  # after rounds 1 and 2: what every player brings into round 3
    event.pair(3)
    event.report(3)
    page = to_page
    page.goto(f"/tournaments/{event.id}/rounds/3")
    expect(page.locator(".points-legend")).to_contain_text("points before round 3")
    for i in range(6):
        row = page.locator("ol.matches > li.match").nth(i)
        for seat in (".seat-1", ".seat-2"):
            name = row.locator(f"{seat} .name").inner_text()
            expect(row.locator(f"{seat} .pts")).to_have_text(f"{before[name]} pts")
        assert row.locator("[data-result]").inner_text() in ("Corp win", "Runner win", "Tie")
    # Round 1 has no points to bring.
    page.goto(f"/tournaments/{event.id}/rounds/1")
    expect(page.locator(".match .pts")).to_have_count(0)
    at_both_widths(page, SHOTS, "round_points_round1", lambda p, width: expect(p.locator(".match .pts")).to_have_count(
        0))


def _double_rematch(live, owner_id: int, name: str) -> tuple[int, str, str]:
    """A double-sided event whose round 2 (unpublished) has a rematch made by hand: (event id, the two names)."""
    with live.app_context():
        t = Tournament(owner_id=owner_id, name=name, format="double", planned_rounds=3)
        db.session.add(t)
        db.session.commit()
        db.session.add_all(Player(tournament_id=t.id, name=n) for n, _, _ in field(8))
        db.session.commit()
        service.pair_next_round(t, 1)
        service.publish_round(t, 1)
        first = service.load_round(t, 1).matches
        for m in first:
            match_results.report_result(t, m.id, results.outcome(t.fmt, "6-0"), match_results.Actor("organizer"))
        service.pair_next_round(t, 2)
        a, b = first[0].seats[0].player_id, first[0].seats[1].player_id
        where = {s.player_id: m for m in service.load_round(t, 2).matches for s in m.seats}
        opponent = next(s.player_id for s in where[a].seats if s.player_id != a)
        warnings = pairing_edits.edit_pairings(t, 2, "swap", opponent, b)  # a now plays b again
        assert any(w.kind == "rematch" for w in warnings)
        names = first[0].seats[0].name, first[0].seats[1].name
        tid = t.id
        db.session.remove()
    return tid, *names


def test_warning_on_its_table_with_a_one_click_swap(to_page, organizer, live_server, unique):
    tid, a, b = _double_rematch(live_server, organizer["id"], f"Rematch 1280 {unique}")
    page = to_page
    page.goto(f"/tournaments/{tid}/rounds/2")
    text = re.compile(f"({a} and {b}|{b} and {a}) have played each other already")
    expect(page.get_by_text(text)).to_have_count(1)  # once, on its table
    broken = page.locator("li.match.broken")
    expect(broken.filter(has_text=text)).to_have_count(1)
    n = broken.count()  # the swap that made the rematch may have made a second one
    assert n in (1, 2)
    expect(page.locator("#pairing-check")).to_contain_text("Check table")
    page.locator("#pairing-check .table-link").first.click()
    expect(broken.first).to_be_in_viewport()

    def on_its_table(p, width):
        expect(broken.filter(has_text=text)).to_have_count(1)
        broken.first.scroll_into_view_if_needed()  # the other width moved the page under the view
        expect(broken.first).to_be_in_viewport()
    at_both_widths(page, SHOTS, "round_warning", on_its_table, full_page=False)
    for left in range(n - 1, -1, -1):  # one click a table, each clean afterwards
        fix = broken.first.get_by_role("button", name="Swap")
        expect(fix).to_have_count(1)
        fix.click()
        expect(page.locator(".flash.success")).to_have_text("Pairings changed.")
        expect(page.locator("li.match.broken")).to_have_count(left)
    expect(page.locator("#pairing-check")).to_have_count(0)
    expect(page.locator("details#edit-pairings")).to_have_attribute("open", "")
    at_both_widths(page, SHOTS, "round_fixed", lambda p, width: expect(p.locator("li.match.broken")).to_have_count(0),
                   full_page=False)


def test_same_sides_fixed_by_swapping_sides_and_form_stays_open(to_page, organizer, seed_swiss):
    event = seed_swiss(organizer["id"], field(12), rounds=1, name="Sides 1280")
    with event.live.app_context():
        t = db.session.get(Tournament, event.id)
        first = service.load_round(t, 1).matches[0]
        corp, runner = first.seats[0].player_id, first.seats[1].player_id
        service.pair_next_round(t, 2)
        where = {s.player_id: m for m in service.load_round(t, 2).matches for s in m.seats}
        if where[corp] is not where[runner]:
            opponent = next(s.player_id for s in where[corp].seats if s.player_id != corp)
            pairing_edits.edit_pairings(t, 2, "swap", opponent, runner)
        m = next(m for m in service.load_round(t, 2).matches if corp in [s.player_id for s in m.seats])
        if m.seats[0].player_id != corp:  # the same sides as in round 1: against the rules
            pairing_edits.edit_pairings(t, 2, "sides", corp)
        db.session.remove()
    page = to_page
    page.goto(f"/tournaments/{event.id}/rounds/2")
    broken = page.locator("li.match.broken")
    expect(broken.first).to_contain_text("met before with the same sides")
    broken.first.get_by_role("button", name="Swap sides at table").click()
    expect(page.get_by_text("met before with the same sides")).to_have_count(0)
    expect(page.locator("details#edit-pairings")).to_have_attribute("open", "")
    # The edit form too keeps itself open after an apply.
    page.locator("#edit-pairings select[name=action]").select_option("sides")
    page.locator("#edit-pairings").get_by_role("button", name="Apply").click()
    expect(page.locator(".flash.success")).to_have_text("Pairings changed.")
    expect(page.locator("details#edit-pairings")).to_have_attribute("open", "")
    expect(page.locator(".flash.warning")).to_have_count(0)  # warnings show on the tables, not twice


def test_undo_is_apart_and_asks(to_page, organizer, seed_swiss):
    event = seed_swiss(organizer["id"], field(12), rounds=1, name="Undo 1280")
    page = to_page
    page.goto(f"/tournaments/{event.id}/rounds/1")
    expect(page.locator(".actions").get_by_role("button", name="Undo round 1")).to_have_count(0)
    expect(page.locator(".actions").get_by_role("link", name="Standings", exact=True)).to_be_visible()
    zone = page.locator("#danger-zone")

    def below_the_tables(p, width):
        assert zone.evaluate("(z) => z.getBoundingClientRect().top") > \
            p.locator("ol.matches").evaluate("(l) => l.getBoundingClientRect().bottom")
        zone.scroll_into_view_if_needed()
    below_the_tables(page, 1280)
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    zone.get_by_role("button", name="Undo round 1").click()
    assert asked and "Delete round 1" in asked[0] and "cannot be undone" in asked[0]
    expect(page.locator("ol.matches > li.match")).to_have_count(6)
    at_both_widths(page, SHOTS, "round_danger", below_the_tables, full_page=False)
    with event.live.app_context():
        assert db.session.scalar(sa.select(sa.func.count(Round.id)).where(Round.tournament_id == event.id)) == 1
        db.session.remove()


def test_past_round_read_only_until_edit(to_page, organizer, seed_swiss):
    event = seed_swiss(organizer["id"], field(12), rounds=2, name="Past 1280")
    page = to_page
    page.goto(f"/tournaments/{event.id}/rounds/1")
    expect(page.locator("#past-round")).to_contain_text("read-only")
    expect(page.locator("ol.matches .result-buttons")).to_have_count(0)
    expect(page.locator("#danger-zone")).to_have_count(0)
    at_both_widths(page, SHOTS, "round_past", lambda p, width: expect(p.locator("#past-round")).to_contain_text(
        "read-only"))
    # Cancel the confirmation: still read-only.
    page.once("dialog", lambda d: d.dismiss())
    page.get_by_role("button", name="Edit results").click()
    expect(page.locator("ol.matches .result-buttons")).to_have_count(0)
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.get_by_role("button", name="Edit results").click()
    expect(page.locator("#past-round")).to_contain_text("Editing round 1's results")
    assert "standings" in asked[0] and "round 2" in asked[0]
    row = page.locator("ol.matches > li.match:not(.bye)").first
    table = int(row.locator(".tno").inner_text())
    current = row.locator("[data-result]").inner_text()
    new = "Tie" if current != "Tie" else "Corp win"
    row.get_by_role("button", name=new, exact=True).click()
    expect(page.locator("#toast")).to_have_text(f"Saved \u2713 table {table}: {new}")
    expect(row.locator("[data-result]")).to_have_text(new)
    at_both_widths(page, SHOTS, "round_past_editing", lambda p, width: expect(
        row.locator("[data-result]")).to_have_text(new), full_page=False)
    page.get_by_role("link", name="Done editing").click()
    expect(page.locator("ol.matches .result-buttons")).to_have_count(0)
    expect(page.locator(f"#t{table} [data-result]")).to_have_text(new)


def test_fixes_for_a_dropped_player_and_one_left_out(to_page, organizer, live_server, unique):
    """A player dropped after the pairing and one registered late: each warning's button repairs it."""
    with live_server.app_context():
        t = Tournament(owner_id=organizer["id"], name=f"Late changes 1280 {unique}", format="single",
                       planned_rounds=3)
        db.session.add(t)
        db.session.commit()
        db.session.add_all(Player(tournament_id=t.id, name=n) for n, _, _ in field(7))
        db.session.commit()
        service.pair_next_round(t, 1)
        paired = next(m for m in service.load_round(t, 1).matches if not m.is_bye)
        gone = db.session.get(Player, paired.seats[0].player_id)
        gone.dropped = True
        db.session.add(Player(tournament_id=t.id, name="Late Comer"))
        db.session.commit()
        tid, gone_name, table = t.id, gone.name, paired.table
        db.session.remove()
    page = to_page
    page.goto(f"/tournaments/{tid}/rounds/1")
    row = page.locator(f"#t{table}")
    expect(row).to_contain_text(f"{gone_name} has dropped.")
    expect(page.locator("#pairing-check")).to_contain_text("Not paired this round: Late Comer.")
    at_both_widths(page, SHOTS, "round_fixes", lambda p, width: expect(row).to_contain_text(
        f"{gone_name} has dropped."))
    row.get_by_role("button", name=re.compile(f"^Take {gone_name} out")).click()
    expect(page.locator(".flash.success")).to_have_text("Pairings changed.")
    expect(page.locator("li.match.broken")).to_have_count(0)
    page.locator("#pairing-check").get_by_role("button", name=re.compile("Late Comer")).click()
    expect(page.locator(".flash.success")).to_have_text("Pairings changed.")
    expect(page.locator("#pairing-check")).to_have_count(0)
    expect(page.locator("ol.matches")).to_contain_text("Late Comer")
    expect(page.locator("ol.matches")).not_to_contain_text(gone_name)
    at_both_widths(page, SHOTS, "round_fixed", lambda p, width: expect(p.locator("ol.matches")).to_contain_text(
        "Late Comer"))


def _plain_round(live, owner_id: int, name: str) -> int:
    """A plain swiss event of 8 players with round 1 paired and published: its id."""
    with live.app_context():
        t = Tournament(owner_id=owner_id, name=name, format="plain", planned_rounds=3)
        db.session.add(t)
        db.session.commit()
        db.session.add_all(Player(tournament_id=t.id, name=n) for n, _, _ in field(8))
        db.session.commit()
        service.pair_next_round(t, 1)
        service.publish_round(t, 1)
        tid = t.id
        db.session.remove()
    return tid


def test_a_result_from_another_device_arrives_by_the_poll(to_page, new_context, organizer, log_in, live_server,
                                                          unique, screenshots):
    """The open page asks which of its parts changed and swaps in the server's drawing of them: the row with its
    history, the counts, the progress line. A row whose custom result is being typed waits until it is closed;
    a focused button keeps its focus in the new row."""
    tid = _plain_round(live_server, organizer["id"], f"Poll 1280 {unique}")
    page = to_page
    page.clock.install()  # its time flows as the real one; next_poll() moves it on to the page's next poll
    page.goto(f"/tournaments/{tid}/rounds/1")
    page.evaluate("window.marker = 'no reload'")
    other = new_context().new_page()
    log_in(other, organizer["email"])
    other.goto(f"/tournaments/{tid}/rounds/1")

    live_url = live_server.url + page.locator("#round-live").get_attribute("data-url")

    def next_poll() -> None:
        """The page's 4-second poll, now: its question of what changed (not a part's drawing) answered and read."""
        with page.expect_response(lambda r: r.url == live_url) as answer:
            page.clock.run_for(4000)
        if answer.value.status == 200:  # a 304 has no body to wait for
            answer.value.body()
        page.evaluate("0")  # a task after the answer's own: the page has acted on it

    other.locator("#t1").get_by_role("button", name="2-1", exact=True).click()
    expect(other.locator("#toast")).to_have_text("Saved \u2713 table 1: 2-1")
    next_poll()
    expect(page.locator("#t1 [data-result]")).to_have_text("2-1")
    expect(page.locator("#t1 .result-log summary")).to_have_text("History (1)")
    expect(page.locator("#t1 button[aria-pressed=true]")).to_have_text("2-1")
    expect(page.locator('[data-count="confirmed"]')).to_have_text("1")
    expect(page.locator("#unreported-line")).to_have_text("3 of 4 results to report.")
    expect(page.locator("#edit-pairings")).to_have_count(0)

    # Typing a custom result at table 2 while table 2's result comes from elsewhere: the form stays as it is.
    row = page.locator("#t2")
    row.locator("details.custom summary").click()
    row.locator("input[name=first]").fill("2")
    other.locator("#t2").get_by_role("button", name="0-2", exact=True).click()
    expect(other.locator("#toast")).to_have_text("Saved \u2713 table 2: 0-2")
    next_poll()
    expect(page.locator('[data-count="confirmed"]')).to_have_text("2")
    next_poll()  # one more poll: the row still waits
    expect(row.locator("details.custom")).to_have_attribute("open", "")
    expect(row.locator("input[name=first]")).to_have_value("2")
    expect(row.locator("input[name=first]")).to_be_focused()
    expect(row.locator("[data-result]")).to_have_text("no result")

    def still_typing(p, width):
        expect(row.locator("input[name=first]")).to_have_value("2")
        expect(row.locator("input[name=first]")).to_be_focused()
        row.scroll_into_view_if_needed()
    at_both_widths(page, screenshots, "round_poll_typing", still_typing, full_page=False)
    row.locator("details.custom summary").click()  # closed: the next poll brings the row
    next_poll()
    expect(row.locator("[data-result]")).to_have_text("0-2")
    expect(row.locator("details.custom")).not_to_have_attribute("open", "")

    # A focused button: its counterpart in the new row keeps the focus.
    page.locator("#t3").get_by_role("button", name="1-1 draw", exact=True).focus()
    other.locator("#t3").get_by_role("button", name="2-0", exact=True).click()
    expect(other.locator("#toast")).to_have_text("Saved \u2713 table 3: 2-0")
    next_poll()
    expect(page.locator("#t3 [data-result]")).to_have_text("2-0")
    assert page.evaluate("document.activeElement.closest('li.match').id + ' ' + document.activeElement.textContent") \
        == "t3 1-1 draw"
    assert page.evaluate("window.marker") == "no reload"
    expect(page.locator("#unreported-line")).to_have_text("1 of 4 results to report.")
    at_both_widths(page, screenshots, "round_poll_arrived", lambda p, width: expect(
        p.locator("#t3 [data-result]")).to_have_text("2-0"))

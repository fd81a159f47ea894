"""Issue 30 on a phone (360 px): the event home a QR code opens follows the event by itself (a new round's table in
its "You:" line without a reload by hand), and a player's page shows the opponent's report within 3 s."""
from __future__ import annotations

import time

from playwright.sync_api import expect

from app.extensions import db
from app.models import Player
from app.services.results import participation
from app.services.swiss import rounds
from tests.browser.test_player_live_flow import (_context, _event, _in_app, _link, _pair, _player_id, _report_round,
                                                 _table_of)

WIDTH = 360


def test_the_event_home_follows_a_new_round(new_context, live_server, organizer, roster, screenshots):
    names = [n for n, _, _ in roster[:8]]
    tid, slug = _event(live_server, organizer["id"], names, name="Home Live Open")
    me = _player_id(live_server, tid, names[0])
    _pair(live_server, tid, 1)
    page = _context(new_context, WIDTH).new_page()
    page.goto(_link(live_server, tid, me))  # the device remembers its player
    page.goto(f"/t/{slug}")
    banner = page.locator(".you-banner")
    expect(banner).to_contain_text("You:")
    expect(page.get_by_text("Round 1 of 2 is up.")).to_be_visible()
    page.screenshot(path=str(screenshots / f"venue_home_round1_{WIDTH}.png"), full_page=True)

    _report_round(live_server, tid, 1, me)
    _pair(live_server, tid, 2)
    table = _in_app(live_server, tid, lambda t: next(
        m.table for m in rounds.load_round(t, 2).matches if any(s.player_id == me for s in m.seats)))
    expect(page.get_by_text("Round 2 of 2 is up.")).to_be_visible(timeout=6_000)  # within a couple of polls
    expect(banner).to_contain_text(f"table {table},")
    page.screenshot(path=str(screenshots / f"venue_home_round2_{WIDTH}.png"), full_page=True)


def test_a_form_being_filled_in_is_not_reloaded_away(new_context, live_server, organizer, roster):
    names = [n for n, _, _ in roster[:4]]
    tid, slug = _event(live_server, organizer["id"], names, name="Home Form Open")
    _in_app(live_server, tid, lambda t: (setattr(t, "registration_open", True), setattr(t, "late_registration", True),
                                         db.session.commit()))
    page = _context(new_context, WIDTH).new_page()
    page.goto(f"/t/{slug}")
    field = page.locator("#register input[name=name]")
    field.fill("Zed Late")
    _pair(live_server, tid, 1)
    expect(page.locator("#live-stale")).to_be_visible(timeout=6_000)
    expect(field).to_have_value("Zed Late")


def test_the_opponents_report_reaches_a_player_page_within_3_s(new_context, live_server, organizer, roster,
                                                                screenshots):
    names = [n for n, _, _ in roster[:8]]
    tid, slug = _event(live_server, organizer["id"], names, name="Report Speed Open")
    me = _player_id(live_server, tid, names[0])
    _pair(live_server, tid, 1)
    page = _context(new_context, WIDTH).new_page()
    page.goto(_link(live_server, tid, me))
    card = page.locator("#me-card")
    expect(card).to_contain_text("Round 1")
    page.wait_for_timeout(1_000)  # the page settled: its first checks are behind it

    def opponent_reports(t):
        match_id, seats = _table_of(t, 1, me)
        other, side = next((p, s) for p, s in seats if p != me)
        participation.report(t, db.session.get(Player, other), match_id, side)
    started = time.monotonic()
    _in_app(live_server, tid, opponent_reports)
    expect(card).to_contain_text("reported: you lost", timeout=3_000)
    assert time.monotonic() - started < 3.0
    page.screenshot(path=str(screenshots / f"venue_player_report_{WIDTH}.png"), full_page=True)

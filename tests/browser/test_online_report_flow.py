"""An online event's report address on a 360 px phone (what jinteki.net's round panel links): a wrong code says
so, the right one opens the player's page with the opponent's jinteki.net name and their result buttons; the
phone is then remembered, and the address takes it straight to its page. The TO's 1280 px list shows each
player's handles and code."""
from __future__ import annotations

from playwright.sync_api import expect

from app.extensions import db
from app.models import Player, Tournament
from app.services.online import report_codes

from tests.browser.conftest import SeededEvent

NARROW = {"width": 360, "height": 780}


def test_a_phone_proves_its_player_at_the_report_address(new_context, organizer, log_in, live_server, screenshots):
    with live_server.app_context():
        t = Tournament(owner_id=organizer["id"], name="Online Circuit Opener", format="single", online=True)
        db.session.add(t)
        db.session.flush()
        names = [("Zoë Kovač", "zoekov", "zoe.k"), ("Grace Hopper", "gracehopper", ""),
                 ("Ada Lovelace", "ada_l", "ada#0001"), ("Alan Turing", "turing42", "")]
        db.session.add_all(Player(tournament_id=t.id, name=n, jinteki_name=j, discord=d) for n, j, d in names)
        db.session.commit()
        zoe = db.session.query(Player).filter_by(tournament_id=t.id, name="Zoë Kovač").one()
        code, shown = report_codes.code(zoe), report_codes.shown(zoe)
        tid, slug = t.id, t.slug
        db.session.remove()
    SeededEvent(live_server, tid, slug).pair(1)

    phone = new_context(viewport=NARROW, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
    phone.goto(f"/t/{slug}/report")
    expect(phone.get_by_role("heading", name="Report your game")).to_be_visible()
    phone.get_by_label("Your name or jinteki.net username").fill("zoekov")
    phone.get_by_label("Your code").fill("ZZZZZZ")
    phone.get_by_role("button", name="Open my page").click()
    expect(phone.get_by_role("alert")).to_contain_text("That code does not match zoekov")
    assert phone.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    phone.screenshot(path=str(screenshots / "online_report_wrong_360.png"), full_page=True)

    phone.get_by_label("Your code").fill(code.lower()[:3] + " " + code.lower()[3:])
    phone.get_by_role("button", name="Open my page").click()
    expect(phone.locator("h1.me-name")).to_have_text("Zoë Kovač")
    card = phone.locator("#me-card")
    expect(card).to_contain_text("Table")
    expect(card.locator(".handle .jnet")).to_be_visible()  # the opponent's jinteki.net username
    expect(card.locator(".result-buttons button").first).to_be_visible()
    expect(phone.locator("#online-me")).to_contain_text(shown)
    assert phone.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    phone.screenshot(path=str(screenshots / "online_report_player_360.png"), full_page=True)

    # The phone is remembered: the report address now opens its page at once.
    phone.goto(f"/t/{slug}/report")
    expect(phone.locator("h1.me-name")).to_have_text("Zoë Kovač")

    # The public pairings show the handles too.
    phone.goto(f"/t/{slug}/pairings")
    expect(phone.locator("#pairings")).to_contain_text("gracehopper")
    assert phone.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    phone.screenshot(path=str(screenshots / "online_pairings_360.png"), full_page=True)

    desk = new_context(viewport={"width": 1280, "height": 800}).new_page()
    log_in(desk, organizer["email"], organizer["password"])
    desk.goto(f"/tournaments/{tid}/players")
    row = desk.locator("#player-table tr", has_text="Zoë Kovač")
    expect(row).to_contain_text("zoekov")
    expect(row).to_contain_text(shown)
    desk.screenshot(path=str(screenshots / "online_players_1280.png"), full_page=True)
    desk.goto(f"/tournaments/{tid}")
    expect(desk.locator("#report-address")).to_contain_text(f"/t/{slug}/report")
    desk.goto(f"/tournaments/{tid}/rounds/1")
    expect(desk.locator("#t1 .handle .jnet").first).to_be_visible()
    desk.screenshot(path=str(screenshots / "online_round_1280.png"), full_page=True)

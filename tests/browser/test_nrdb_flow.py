"""A 360 px phone registers with its NetrunnerDB account (through a local stand-in of NetrunnerDB's consent page),
finds its entry linked, and opens its history; the TO's 1280 px player list shows who is linked. The server is
reached by a public name (`public_context`): NetrunnerDB's sign-in is offered only there; at the loopback address
the phone sees no sign-in at all."""
from __future__ import annotations

from playwright.sync_api import expect

from app.extensions import db
from app.models import Tournament
from nrdb_standin import Standin, running

NARROW = {"width": 360, "height": 780}


def test_phone_registers_with_netrunnerdb(public_context, organizer, log_in, live_server, screenshots, unique):
    with live_server.app_context():
        t = Tournament(owner_id=organizer["id"], name=f"NRDB Night {unique}", format="single",
                       registration_open=True)
        db.session.add(t)
        db.session.commit()
        tid, slug = t.id, t.slug
        db.session.remove()
    config = live_server.app.config
    before = {k: config[k] for k in ("NRDB_URL", "NRDB_CLIENT_ID", "NRDB_CLIENT_SECRET")}
    standin = Standin("browser-client", "browser-secret", f"{public_context.url}/nrdb/callback",
                      users={"ana_runs": 90000 + abs(hash(unique)) % 10000}, consent="ana_runs")
    try:
        with running(standin) as url:
            config.update(NRDB_URL=url, NRDB_CLIENT_ID="browser-client", NRDB_CLIENT_SECRET="browser-secret")
            phone = public_context(viewport=NARROW, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
            phone.goto(f"/t/{slug}")
            phone.get_by_role("link", name="Register with your NetrunnerDB account").click()
            expect(phone.locator(".flash")).to_contain_text("Signed in with NetrunnerDB as ana_runs")
            form = phone.locator("#register")
            expect(form.get_by_label("Name", exact=True)).to_have_value("ana_runs")
            expect(form).to_contain_text("your entry will be linked")
            form.get_by_label("Name", exact=True).fill("Ana Runs")
            form.get_by_role("button", name="Register").click()
            expect(phone.get_by_text("You are registered, Ana Runs.")).to_be_visible()
            phone.goto(phone.locator("a[href*='/p/']").first.get_attribute("href"))
            box = phone.locator("#nrdb")
            expect(box).to_contain_text("Linked to ana_runs")
            phone.screenshot(path=str(screenshots / "nrdb_player_page_360.png"), full_page=True)
            box.get_by_role("link", name="Your history on this server").click()
            expect(phone.locator("h1")).to_have_text("ana_runs")
            expect(phone.locator(".history-event")).to_contain_text(f"NRDB Night {unique}")
            phone.screenshot(path=str(screenshots / "nrdb_history_360.png"), full_page=True)

            desk = public_context(viewport={"width": 1280, "height": 800}).new_page()
            log_in(desk, organizer["email"], organizer["password"])
            desk.goto(f"/tournaments/{tid}/players")
            expect(desk.locator("#player-table")).to_contain_text("NRDB ana_runs")
            desk.screenshot(path=str(screenshots / "nrdb_players_1280.png"))
    finally:
        config.update(before)


def test_no_sign_in_at_a_local_address(new_context, organizer, log_in, live_server, unique):
    """The same server with its NetrunnerDB client, reached at its loopback address (as `make venue`'s LAN address
    would be): the phone is offered no sign-in it could not come back from, and the TO's dashboard says why."""
    with live_server.app_context():
        t = Tournament(owner_id=organizer["id"], name=f"Venue Night {unique}", format="single",
                       registration_open=True)
        db.session.add(t)
        db.session.commit()
        tid, slug = t.id, t.slug
        db.session.remove()
    config = live_server.app.config
    before = {k: config[k] for k in ("NRDB_CLIENT_ID", "NRDB_CLIENT_SECRET", "PUBLIC_URL")}
    try:
        config.update(NRDB_CLIENT_ID="browser-client", NRDB_CLIENT_SECRET="browser-secret",
                      PUBLIC_URL=live_server.url)
        phone = new_context(viewport=NARROW, is_mobile=True, has_touch=True).new_page()
        phone.goto(f"/t/{slug}")
        expect(phone.locator("#register")).to_be_visible()
        expect(phone.get_by_text("NetrunnerDB")).to_have_count(0)
        desk = new_context().new_page()
        log_in(desk, organizer["email"], organizer["password"])
        desk.goto(f"/tournaments/{tid}")
        expect(desk.locator("#nrdb-sign-in-off")).to_contain_text("this computer only")
    finally:
        config.update(before)

"""A 360 px phone registers itself and keeps its link and QR code; the TO's 1280 px player list shows the new
player without a reload."""
from __future__ import annotations

from playwright.sync_api import expect

from app.extensions import db
from app.models import Player, Tournament

NARROW = {"width": 360, "height": 780}


def test_phone_registers_and_the_to_list_shows_it(new_context, organizer, log_in, live_server, screenshots):
    with live_server.app_context():
        t = Tournament(owner_id=organizer["id"], name="Open Registration Night", format="single",
                       registration_open=True, registration_cap=8)
        db.session.add(t)
        db.session.flush()
        db.session.add(Player(tournament_id=t.id, name="Zoë Kovač", corp_identity="Jinteki: Potential Unleashed"))
        db.session.commit()
        tid, slug = t.id, t.slug
        db.session.remove()

    desk = new_context(viewport={"width": 1280, "height": 800}).new_page()
    log_in(desk, organizer["email"], organizer["password"])
    desk.goto(f"/tournaments/{tid}/players")
    expect(desk.locator("#player-table")).to_contain_text("Zoë Kovač")
    expect(desk.locator("#player-table")).not_to_contain_text("Grace Hopper")
    desk.evaluate("window.notReloaded = true")

    phone = new_context(viewport=NARROW, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
    phone.goto(f"/t/{slug}")
    form = phone.locator("#register")
    expect(form.get_by_role("heading", name="Register")).to_be_visible()
    expect(form).to_contain_text("7 places left")
    # A name that differs only in case and accents is refused, and nothing is created.
    form.get_by_label("Name", exact=True).fill("zoe kovac")
    form.get_by_role("button", name="Register").click()
    expect(phone.get_by_text("“Zoë Kovač” is already in this tournament.")).to_be_visible()
    form = phone.locator("#register")
    form.get_by_label("Name", exact=True).fill("Grace Hopper")
    form.get_by_label("Corp identity").fill("Haas-Bioroid: Precision Design")
    form.get_by_label("Runner identity").fill("Nova")
    form.get_by_label("Pronouns (optional)").fill("she/her")
    phone.screenshot(path=str(screenshots / "register_phone_360.png"), full_page=True)
    form.get_by_role("button", name="Register").click()

    expect(phone.get_by_text("Save this link")).to_be_visible()
    link = phone.locator("#player-link")
    expect(link).to_contain_text(f"/t/{slug}/p/")
    qr = phone.locator(".qr svg")
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box["width"] >= 120 and box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]  # no sideways scroll
    phone.screenshot(path=str(screenshots / "register_phone_link_360.png"), full_page=True)

    # The organizer's list shows the registration by itself, without a reload.
    row = desk.locator("#player-table tr", has_text="Grace Hopper")
    expect(row).to_be_visible(timeout=15_000)
    expect(row).to_contain_text("she/her")
    expect(row).to_contain_text("registered")
    expect(desk.locator("#player-count")).to_contain_text("2 active")
    assert desk.evaluate("window.notReloaded") is True
    desk.screenshot(path=str(screenshots / "register_to_list_1280.png"), full_page=True)

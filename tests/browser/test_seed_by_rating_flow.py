"""Seeding by rating in a browser: the TO ticks it in the settings at 1280 px (the plain-words explanation beside
the box) and the dashboard says it is on, and that this event has nothing to seed by (it counts in no series); a
player's 360 px phone reads nothing about ratings, since no round was seeded by them."""
from __future__ import annotations

from playwright.sync_api import expect

from app.extensions import db
from app.models import Player, Tournament

NARROW = {"width": 360, "height": 780}
WIDE = {"width": 1280, "height": 900}


def test_the_to_turns_seeding_by_rating_on_and_players_read_what_it_means(new_context, organizer, log_in,
                                                                         live_server, screenshots):
    with live_server.app_context():
        t = Tournament(owner_id=organizer["id"], name="Thursday League, week 9", format="single")
        db.session.add(t)
        db.session.flush()
        db.session.add_all(Player(tournament_id=t.id, name=n) for n in ("Ann", "Ben", "Cat", "Dan"))
        db.session.commit()
        tid, slug = t.id, t.slug
        db.session.remove()

    laptop = new_context(viewport=WIDE).new_page()
    log_in(laptop, organizer["email"])
    laptop.goto(f"/tournaments/{tid}/edit")
    box = laptop.get_by_label("Seed by rating", exact=False)
    expect(box).not_to_be_checked()
    expect(laptop.get_by_text("It never changes who meets whom by score")).to_be_visible()
    box.check()
    laptop.locator("fieldset", has=box).screenshot(path=str(screenshots / "seed_by_rating_settings_1280.png"))
    laptop.get_by_role("button", name="Save settings").click()
    laptop.goto(f"/tournaments/{tid}/edit")
    expect(laptop.get_by_label("Seed by rating", exact=False)).to_be_checked()

    laptop.goto(f"/tournaments/{tid}")
    expect(laptop.locator("#seeding")).to_contain_text("Seeding by rating is on")
    expect(laptop.locator("#seeding")).to_contain_text("counts in no series")

    phone = new_context(viewport=NARROW, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
    phone.goto(f"/t/{slug}")
    expect(phone.locator("h1")).to_be_visible()
    expect(phone.locator("#seeding-note")).to_have_count(0)  # the switch alone promises players nothing
    assert phone.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    phone.screenshot(path=str(screenshots / "seed_by_rating_home_360.png"), full_page=True)

    laptop.goto(f"/tournaments/{tid}/edit")
    laptop.get_by_label("Seed by rating", exact=False).uncheck()
    laptop.get_by_role("button", name="Save settings").click()
    laptop.goto(f"/tournaments/{tid}")
    expect(laptop.locator("h1")).to_be_visible()
    expect(laptop.locator("#seeding")).to_have_count(0)

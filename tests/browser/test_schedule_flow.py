"""The schedule in real browsers: the TO fills in a standard day at 1280 px, moves it to tomorrow in Berlin's time
and adds a break; a 360 px phone sees "Next: round 1 at about <weekday> 10:00" on the event's page and the public
schedule; once round 1 runs with its timer the phone's line moves to round 2. Screenshots go to bench/out/."""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from playwright.sync_api import expect

from app.extensions import db
from app.models import Tournament
from app.services.swiss import timer

PHONE_360 = {"width": 360, "height": 740}


def test_the_to_sets_a_schedule_and_a_phone_sees_what_comes_next(roster, new_context, page, organizer, log_in,
                                                                 seed_swiss, screenshots, live_server):
    event = seed_swiss(organizer["id"], roster[:8], rounds=0, name="Schedule Open", planned=4)
    tomorrow = datetime.now(ZoneInfo("Europe/Berlin")).date() + timedelta(days=1)

    log_in(page, organizer["email"])
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/tournaments/{event.id}")
    page.get_by_role("link", name="Schedule").click()
    page.get_by_role("button", name="Fill in a standard day").click()
    expect(page.locator(".flash").first).to_contain_text("Filled in a standard day: saved")
    assert page.locator("[data-row=item] select[name$='-kind'] >> nth=0").input_value() == "round"
    page.locator("#time_zone").select_option("Europe/Berlin")
    page.locator("#days-0-date").fill(tomorrow.isoformat())
    page.locator("#days-0-start").fill("10:00")
    # the first blank row: a player meeting at the end of the day (order after every round)
    blank = page.locator("[data-row=item]").nth(5)
    blank.locator("select[name$='-kind']").select_option("break")
    blank.locator("input[name$='-minutes']").fill("15")
    blank.locator("input[name$='-label']").fill("Prize giving")
    page.get_by_role("button", name="Save the schedule").click()
    expect(page.locator(".flash").first).to_contain_text("Schedule saved")
    expect(page.locator("table.schedule tbody th")).to_have_text(
        ["Round 1", "Round 2", "Round 3", "Lunch", "Round 4", "Prize giving"])
    page.screenshot(path=str(screenshots / "schedule_to_1280.png"), full_page=True)

    phone = new_context(viewport=PHONE_360, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
    phone.goto(f"/t/{event.slug}")
    expect(phone.locator("#schedule-next")).to_contain_text(f"Next: round 1 at about {tomorrow:%A} 10:00")
    expect(phone.locator(".schedule-today tbody tr")).to_have_count(6)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
    phone.screenshot(path=str(screenshots / "schedule_phone_home_360.png"), full_page=True)
    phone.get_by_role("link", name="The whole schedule").click()
    expect(phone.get_by_role("heading", name="Schedule", exact=True)).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
    phone.screenshot(path=str(screenshots / "schedule_phone_public_360.png"), full_page=True)

    # The event starts early (today, now): round 1 published and its timer running, the phone's line moves on.
    event.pair(1)
    with live_server.app_context():
        timer.act(db.session.get(Tournament, event.id), 1, "start", 65)
        db.session.remove()
    phone.goto(f"/t/{event.slug}/pairings")
    expect(phone.locator("#schedule-next")).to_contain_text("Next: round 2 at about")
    phone.screenshot(path=str(screenshots / "schedule_phone_pairings_360.png"), full_page=True)
    page.goto(f"/tournaments/{event.id}/schedule")
    expect(page.locator("table.schedule tbody tr").first).to_contain_text("now")
    page.set_viewport_size(PHONE_360)
    page.screenshot(path=str(screenshots / "schedule_to_360.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]


def test_a_to_in_paris_gets_the_schedule_in_paris_time_unless_they_chose_a_zone(roster, new_context, organizer,
                                                                                 log_in, seed_swiss, screenshots,
                                                                                 live_server):
    """A browser in Europe/Paris, an event whose zone was never chosen: the select shows Europe/Paris with a word
    that it came from the device, and the standard day is saved in Paris time (10:00 there). At 360 px too."""
    event = seed_swiss(organizer["id"], roster[:8], rounds=0, name="Paris Open", planned=4)
    page = new_context(timezone_id="Europe/Paris").new_page()
    log_in(page, organizer["email"])
    page.goto(f"/tournaments/{event.id}/schedule")
    expect(page.locator("#time_zone")).to_have_value("Europe/Paris")
    expect(page.locator("#browser-zone-note")).to_be_visible()
    page.screenshot(path=str(screenshots / "schedule_zone_offered_1280.png"), full_page=True)
    page.get_by_role("button", name="Fill in a standard day").click()
    expect(page.locator(".flash").first).to_contain_text("Filled in a standard day: saved, times in Europe/Paris")
    expect(page.locator("#time_zone")).to_have_value("Europe/Paris")
    expect(page.locator("#browser-zone-note")).to_have_count(0)  # chosen now: no more offer
    assert page.locator("#days-0-start").input_value() == "10:00"
    page.set_viewport_size(PHONE_360)
    page.screenshot(path=str(screenshots / "schedule_zone_saved_360.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]

    # Another event, its zone chosen (New York) before the schedule: a Paris browser leaves it alone
    other = seed_swiss(organizer["id"], roster[:8], rounds=0, name="NY Open", planned=4)
    with live_server.app_context():
        db.session.get(Tournament, other.id).time_zone = "America/New_York"
        db.session.commit()
        db.session.remove()
    page.goto(f"/tournaments/{other.id}/schedule")
    expect(page.locator("#time_zone")).to_have_value("America/New_York")
    expect(page.locator("#browser-zone-note")).to_have_count(0)

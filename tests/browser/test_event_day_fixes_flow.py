"""Issue 22's frictions that only a browser shows, each flow run once at its person's width and every screen also
looked at the other (360 / 1280 px): the pairing edit goes away by itself once a
result is in (even opened), the "Saved" note lets taps through and keeps off the bottom buttons, the staff roles
have no bullets, a player's page offers no log-in, and the "You:" banner reads as a link."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import at_both_widths
from tests.browser.test_participation_flow import LIVE, PHONE_360, games


def test_the_opened_pairing_edit_goes_once_a_result_is_in(roster, new_context, organizer, seed_swiss, log_in,
                                                          screenshots):
    event = seed_swiss(organizer["id"], roster, rounds=0, name="Edit Open")
    event.pair(1)
    page = new_context().new_page()  # the TO's laptop
    log_in(page, organizer["email"])
    page.goto(f"/tournaments/{event.id}/rounds/1?edit=pairings")
    expect(page.locator("details#edit-pairings")).to_have_attribute("open", "")
    event.report(1)  # every table's result, from other devices
    expect(page.locator("#edit-pairings")).to_have_count(0, timeout=LIVE)
    expect(page.locator("[data-count=unreported]")).to_have_text("0")

    def gone(p, width):
        expect(p.locator("#edit-pairings")).to_have_count(0)
        expect(p.locator("[data-count=unreported]")).to_have_text("0")
    at_both_widths(page, screenshots, "fixes_edit_gone", gone, full_page=False)


def test_the_saved_note_lets_taps_through(roster, new_context, organizer, seed_swiss, log_in, screenshots):
    event = seed_swiss(organizer["id"], roster, rounds=0, name="Toast Open")
    event.pair(1)
    page = new_context().new_page()  # the TO's laptop
    log_in(page, organizer["email"])
    page.clock.install()
    page.goto(f"/tournaments/{event.id}/rounds/1")
    # the page's clock stands still: the note (3 s) stays while both widths are looked at and tapped through
    page.clock.pause_at(page.evaluate("Date.now()") + 1_000)
    rows = page.locator("ol.matches > li.match")
    rows.nth(0).locator("button[value=corp]").click()
    toast = page.locator("#toast")
    expect(toast).to_contain_text("Saved \u2713")

    def at_the_top(p, width):
        expect(toast).to_be_visible()
        assert toast.evaluate("(el) => getComputedStyle(el).pointerEvents") == "none"
        box, height = toast.bounding_box(), p.viewport_size["height"]
        assert box["y"] + box["height"] < height / 3  # at the top, away from the buttons at the bottom
    at_both_widths(page, screenshots, "fixes_toast", at_the_top, full_page=False)
    box = toast.bounding_box()
    # A tap where the note sits goes through it to what is underneath, while the note shows.
    last = rows.nth(rows.count() - 1).locator("button[value=runner]")
    last.scroll_into_view_if_needed()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    last.click()
    expect(rows.nth(rows.count() - 1).locator("[data-result]")).to_have_text("Runner win")
    page.clock.resume()


def test_staff_roles_have_no_bullets(new_context, organizer, seed_swiss, log_in, roster, screenshots):
    event = seed_swiss(organizer["id"], roster[:4], rounds=0, name="Staff Open")
    page = new_context(**PHONE_360).new_page()
    log_in(page, organizer["email"])
    page.goto(f"/tournaments/{event.id}/staff")
    choices = page.locator("form ul").first
    expect(choices.get_by_label("Scorekeeper")).to_be_visible()
    assert choices.evaluate("(ul) => getComputedStyle(ul).listStyleType") == "none"
    assert choices.locator("li").first.evaluate("(li) => getComputedStyle(li).display") == "flex"
    at_both_widths(page, screenshots, "fixes_staff_roles", lambda p, width: expect(
        choices.get_by_label("Scorekeeper")).to_be_visible())


def test_player_pages_and_the_you_banner(roster, new_context, organizer, seed_swiss, live_server, screenshots):
    event = seed_swiss(organizer["id"], roster, rounds=0, name="Banner Open")
    event.pair(1)
    me = games(live_server, event.id)[0]["corp"]
    phone = new_context(**PHONE_360).new_page()
    phone.goto(me["link"])
    expect(phone.locator("header.site")).not_to_contain_text("Log in")
    expect(phone.locator("header.site")).not_to_contain_text("Sign up")
    phone.get_by_role("link", name="All pairings").click()
    banner = phone.locator(".you-banner a")
    expect(banner).to_contain_text("You: table")
    expect(banner.locator(".you-go")).to_have_text("My page ›")
    assert banner.locator(".you-go").evaluate("(el) => getComputedStyle(el).textDecorationLine") == "underline"
    # an event's public page: only a small door for organizers, no "Log in / Sign up" (issue 30)
    expect(phone.locator("header.site")).to_contain_text("Organizer log-in")
    expect(phone.locator("header.site")).not_to_contain_text("Sign up")
    at_both_widths(phone, screenshots, "fixes_you_banner", lambda p, width: expect(banner).to_contain_text(
        "You: table"), full_page=False)
    banner.click()
    phone.wait_for_url(f"**{me['link']}")

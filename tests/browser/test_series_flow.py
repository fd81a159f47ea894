"""A series in the browser: a TO (1280 px) creates a league, adds two of their events, sees the standings and
confirms a suggested match of names; a phone (360 px) opens the public standings and a player's page."""
from __future__ import annotations

from playwright.sync_api import expect


def _no_sideways_scroll(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url} is {scroll} px wide at {width} px"


def test_a_league_from_two_events_on_a_laptop_and_a_phone(roster, new_context, organizer, seed_swiss, log_in,
                                                          screenshots, unique):
    first = seed_swiss(organizer["id"], roster[:8], rounds=2, name=f"Week 1 {unique}")
    # the second week: four of the same players, one of them typed in lower case
    again = [(name.lower() if i == 0 else name, corp, runner) for i, (name, corp, runner) in enumerate(roster[:4])]
    second = seed_swiss(organizer["id"], again + roster[8:10], rounds=2, name=f"Week 2 {unique}")

    to = new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(to, organizer["email"])
    to.goto("/tournaments")
    to.get_by_role("link", name="New series").click()
    to.get_by_label("Name", exact=True).fill(f"Club League {unique}")
    to.get_by_label("Points per placing").fill("1st 10, 2nd 8, 3rd-4th 6, 5th-8th 4")
    to.get_by_label("Participation points").fill("1")
    to.get_by_label("Invite the top").fill("2")
    to.get_by_role("button", name="Create series").click()
    expect(to.get_by_role("heading", name=f"Club League {unique}")).to_be_visible()
    for event in (first, second):
        to.locator("#add-event select[name=event]").select_option(str(event.id))
        to.get_by_role("button", name="Add event").click()
        expect(to.locator(".flash.success")).to_contain_text("now counts in")
    standings = to.locator("table.series-standings")
    # the four names met again stand apart until the TO confirms them (no NetrunnerDB accounts here)
    expect(standings.locator("tbody tr")).to_have_count(8 + 6)
    expect(to.get_by_role("link", name="Players (4 to check)")).to_be_visible()
    to.screenshot(path=str(screenshots / "series_to_1280.png"), full_page=True)

    to.get_by_role("link", name="Players (4 to check)").click()
    expect(to.get_by_text("the same person as")).to_have_count(4)
    to.screenshot(path=str(screenshots / "series_players_1280.png"), full_page=True)
    for left in (3, 2, 1, 0):
        to.get_by_role("button", name="Same person").first.click()
        expect(to.locator(".flash.success")).to_contain_text("Matched")
        expect(to.get_by_role("button", name="Same person")).to_have_count(left)
    expect(to.locator("#matched + .table-wrap table tbody tr")).to_have_count(4)
    to.goto(to.url.split("/players")[0])
    expect(standings.locator("tbody tr")).to_have_count(8 + 2)
    public_url = to.get_by_role("link", name="public standings").get_attribute("href")

    phone = new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True).new_page()
    phone.goto(public_url)
    expect(phone.get_by_role("heading", name=f"Club League {unique}")).to_be_visible()
    rows = phone.locator("table.series-standings tbody tr")
    expect(rows).to_have_count(10)
    expect(rows.first.locator(".badge")).to_have_text("invited")
    _no_sideways_scroll(phone, 360)
    phone.screenshot(path=str(screenshots / "series_public_360.png"), full_page=True)
    phone.get_by_role("link", name="ada lovelace").click()
    expect(phone.get_by_role("heading", name="ada lovelace")).to_be_visible()
    expect(phone.locator("table.compact").last.locator("tbody tr")).to_have_count(2)  # both weeks
    expect(phone.get_by_role("row", name="All games")).to_be_visible()
    _no_sideways_scroll(phone, 360)
    phone.screenshot(path=str(screenshots / "series_player_360.png"), full_page=True)
    # the phone sees neither the suggestions nor the managers' pages
    assert phone.goto(public_url.replace("/s/", "/series/")).status in (404, 200)
    expect(phone.get_by_text("Same person")).to_have_count(0)

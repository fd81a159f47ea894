"""A big round's match slips come a page of tables at a time (app/services/swiss/printouts.py SLIPS_PER_PAGE): the TO
moves between pages at 1280 px and on a 360 px phone, without sideways scrolling. The page size is lowered here
so a 12-player event has pages."""
from __future__ import annotations

from playwright.sync_api import expect

from app.services.swiss import printouts
from tests.browser.test_participation_flow import PHONE_360, no_sideways_scroll


def test_slips_pages(roster, new_context, organizer, seed_swiss, log_in, screenshots, monkeypatch):
    monkeypatch.setattr(printouts, "SLIPS_PER_PAGE", 2)
    event = seed_swiss(organizer["id"], roster, rounds=0, name="Paged Slips Open")
    event.pair(1)
    for name, options in (("1280", {}), ("360", PHONE_360)):
        page = new_context(**options).new_page()
        log_in(page, organizer["email"], organizer["password"])
        page.goto(f"/tournaments/{event.id}/rounds/1/slips")
        pager = page.get_by_role("navigation", name="Slips pages")
        expect(pager).to_be_visible()
        expect(page.locator(".slip")).to_have_count(2)
        pager.get_by_role("link", name="2", exact=True).click()
        expect(page).to_have_url(f"{page.url.split('?')[0]}?page=2")
        expect(pager.locator("[aria-current=page]")).to_have_text("2")
        expect(page.locator(".slip-table").first).to_have_text("Table 3")
        expect(page.locator("main")).to_contain_text("tables 3–4 of")
        no_sideways_scroll(page)
        page.screenshot(path=str(screenshots / f"slips_pages_{name}.png"), full_page=True)

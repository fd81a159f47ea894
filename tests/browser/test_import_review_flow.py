"""An organizer imports a file that contradicts itself (a Corp win of 5, a champion its cut games do not give):
the warnings are listed before anything is created, on a phone at 360 px and a laptop at 1280 px; "Don't import"
leaves nothing, "Import anyway" creates the event as the file says."""
from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from playwright.sync_api import expect

from app.extensions import db
from app.models import Tournament
from tests.browser.test_participation_flow import PHONE_360, no_sideways_scroll

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "nrtm" / "cobra_typo_score_and_ranking.json"


def _events(live, owner_id: int) -> int:
    with live.app_context():
        n = db.session.scalar(sa.select(sa.func.count(Tournament.id)).where(Tournament.owner_id == owner_id))
        db.session.remove()
    return n


def test_warnings_first_then_import_anyway(new_context, organizer, log_in, screenshots, live_server):
    phone = new_context(**PHONE_360).new_page()
    log_in(phone, organizer["email"])
    phone.goto("/tournaments/import")
    expect(phone.get_by_text("NetrunnerDB card data of")).to_be_visible()
    phone.set_input_files("input[type=file]", str(FIXTURE))
    phone.get_by_role("button", name="Import").click()
    expect(phone.get_by_text("Nothing has been created yet")).to_be_visible()
    expect(phone.get_by_text("5-0 is not a result of single-sided swiss")).to_be_visible()
    expect(phone.get_by_text("the elimination games make player 3 the champion")).to_be_visible()
    no_sideways_scroll(phone)
    phone.screenshot(path=str(screenshots / "import_review_360.png"), full_page=True)
    phone.get_by_role("link", name="Don't import").click()
    expect(phone.get_by_role("button", name="Import")).to_be_visible()
    assert _events(live_server, organizer["id"]) == 0

    laptop = new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(laptop, organizer["email"])
    laptop.goto("/tournaments/import")
    laptop.set_input_files("input[type=file]", str(FIXTURE))
    laptop.get_by_role("button", name="Import").click()
    expect(laptop.get_by_text("Nothing has been created yet")).to_be_visible()
    laptop.screenshot(path=str(screenshots / "import_review_1280.png"), full_page=True)
    laptop.get_by_role("button", name="Import anyway").click()
    expect(laptop.get_by_text("Imported Typo GNK")).to_be_visible()
    assert _events(live_server, organizer["id"]) == 1

    # the file's ranking stands: Eli, whom the file ranks first, is the champion the bracket page shows
    with live_server.app_context():
        slug = db.session.scalar(sa.select(Tournament.slug).where(Tournament.owner_id == organizer["id"]))
        db.session.remove()
    for page, width in ((phone, 360), (laptop, 1280)):
        page.goto(f"/t/{slug}/bracket")
        expect(page.locator(".flash").filter(has_text="Champion")).to_contain_text("Eli")
        expect(page.get_by_text("Ranked as the imported file ranks the cut")).to_be_visible()
        no_sideways_scroll(page)
        page.screenshot(path=str(screenshots / f"imported_ranking_{width}.png"), full_page=True)

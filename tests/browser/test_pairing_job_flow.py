"""A big field pairs in the background: the TO clicks "Pair", the page follows the job (a Refresh header, no script)
and opens the new round, which says what the engine proved. Run once at the TO's 1280 px, each screen also looked at on
a 360 px phone; screenshots in bench/out/pairing_job_*.png."""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from app.extensions import db
from app.models import PairingJob

from tests.browser.conftest import at_both_widths
from tests.browser.test_round_page_flow import field


@pytest.fixture
def background(live_server):
    live_server.app.config["PAIRING_BACKGROUND_FROM"] = 0
    yield
    live_server.app.config.pop("PAIRING_BACKGROUND_FROM")


def test_pair_in_the_background_and_follow_to_the_round(new_context, organizer, log_in, seed_swiss, live_server,
                                                        background, screenshots):
    event = seed_swiss(organizer["id"], field(12), rounds=1, planned=3, name="Background 1280")
    page = new_context().new_page()
    log_in(page, organizer["email"])
    with live_server.app_context():  # a pairing already running (another tab's click): the page follows it
        db.session.add(PairingJob(tournament_id=event.id, number=2, state="running",
                                  progress="Pairing round 2: 12 players. The engine is working."))
        db.session.commit()
        db.session.remove()
    page.goto(f"/tournaments/{event.id}/rounds")
    page.get_by_role("button", name="Pair round 2").click()
    expect(page.get_by_role("heading", name="Pairing round 2")).to_be_visible()
    expect(page.locator("#pairing-progress")).to_contain_text("The engine is working")
    at_both_widths(page, screenshots, "pairing_job_progress", lambda p, width: expect(
        p.locator("#pairing-progress")).to_contain_text("The engine is working"))
    with live_server.app_context():  # that click's worker went away: the next click starts the pairing afresh
        db.session.execute(sa.delete(PairingJob).where(PairingJob.tournament_id == event.id))
        db.session.commit()
        db.session.remove()
    page.goto(f"/tournaments/{event.id}/rounds")
    page.get_by_role("button", name="Pair round 2").click()
    page.wait_for_url(f"**/tournaments/{event.id}/rounds/2", timeout=30_000)
    expect(page.locator("#pairing-proof")).to_have_text("The engine's pairing: certified optimal.")
    at_both_widths(page, screenshots, "pairing_job_round", lambda p, width: expect(
        p.locator("#pairing-proof")).to_be_visible(), full_page=False)

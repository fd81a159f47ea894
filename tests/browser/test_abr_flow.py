"""The dashboard's AlwaysBeRunning panel in a browser, with the live server's own sender thread. First the way every
TO has: the NRTM file for ABR's Conclude form, downloaded under the event's name, with the steps on ABR. Then, with
a login for ABR's upload address configured: offline first (the upload waits and the panel says so), then ABR (the
stand-in) answers and its code appears with its Copy button and the next step on ABR. Run once at the TO's 1280 px,
every screen also looked at on a 360 px phone; screenshots in bench/out/abr_*.png."""
from __future__ import annotations

import re
import socket
import sys
import time
from datetime import timedelta
from pathlib import Path

import sqlalchemy as sa
from playwright.sync_api import expect

from app.extensions import db
from app.models import AbrUpload, utcnow

from tests.browser.conftest import at_both_widths
from tests.browser.test_round_page_flow import field

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from abr_standin import PASSWORD, USER, StandIn  # noqa: E402


def _reload_until(page, selector: str, text: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page.reload()
        if text in (page.locator(selector).text_content() or ""):
            return
        time.sleep(0.5)
    expect(page.locator(selector)).to_contain_text(text)


def test_download_first_then_send_offline_then_the_code_and_next_step_appear(
        new_context, organizer, log_in, seed_swiss, live_server, screenshots):
    event = seed_swiss(organizer["id"], field(8), rounds=3, name="ABR 1280")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    config = live_server.app.config
    keys = ("ABR_URL", "ABR_TIMEOUT_SECONDS", "ABR_USER", "ABR_PASSWORD")
    before = {k: config[k] for k in keys}
    config.update(ABR_URL=dead, ABR_TIMEOUT_SECONDS=3, ABR_USER="", ABR_PASSWORD="")
    try:
        with StandIn() as abr:
            page = new_context().new_page()
            log_in(page, organizer["email"])
            page.goto(f"/tournaments/{event.id}")
            # no login for ABR's upload address (the defaults): the file and the steps, no send button
            expect(page.locator("#abr-steps")).to_contain_text("Log in to AlwaysBeRunning")
            expect(page.locator("#abr-steps")).to_contain_text("Choose the file you downloaded")
            expect(page.locator("#abr-send")).to_have_count(0)
            with page.expect_download() as download:
                page.locator("#abr-download").click()
            assert re.fullmatch(r"ABR 1280 \d{4}-\d\d-\d\d for ABR\.json", download.value.suggested_filename)
            at_both_widths(page, screenshots, "abr_download", part="#abr")

            config.update(ABR_USER=USER, ABR_PASSWORD=PASSWORD)  # the server's admin sets ABR's upload login
            page.reload()
            expect(page.locator("#abr-state")).to_contain_text("Not sent yet")
            page.get_by_role("button", name="Send to ABR").click()
            expect(page.locator(".flash.success")).to_contain_text("Queued for ABR")
            _reload_until(page, "#abr-state", "could not be reached")
            expect(page.locator("#abr")).to_contain_text("tries again by itself")
            at_both_widths(page, screenshots, "abr_offline", part="#abr")

            config["ABR_URL"] = abr.url  # the venue's internet is back
            with live_server.app_context():
                db.session.execute(sa.update(AbrUpload).values(next_try_at=utcnow() - timedelta(seconds=1)))
                db.session.commit()
                db.session.remove()
            _reload_until(page, "#abr-state", "conclusion code")
            code = page.locator("#abr-state input").input_value()
            assert len(code) == 6 and code.isdigit() and len(abr.received) == 1
            assert str(abr.received[0]["code"]) == code and "abrTournamentId" not in abr.received[0]["file"]
            expect(page.locator("#abr-next")).to_contain_text(
                f"Conclude, then the NRTM import, and enter the code {code}")
            at_both_widths(page, screenshots, "abr_sent",
                           lambda p, width: expect(p.get_by_role("button", name="Copy")).to_be_visible())
            page.get_by_role("link", name="Every upload and ABR's answers").click()
            at_both_widths(page, screenshots, "abr_history",
                           lambda p, width: expect(p.locator("#abr-history tbody tr")).to_have_count(1))
    finally:
        with live_server.app_context():  # nothing of this test is left for the server's sender
            db.session.execute(sa.delete(AbrUpload).where(AbrUpload.tournament_id == event.id))
            db.session.commit()
            db.session.remove()
        config.update(before)

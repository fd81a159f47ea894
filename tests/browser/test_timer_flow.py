"""The round timer in real browsers: the TO starts it, a 360 px phone counts down (even with its own clock
7 minutes fast), the TO pauses and the phone shows it within one poll; the projector page at 1280 px; the print
views as PDF. Screenshots go to bench/out/ (look at them)."""
from __future__ import annotations

import re
import shutil
import subprocess
from datetime import datetime, timedelta, timezone

from playwright.sync_api import expect

POLL_S = 10  # static/poll.js
PHONE_360 = {"width": 360, "height": 740}


def mmss(text: str) -> int:
    m, s = text.strip().split(":")[-2:]
    return int(m) * 60 + int(s)


def test_timer_runs_on_a_phone_and_pauses_within_one_poll(roster, new_context, page, organizer, log_in,
                                                          seed_swiss, screenshots):
    event = seed_swiss(organizer["id"], roster, rounds=0, name="Timer Open", planned=4)
    event.pair(1)

    log_in(page, organizer["email"])
    page.goto(f"/tournaments/{event.id}")
    qr = page.get_by_alt_text("QR code of the event page")
    expect(qr).to_be_visible()
    assert qr.evaluate("img => img.naturalWidth > 0")
    page.screenshot(path=str(screenshots / "timer_dashboard_qr.png"), full_page=True)
    page.get_by_role("link", name="Round timer").click()
    expect(page.get_by_role("heading", name="Round 1 timer")).to_be_visible()
    expect(page.get_by_label("Minutes")).to_have_value("65")
    page.get_by_role("button", name="Start the timer").click()
    expect(page.locator(".countdown-label")).to_have_text("Time left in round 1")
    expect(page.get_by_role("button", name="Pause")).to_be_visible()

    # A phone whose own clock is 7 minutes fast still shows the server's time left.
    phone = new_context(viewport=PHONE_360, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
    phone.clock.install(time=datetime.now(timezone.utc) + timedelta(minutes=7))
    phone.goto(f"/t/{event.slug}/pairings")
    timer = phone.locator("[data-countdown]")
    expect(timer).to_be_visible()
    expect(timer.locator(".countdown-label")).to_have_text("Time left in round 1")
    first = mmss(timer.locator(".countdown-time").inner_text())
    assert 64 * 60 <= first <= 65 * 60, first
    phone.wait_for_timeout(2500)
    second = mmss(timer.locator(".countdown-time").inner_text())
    assert 1 <= first - second <= 4, (first, second)  # it counts down, at the pace of the seconds
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
    phone.screenshot(path=str(screenshots / "timer_phone_running.png"), full_page=True)

    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Resume")).to_be_visible()
    paused_at = datetime.now(timezone.utc)
    expect(timer.locator(".countdown-label")).to_have_text("Paused", timeout=(POLL_S + 3) * 1000)
    assert datetime.now(timezone.utc) - paused_at <= timedelta(seconds=POLL_S + 3)
    frozen = timer.locator(".countdown-time").inner_text()
    phone.wait_for_timeout(1500)
    assert timer.locator(".countdown-time").inner_text() == frozen
    assert abs(mmss(frozen) - (second - (datetime.now(timezone.utc) - paused_at).seconds)) <= 15
    phone.screenshot(path=str(screenshots / "timer_phone_paused.png"), full_page=True)

    # Five more minutes, resumed: the phone follows at its next poll.
    page.get_by_role("button", name="+5 min").click()
    page.get_by_role("button", name="Resume").click()
    expect(timer.locator(".countdown-label")).to_have_text("Time left in round 1", timeout=(POLL_S + 3) * 1000)
    assert 0 <= mmss(timer.locator(".countdown-time").inner_text()) - (mmss(frozen) + 5 * 60) + POLL_S + 3 <= POLL_S + 5
    page.screenshot(path=str(screenshots / "timer_to_page.png"), full_page=True)

    # Calling time needs a confirmation.
    page.once("dialog", lambda d: d.dismiss())
    page.get_by_role("button", name="Call time").click()
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Call time").click()
    expect(page.locator(".countdown-label")).to_have_text("Time has been called")
    expect(timer.locator(".countdown-time")).to_have_text("0:00", timeout=(POLL_S + 3) * 1000)


def test_projector_page(roster, new_context, organizer, seed_swiss, screenshots):
    event = seed_swiss(organizer["id"], roster, rounds=2, name="Projector Open", planned=4)
    event.pair(3)
    tables = event.tables(3)
    with event.live.app_context():
        from app.extensions import db
        from app.models import Tournament
        from app.services.swiss import timer
        timer.act(db.session.get(Tournament, event.id), 3, "start", 65)
        db.session.remove()

    screen = new_context(viewport={"width": 1280, "height": 720}).new_page()
    screen.goto(f"/t/{event.slug}/projector")
    expect(screen.get_by_role("heading", name="Projector Open")).to_be_visible()
    expect(screen.get_by_text("Round 3 of 4")).to_be_visible()
    expect(screen.locator(".countdown-time")).to_have_text(re.compile(r"^6[45]:\d\d$"))
    assert screen.locator("header.site, nav").count() == 0
    qr = screen.locator(".projector-qr img")
    expect(qr).to_be_visible()
    assert qr.evaluate("img => img.naturalWidth > 0")
    assert screen.evaluate("document.documentElement.scrollWidth") <= 1280
    screen.screenshot(path=str(screenshots / "timer_projector.png"))

    # Find your table: case and accents do not matter ("ZOE" finds "@Zoe Formula", "lovelacé" finds Ada).
    search = screen.get_by_label("Find your table")
    for typed, name in (("ZOE", "@Zoe Formula"), ("lovelacé", "Ada Lovelace"), ("  grace   HOPPER", "Grace Hopper")):
        search.fill(typed)
        shown = screen.locator("#seat-list li:visible")
        expect(shown).to_have_count(1)
        expect(shown.locator(".seat-name")).to_have_text(name)
        expect(shown.locator(".seat-table")).to_have_text(str(tables[name]))
    search.fill("Ada")
    screen.screenshot(path=str(screenshots / "timer_projector_find.png"))
    search.fill("nobody")
    expect(screen.get_by_text("No player matches that name.")).to_be_visible()


def _pdf_to_png(pdf: bytes, stem) -> list:
    """PDF pages as PNGs with pdftoppm (poppler-utils), when installed."""
    path = stem.with_suffix(".pdf")
    path.write_bytes(pdf)
    if not shutil.which("pdftoppm"):
        return []
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(path), str(stem)], check=True, timeout=60)
    return sorted(stem.parent.glob(stem.name + "-*.png"))


def test_print_views(roster, page, organizer, log_in, seed_swiss, screenshots):
    event = seed_swiss(organizer["id"], roster * 1, rounds=1, name="Print Open", planned=4)
    event.pair(2)
    log_in(page, organizer["email"])

    page.goto(f"/tournaments/{event.id}/rounds/2/by-name")
    names = page.locator(".by-name li:not(.by-name-head) .who").all_inner_texts()
    assert names == sorted(names, key=str.casefold) and len(names) == len(roster)
    page.emulate_media(media="print")
    assert page.locator("header.site").is_hidden() and page.get_by_role("button", name="Print").is_hidden()
    pdf = page.pdf(format="A4", print_background=True)  # print media, as a printer gets it
    assert _pdf_to_png(pdf, screenshots / "print_by_name") or pdf.startswith(b"%PDF")

    page.goto(f"/tournaments/{event.id}/rounds/2/slips")
    assert page.locator(".slip").count() == len(roster) // 2
    assert page.locator(".slip").first.is_visible() and page.locator("header.site").is_hidden()
    pdf = page.pdf(format="A4", print_background=True)
    pngs = _pdf_to_png(pdf, screenshots / "print_slips")
    if pngs:
        assert len(pngs) == 2  # six slips, four per page

    page.goto(f"/t/{event.slug}/pairings")
    page.emulate_media(media="print")
    assert page.locator("header.site").is_hidden() and page.locator("nav.tabs").is_hidden()
    assert page.locator("#pairings").is_visible()
    page.screenshot(path=str(screenshots / "print_public_pairings.png"), full_page=True)

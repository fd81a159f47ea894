"""Venue mode as the README starts it (`make venue`): a phone opens the address it prints, registers, and its link,
its QR code and its match slip all name that address. VENUE_ADDRESS=127.0.0.2 stands in for the laptop's address on
the hall's Wi-Fi (the server listens on every interface, so any 127.x address reaches it; traffic stays on loopback)."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
import segno
from playwright.sync_api import expect

from app import create_app
from app.extensions import db
from app.models import Player, Tournament, User
from app.services.swiss import rounds as rounds_service
from app.services.results import slip_codes
from app.services.swiss.printouts import qr_svg

from tests.browser.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
ADDRESS = "127.0.0.2"
NARROW = {"width": 360, "height": 780}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


@pytest.fixture
def venue(tmp_path):
    """`make venue` on a free port with its own database; yields (printed address, app on the same database)."""
    port = _free_port()
    uri = f"sqlite:///{tmp_path / 'venue.db'}"
    env = {**os.environ, "DATABASE_URL": uri, "SECRET_KEY": "venue-test-key", "VENUE_ADDRESS": ADDRESS,
           "PORT": str(port), "PAGE_CACHE_DIR": str(tmp_path / "pages"), "PUBLIC_URL": ""}
    # -o: never reinstall the shared environment from a test
    proc = subprocess.Popen(["make", "--no-print-directory", "-o", ".venv/.installed", "venue"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        printed, output = None, []
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line or "Ctrl+C stops" in line:
                break
            output.append(line)
            if m := re.match(r"Phones open:\s+(\S+)", line):
                printed = m.group(1)
        assert printed, "make venue printed no address:\n" + "".join(output)
        assert "█" in "".join(output) or "▀" in "".join(output), "no QR code in the terminal"
        while True:  # until gunicorn answers
            try:
                urllib.request.urlopen(printed + "/", timeout=2)
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "gunicorn did not start"
                time.sleep(0.3)
        app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "venue-test-key",
                          "PUBLIC_URL": printed})
        yield printed, app
        with app.app_context():
            db.engine.dispose()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        proc.stdout.close()


def test_a_phone_registers_at_the_printed_address_and_everything_points_there(venue, browser, screenshots):
    printed, app = venue
    assert printed.startswith(f"http://{ADDRESS}:")
    with app.app_context():
        to = User(email="venue-to@example.com")
        to.set_password(PASSWORD)
        t = Tournament(owner=to, name="Venue Night", format="single", registration_open=True)
        db.session.add_all([to, t, Player(tournament=t, name="Ada Lovelace")])
        db.session.commit()
        slug, tid = t.slug, t.id

    phone_context = browser.new_context(viewport=NARROW, is_mobile=True, has_touch=True, device_scale_factor=2)
    phone = phone_context.new_page()
    phone.goto(printed)
    expect(phone.locator("main")).to_contain_text(f"{printed}/t/")  # the landing page's example link
    phone.goto(f"{printed}/t/{slug}")
    form = phone.locator("#register")
    form.get_by_label("Name", exact=True).fill("Grace Hopper")
    form.get_by_role("button", name="Register").click()
    link = phone.locator("#player-link")
    expect(link).to_contain_text(f"{printed}/t/{slug}/p/")
    token_link = link.inner_text().strip()
    svg = phone.locator(".qr svg").evaluate("e => e.outerHTML")
    assert _same_svg(svg, segno.make(token_link, error="m").svg_inline())  # as the registration page makes it
    phone.screenshot(path=str(screenshots / "venue_phone_registered_360.png"), full_page=True)

    with app.app_context():  # the TO pairs and publishes round 1 (the service the dashboard's button calls)
        t = db.session.get(Tournament, tid)
        rounds_service.pair_next_round(t, 1)
        rounds_service.publish_round(t, 1)
        db.session.remove()
    desk = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    desk.goto(f"{printed}/login")
    desk.get_by_label("Email").fill("venue-to@example.com")
    desk.get_by_label("Password").fill(PASSWORD)
    desk.locator("main form").get_by_role("button", name="Log in").click()
    desk.wait_for_url("**/tournaments")
    desk.goto(f"{printed}/tournaments/{tid}")
    expect(desk.locator(".public-link")).to_have_text(f"{printed}/t/{slug}")
    # 127.0.0.2 really is a loopback address, so the dashboard warns (a LAN address would not be warned about)
    expect(desk.locator("#loopback-warning")).to_be_visible()
    desk.screenshot(path=str(screenshots / "venue_dashboard_1280.png"), full_page=True)
    desk.goto(f"{printed}/tournaments/{tid}/rounds/1/slips")
    with app.test_request_context():  # Grace's slip carries her table's report code at the printed address
        t = db.session.get(Tournament, tid)
        rnd = rounds_service.load_round(t, 1)
        grace = next(m for m in rnd.matches if any(s.name == "Grace Hopper" for s in m.seats))
        slip_link = slip_codes.url(t, rnd.slip_ref, grace.table, [s.name for s in grace.seats])
        db.session.remove()
    assert slip_link.startswith(f"{printed}/t/{slug}/") and _any_slip(desk, slip_link)
    qr = urllib.request.urlopen(f"{printed}/t/{slug}/qr.svg", timeout=5).read().decode()
    assert qr == qr_svg(f"{printed}/t/{slug}")
    phone_context.close()
    desk.context.close()


def _same_svg(a: str, b: str) -> bool:
    """Two renderings of one QR code: the same modules (the path), whatever the size and title."""
    return re.search(r' d="([^"]+)"', a).group(1) == re.search(r' d="([^"]+)"', b).group(1)


def _any_slip(page, link: str) -> bool:
    return any(_same_svg(s, qr_svg(link, inline=True)) for s in page.locator(".slip svg").evaluate_all(
        "es => es.map(e => e.outerHTML)"))

"""An organizer imports a Cobra file whose single-elimination top 8 was re-seeded after upsets; the cut page and
a phone's bracket show the games exactly as played, at 1280 px and 360 px."""
from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import expect

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "nrtm" / "cobra_single_elimination_top8_upsets.json"
SHOTS = Path("/tmp/shots/importcut")
NARROW = 360


def test_import_a_reseeded_cut_and_see_it_as_played(page, new_context, organizer, log_in):
    doc = json.loads(FIXTURE.read_text())
    seeds = {e["seed"]: e["name"] for e in doc["eliminationPlayers"]}
    SHOTS.mkdir(parents=True, exist_ok=True)
    log_in(page, organizer["email"])
    page.goto("/tournaments/import")
    page.set_input_files("input[type=file]", str(FIXTURE))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Imported Upset City Single Elimination")).to_be_visible()
    expect(page.get_by_text("Imported cut, kept as played")).to_be_visible()
    expect(page.get_by_text(f"Champion: {seeds[6]}")).to_be_visible()
    expect(page.locator("div.cut-game.done")).to_have_count(7)
    # round 2 as Cobra re-seeded it: seed 2 v seed 8
    second = page.locator("div.cut-game", has_text=seeds[8]).filter(has_text=seeds[2]).first
    expect(second).to_be_visible()
    page.screenshot(path=str(SHOTS / "organizer_cut_1280.png"), full_page=True)
    slug = page.get_by_role("link", name="Public bracket page").get_attribute("href").split("/")[2]

    phone = new_context(viewport={"width": NARROW, "height": 740}, is_mobile=True, has_touch=True,
                        device_scale_factor=2).new_page()
    phone.goto(f"/t/{slug}/bracket")
    expect(phone.get_by_text("The games as played")).to_be_visible()
    expect(phone.locator("div.cut-game")).to_have_count(7)
    expect(phone.locator("div.cut-game button")).to_have_count(0)
    expect(phone.locator("table.cut-standings tbody tr").first).to_contain_text(seeds[6])
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW, f"the bracket page is {width} px wide at {NARROW} px"
    phone.screenshot(path=str(SHOTS / "phone_bracket_360.png"), full_page=True)

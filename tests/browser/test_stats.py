"""The event statistics on a phone (360 px) and a laptop (1280 px): reached from the event's pages once the swiss
is over, charts drawn by the server that fit the screen, the numbers as tables; the TO finds them on the dashboard
before that."""
from __future__ import annotations

from playwright.sync_api import expect

from app.extensions import db
from app.models import Tournament
from app.services import cut as cut_service
from cut_helpers import play_cut

EXTRA = ["Mira Kovač", "Søren Kierkegaard", "Zoë Saldaña", "Ana Đurić", "Łukasz Wąs", "Björn Ölander",
         "Chidi Okafor", "Priya Raman", "Tomás Ruiz", "Yuki Sato", "Émile Zola"]


def _players(roster):
    ids = [(corp, runner) for _, corp, runner in roster]
    return roster + [(name, *ids[(i * 5) % len(ids)]) for i, name in enumerate(EXTRA)]


def _cut(live_server, tid: int) -> None:
    with live_server.app_context():
        t = db.session.get(Tournament, tid)
        cut_service.create(t, 4, "double")
        play_cut(t, lambda g: g.higher_seed)
        db.session.remove()


def _no_sideways_scroll(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the statistics page is {scroll} px wide at {width} px"


def test_statistics_on_a_phone_and_a_laptop(roster, new_context, organizer, seed_swiss, live_server, log_in,
                                            screenshots):
    event = seed_swiss(organizer["id"], _players(roster), rounds=3, name="Stats Regional", planned=4)

    # mid-swiss: the public has no link and no page; the TO has both
    phone = new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"/t/{event.slug}")
    expect(phone.get_by_role("link", name="Statistics")).to_have_count(0)
    assert phone.goto(f"/t/{event.slug}/stats").status == 404
    expect(phone.get_by_text("published when the swiss rounds are over")).to_be_visible()
    laptop = new_context().new_page()
    log_in(laptop, organizer["email"])
    laptop.goto(f"/tournaments/{event.id}")
    laptop.get_by_role("link", name="Statistics").click()
    expect(laptop.get_by_text("Only the organizers see this page")).to_be_visible()

    event.pair(4)
    event.report(4)
    _cut(live_server, event.id)

    # a player's phone: from the event's home to the statistics
    phone.goto(f"/t/{event.slug}")
    phone.get_by_role("navigation", name="Event").get_by_role("link", name="Statistics").click()
    expect(phone.get_by_role("heading", name="Swiss rounds")).to_be_visible()
    expect(phone.get_by_role("heading", name="Top cut")).to_be_visible()
    expect(phone.get_by_text("Only the organizers see this page")).to_have_count(0)
    sides = phone.locator("svg#swiss-sides")
    expect(sides).to_be_visible()
    box = sides.bounding_box()
    assert box["width"] <= 360 and box["width"] >= 300, box  # the chart fills the phone's width, no more
    labels = sides.locator("text").all()
    assert min(float(t.evaluate("e => e.getBoundingClientRect().height")) for t in labels) >= 11  # readable text
    corp_share = phone.locator("svg#swiss-corp-faction-share")
    names = [t.text_content() for t in corp_share.locator("text").all()[::2]]  # label, value, label, ...
    # the roster's four corp factions, and identities under names the card data does not know (Near-Earth Hub)
    assert sorted(names) == ["Haas-Bioroid", "Jinteki", "NBN", "Unknown faction", "Weyland Consortium"], names
    fills = {r.get_attribute("fill") for r in corp_share.locator("rect").all()}
    assert "#8a2be2" in fills and "#006400" in fills  # Haas-Bioroid purple, Weyland green
    table = phone.locator("#swiss table.sides-table")
    expect(table.locator("td.corp")).to_have_text("Corp")
    _no_sideways_scroll(phone, 360)
    phone.screenshot(path=str(screenshots / "stats_phone360.png"), full_page=True)

    laptop.goto(f"/t/{event.slug}/stats")
    expect(laptop.locator("svg.chart").first).to_be_visible()
    expect(laptop.get_by_text("Only the organizers see this page")).to_have_count(0)
    charts = laptop.locator("#swiss .charts").nth(1).locator("svg.chart")
    first, second = charts.nth(0).bounding_box(), charts.nth(1).bounding_box()
    assert second["x"] > first["x"] + first["width"] - 1, "two charts side by side on a laptop"
    _no_sideways_scroll(laptop, 1280)
    laptop.screenshot(path=str(screenshots / "stats_laptop1280.png"), full_page=True)

"""Players' phones at 360 px: Find my name ignores case and accents on pairings and standings, the standings
are one compact row per player with the device's own player marked, and the home follows the event into the cut."""
from __future__ import annotations

from playwright.sync_api import expect

from app.extensions import db
from app.models import Tournament
from app.services import cut as cut_service
from app.services.players import player_links

NARROW = 360
OLD_CARDS_HEIGHT = 5346  # px: 23 players as the old 215 px cards
EXTRA = ["Mira Kovač", "Søren Kierkegaard", "Zoë Saldaña", "Ana Đurić", "Łukasz Wąs", "Björn Ölander",
         "Chidi Okafor", "Priya Raman", "Tomás Ruiz", "Yuki Sato", "Émile Zola"]


def _players(roster):
    ids = [(corp, runner) for _, corp, runner in roster]
    return roster + [(name, *ids[i % len(ids)]) for i, name in enumerate(EXTRA)]


def _narrow(new_context):
    return new_context(viewport={"width": NARROW, "height": 740}, is_mobile=True, has_touch=True).new_page()


def test_kovac_finds_kovac_and_standings_fit_a_phone(roster, new_context, organizer, seed_swiss, live_server,
                                                     screenshots):
    players = _players(roster)
    assert len(players) == 23
    event = seed_swiss(organizer["id"], players, rounds=4, name="Phone Standings Open", planned=5)
    page = _narrow(new_context)

    page.goto(f"/t/{event.slug}/pairings")
    page.get_by_label("Find my name").fill("kovac")
    shown = page.locator("#pairings li:visible")
    expect(shown).to_have_count(1)
    expect(shown).to_contain_text("Mira Kovač")

    page.goto(f"/t/{event.slug}/standings")
    height = page.evaluate("document.documentElement.scrollHeight")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert height < 1800, \
        f"23 players' standings are {height} px tall at {NARROW} px (the cards were {OLD_CARDS_HEIGHT})"
    assert width <= NARROW, f"the standings are {width} px wide at {NARROW} px"
    # rank, name, points, the first tiebreaker and the record on every row, on one screen line each
    first = page.locator("table.standings tbody tr").first
    for label in ("Rank", "Points", "SoS", "W-L-T"):
        expect(first.locator(f'td[data-label="{label}"]')).to_be_visible()
    expect(first.locator('td[data-label="ESoS"]')).to_be_hidden()
    page.screenshot(path=str(screenshots / "phone360_standings.png"), full_page=True)
    page.get_by_label("Find my name").fill("KOVAC")
    rows = page.locator("table.standings tbody tr:visible")
    expect(rows).to_have_count(1)
    expect(rows.locator("td.name")).to_contain_text("Mira Kovač")
    assert "q=KOVAC" in page.url
    page.get_by_label("Find my name").fill("nobody here")
    expect(rows).to_have_count(0)
    expect(page.get_by_text("No player matches that name.")).to_be_visible()
    page.get_by_label("Find my name").fill("")
    expect(rows).to_have_count(23)

    # The device that opened Mira's player link finds her row marked, on standings and pairings.
    with live_server.app_context():
        t = db.session.get(Tournament, event.id)
        mira = next(p for p in t.players if p.name == "Mira Kovač")
        link = f"/t/{event.slug}/p/{player_links.token(mira)}"
        db.session.remove()
    page.goto(link)
    page.goto(f"/t/{event.slug}/standings")
    mine = page.locator("table.standings tbody tr.me")
    expect(mine).to_have_count(1)
    expect(mine.locator("td.name")).to_contain_text("Mira Kovač")
    assert mine.evaluate("(tr) => getComputedStyle(tr.querySelector('td')).backgroundColor") != "rgb(255, 255, 255)"
    page.screenshot(path=str(screenshots / "phone360_standings_me.png"), full_page=True)
    page.goto(f"/t/{event.slug}/pairings")
    expect(page.locator("#pairings li.me")).to_contain_text("Mira Kovač")

    laptop = new_context(viewport={"width": 1280, "height": 900}).new_page()
    laptop.goto(f"/t/{event.slug}/standings")
    expect(laptop.locator('table.standings tbody tr').first.locator('td[data-label="ESoS"]')).to_be_visible()
    laptop.screenshot(path=str(screenshots / "laptop1280_standings.png"), full_page=True)


def test_home_shows_the_cut(roster, new_context, organizer, seed_swiss, live_server, screenshots):
    event = seed_swiss(organizer["id"], roster, rounds=3, name="Cut Home Open", planned=3)
    with live_server.app_context():
        cut_service.create(db.session.get(Tournament, event.id), 4, "single")
        db.session.remove()
    for width, name in ((NARROW, "phone360"), (1280, "laptop1280")):
        page = new_context(viewport={"width": width, "height": 800}, is_mobile=width < 800,
                           has_touch=width < 800).new_page()
        page.goto(f"/t/{event.slug}")
        expect(page.get_by_text("Top 4 cut: round 1 of the bracket is being played.")).to_be_visible()
        expect(page.get_by_role("link", name="Find my table")).to_have_count(0)
        page.screenshot(path=str(screenshots / f"{name}_home_cut.png"), full_page=True)
        page.get_by_role("link", name="Bracket", exact=True).click()
        expect(page).to_have_url(f"{page.url.split('/t/')[0]}/t/{event.slug}/bracket")


def test_device_remembers_the_name_found(roster, new_context, organizer, seed_swiss):
    """Without a player link, the name found on the standings is remembered on the device (localStorage):
    that player's rows are marked on standings and pairings afterwards."""
    event = seed_swiss(organizer["id"], _players(roster), rounds=2, name="Memory Open", planned=4)
    page = _narrow(new_context)
    page.goto(f"/t/{event.slug}/standings")
    expect(page.locator("table.standings tbody tr.me")).to_have_count(0)
    page.get_by_label("Find my name").fill("kovac")
    expect(page.locator("table.standings tbody tr:visible")).to_have_count(1)
    page.goto(f"/t/{event.slug}/standings")
    mine = page.locator("table.standings tbody tr.me")
    expect(mine).to_have_count(1)
    expect(mine.locator("td.name")).to_contain_text("Mira Kovač")
    page.goto(f"/t/{event.slug}/pairings")
    expect(page.locator("#pairings li.me")).to_have_count(1)
    expect(page.locator("#pairings li.me")).to_contain_text("Mira Kovač")
    # another device remembers nobody
    other = _narrow(new_context)
    other.goto(f"/t/{event.slug}/standings")
    expect(other.locator("table.standings tbody tr.me")).to_have_count(0)

"""A player on a 390x844 phone finds their table and the standings; public pages never scroll sideways at 360 px."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import at_both_widths

ME = "Grace Hopper"
MIN_TAP = 40  # px: a thumb-sized target
NARROW = 360  # public pages must not scroll sideways at this width


def public_standings(page) -> list[tuple[int, str, int]]:
    return page.locator("table.standings tbody tr").evaluate_all("""(rows) => rows.map((r) => [
        parseInt(r.querySelector('td.rank').textContent),
        r.querySelector('td.name').firstChild.textContent.trim(),
        parseInt(r.querySelector('td[data-label=Points]').textContent)])""")


def test_player_finds_table_and_standings(roster, phone, organizer, seed_swiss, screenshots):
    event = seed_swiss(organizer["id"], roster, rounds=3, name="Phone Open", planned=4)
    event.pair(4)  # round 4 is published and being played
    my_table = event.tables(4)[ME]

    phone.goto(f"/t/{event.slug}")
    expect(phone.get_by_role("heading", name="Phone Open")).to_be_visible()
    expect(phone.get_by_text("Round 4 of 4 is up.")).to_be_visible()
    phone.get_by_role("link", name="Find my table").click()
    expect(phone.get_by_role("heading", name="Round 4")).to_be_visible()

    # Typing part of the name leaves only the player's own table.
    tables = phone.locator("#pairings li")
    assert tables.count() == len(roster) // 2
    phone.get_by_label("Find my name").fill("grace")
    visible = phone.locator("#pairings li:visible")
    expect(visible).to_have_count(1)
    expect(visible).to_contain_text(ME)
    expect(visible.locator(".table-no")).to_have_text(f"Table {my_table}")
    expect(phone.locator("#no-match")).to_be_hidden()
    phone.screenshot(path=str(screenshots / "phone_find_my_table.png"), full_page=True)
    assert "q=grace" in phone.url  # a reload keeps the filter

    phone.get_by_label("Find my name").fill("nobody by that name")
    expect(phone.locator("#pairings li:visible")).to_have_count(0)
    expect(phone.get_by_text("No player matches that name.")).to_be_visible()
    phone.get_by_label("Find my name").fill("")
    expect(phone.locator("#pairings li:visible")).to_have_count(len(roster) // 2)

    # Without JavaScript's help, the server filters too (the form submits ?q=).
    phone.goto(f"/t/{event.slug}/pairings?q=hopper")
    expect(phone.locator("#pairings li:visible")).to_have_count(1)
    expect(phone.locator("#pairings li:visible .table-no")).to_have_text(f"Table {my_table}")

    # Standings: every player, points as the reported results add up (round 4 is still being played).
    phone.locator("nav.tabs").get_by_role("link", name="Standings").click()
    tables = len(roster) // 2
    expect(phone.get_by_role("heading", name=f"Standings after round 3; round 4 in progress, 0 of {tables} results")
           ).to_be_visible()
    rows = public_standings(phone)
    assert sorted(r[1] for r in rows) == sorted(name for name, _, _ in roster)
    assert {name: points for _, name, points in rows} == event.points()
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)
    assert [r[2] for r in rows] == sorted((r[2] for r in rows), reverse=True)
    mine = phone.locator("table.standings tbody tr", has_text=ME)
    expect(mine).to_be_visible()
    phone.screenshot(path=str(screenshots / "phone_standings.png"), full_page=True)


def test_pairings_page_follows_the_organizer(roster, phone, organizer, seed_swiss):
    """The open pairings page reloads itself (polling status.json) when the TO publishes the next round."""
    event = seed_swiss(organizer["id"], roster[:6], rounds=1, name="Polling Open")
    phone.clock.install()
    phone.goto(f"/t/{event.slug}/pairings")
    expect(phone.get_by_role("heading", name="Round 1")).to_be_visible()
    event.pair(2)
    phone.clock.run_for(20_000)  # past the poll interval
    expect(phone.get_by_role("heading", name="Round 2")).to_be_visible()


def test_public_pages_fit_360_px(roster, new_context, organizer, seed_swiss):
    event = seed_swiss(organizer["id"], roster, rounds=2, name="A Rather Long Tournament Name For Narrow Phones")
    page = new_context(viewport={"width": NARROW, "height": 740}, is_mobile=True, has_touch=True).new_page()
    for path in ("/", *(f"/t/{event.slug}{sub}" for sub in
                        ("", "/pairings", "/pairings?q=ada", "/rounds/1", "/standings", "/bracket"))):
        page.goto(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= NARROW, f"{path} is {width} px wide at {NARROW} px: it scrolls sideways"


def test_public_tap_targets_are_thumb_sized(roster, phone, organizer, seed_swiss):
    """Buttons, the event tabs and the round links on the pairings page are at least MIN_TAP px each way."""
    event = seed_swiss(organizer["id"], roster, rounds=2, name="Thumb Open")
    phone.goto(f"/t/{event.slug}/pairings")
    small = []
    for name, target in (("Find button", phone.get_by_role("button", name="Find")),
                         ("event tabs", phone.locator("nav.tabs a")),
                         ("round links", phone.locator("nav.round-nav a"))):
        for box in target.evaluate_all("(els) => els.map((e) => e.getBoundingClientRect().toJSON())"):
            if box["height"] < MIN_TAP or box["width"] < MIN_TAP:
                small.append(f"{name}: {box['width']:.0f}x{box['height']:.0f} px")
    assert not small, f"tap targets under {MIN_TAP} px:\n" + "\n".join(small)


def test_standings_numbers_stay_whole(roster, new_context, organizer, seed_swiss, screenshots):
    """Readable on a phone and on a laptop: no number, record or header word of the standings is broken
    across lines (a player's page: on the phone, then looked at on a laptop too)."""
    event = seed_swiss(organizer["id"], roster, rounds=3, name="Narrow Open")  # real, long identities
    page = new_context(viewport={"width": NARROW, "height": 740}, is_mobile=True, has_touch=True).new_page()
    page.goto(f"/t/{event.slug}/standings")
    at_both_widths(page, screenshots, "standings_whole", whole_numbers)


def whole_numbers(page, width: int) -> None:
    broken = page.locator("table.standings").evaluate("""(table) => {
        const lines = (el) => {  // lines taken by the cell's own text (not its CSS label)
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            const tops = [];
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                if (!node.textContent.trim()) continue;
                const range = document.createRange();
                range.selectNodeContents(node);
                for (const r of range.getClientRects()) if (r.width > 0) tops.push(r);
            }
            tops.sort((a, b) => a.top - b.top);
            return tops.filter((r, i) => i === 0 || r.top >= tops[i - 1].top + tops[i - 1].height / 2).length;
        };
        const shown = (c) => {  // a visually hidden (clipped) header row is skipped
            const box = (c.closest('thead') || c).getBoundingClientRect();
            return box.width > 2 && box.height > 2;
        };
        const cells = [...table.querySelectorAll('td.num, td[data-label="W-L-T"], th')].filter(shown);
        return cells.filter((c) => c.textContent.trim() && !c.textContent.trim().includes(' ') && lines(c) > 1)
            .map((c) => (c.dataset.label || 'header') + ': ' + c.textContent.trim());
    }""")
    assert not broken, f"{len(broken)} standings cells wrap inside a word or number at {width} px, e.g. " \
                       + ", ".join(broken[:6])

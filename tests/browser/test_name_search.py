"""One name-folding rule: on a 360 px phone, the public pairings and standings filters and the TO's "Go to" box
find names as the server's search does (app/core/names.py: name_key): a Greek final sigma typed matches the σ of
the server's key, "ß" matches "ss", accents and case are ignored. The rows carry the server's keys; the typed
text's key is asked of the server (static/name_key.js), never worked out in JavaScript."""
from __future__ import annotations

from playwright.sync_api import expect

PHONE_360 = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True,
             "device_scale_factor": 2}
NAMES = ["Οδυσσέας Ελύτης", "Jürgen Strauß", "Zoë Kovač", "Ana Silva", "Ben Cole", "Cat Moss", "Dan Page",
         "Eve Hart"]
# typed -> the one player it finds
SEARCHES = {"ελύτης": "Οδυσσέας Ελύτης", "STRAUSS": "Jürgen Strauß", "ΟΔΥΣΣΕΑΣ": "Οδυσσέας Ελύτης",
            "KOVAC": "Zoë Kovač", "jurgen": "Jürgen Strauß", "straße": None, "zoe": "Zoë Kovač"}


def shown(page, rows: str) -> list[str]:
    return page.locator(rows).evaluate_all("(els) => els.filter((e) => !e.hidden).map((e) => e.textContent)")


def search(page, box, typed: str) -> None:
    """Type into a filter and wait until it is applied: the URL keeps the search once the server's key is in."""
    box.fill(typed)
    page.wait_for_function("(t) => new URL(location.href).searchParams.get('q') === t", arg=typed or None)


def test_filters_and_go_to_fold_names_as_the_server(new_context, organizer, log_in, seed_swiss, unique,
                                                     screenshots):
    event = seed_swiss(organizer["id"], [(n, "", "") for n in NAMES], rounds=1, name=f"Names {unique}")
    phone = new_context(**PHONE_360).new_page()
    for path, rows in ((f"/t/{event.slug}/pairings", "#pairings > li"),
                       (f"/t/{event.slug}/standings", "#standings-rows > tr")):
        phone.goto(path)
        find = phone.get_by_label("Find my name")
        for typed, name in SEARCHES.items():
            search(phone, find, typed)
            if name is None:
                expect(phone.locator("#no-match")).to_be_visible()
                continue
            expect(phone.locator(rows + ":not([hidden])")).to_have_count(1)
            assert name in shown(phone, rows)[0], (path, typed)
            expect(phone.locator("#no-match")).to_be_hidden()
        search(phone, find, "ελύτης")
        assert "Ελύτης" in shown(phone, rows)[0]
        phone.screenshot(path=str(screenshots / f"name_search_{path.rsplit('/', 1)[1]}_360.png"), full_page=True)
        search(phone, find, "")
        expect(phone.locator(rows + ":not([hidden])")).to_have_count(len(NAMES) // 2 if "pairings" in path
                                                                      else len(NAMES))

    # The TO's "Go to" on the round page.
    to = new_context(**PHONE_360).new_page()
    log_in(to, organizer["email"])
    to.goto(f"/tournaments/{event.id}/rounds/1")
    box = to.get_by_placeholder("Go to table no. or name")
    tables = event.tables(1)
    for typed, name in SEARCHES.items():
        box.fill(typed)
        box.press("Enter")
        if name is None:
            expect(to.locator("#jump-status")).to_have_text("No table or player matches \u201cstraße\u201d.")
            continue
        found = to.locator("li.match.found")
        expect(found).to_have_count(1)
        expect(found).to_have_id(f"t{tables[name]}")
        expect(found).to_be_in_viewport()
    box.fill("ελύτης")
    box.press("Enter")
    expect(to.locator(f"#t{tables['Οδυσσέας Ελύτης']}.found")).to_be_in_viewport()
    to.screenshot(path=str(screenshots / "name_search_round_360.png"))

"""Guidance for the TO on a laptop's 1280 px (the public brackets on a phone's 360 px), every screen also looked at the
other width: the dashboard's next step, the new-event form's advanced section, the round-1 bye warning, the
open/closed marker of every collapsible section, the cut page's advice and the bracket drawn as a bracket (a list on
the phone). Screenshots go to /tmp/shots/guidance/ (override with SHOTS_DIR) for a person to look at."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import at_both_widths

WIDE = {"width": 1280, "height": 900}
NARROW = {"width": 360, "height": 740}
NAMES = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth",
         "Frances Allen", "John Backus", "Radia Perlman", "Ken Thompson", "Margaret Hamilton", "Dennis Ritchie",
         "Shafi Goldwasser", "Tony Hoare", "Leslie Lamport", "Niklaus Wirth", "Jean Sammet", "Robin Milner",
         "Adele Goldberg", "Butler Lampson"]
FIELD = [(n, "Haas-Bioroid: Engineering the Future", "Noise: Hacker Extraordinaire") for n in NAMES]


@pytest.fixture(scope="module")
def shots() -> Path:
    path = Path(os.environ.get("SHOTS_DIR", "/tmp/shots/guidance"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def to_page(new_context, organizer, log_in):
    """The organizer, logged in, on a laptop."""
    page = new_context(viewport=WIDE).new_page()
    log_in(page, organizer["email"])
    return page


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def centre(box) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


# ---- the cut page's advice and the bracket ---------------------------------------------------------------------

def test_cut_advice_and_bracket(to_page, organizer, seed_swiss, shots, new_context):
    page = to_page
    event = seed_swiss(organizer["id"], FIELD, rounds=3, name="Bracket Open", planned=5)
    page.goto(f"/tournaments/{event.id}/cut")
    # 20 players: the form starts at the recommended top 4; cutting after 3 of 5 rounds is flagged
    expect(page.get_by_label("Cut to the top")).to_have_value("4")
    expect(page.get_by_text("Only 3 of the 5 planned swiss rounds are played")).to_be_visible()
    preview = page.locator("ol.cut-preview li:visible")
    expect(preview).to_have_count(4)
    seeds = preview.all_inner_texts()
    # the preview sits before the button that seeds it, and follows the size and the declined boxes
    assert page.locator("ol.cut-preview").bounding_box()["y"] < \
        page.get_by_role("button", name="Create the cut").bounding_box()["y"]
    at_both_widths(page, shots, "cut_create", lambda p, width: expect(preview).to_have_count(4))
    page.get_by_label("Bracket").select_option("double")
    page.get_by_label("Cut to the top").select_option("8")
    expect(page.get_by_role("heading", name="Top 8 if you cut now")).to_be_visible()
    expect(preview).to_have_count(8)
    eight = preview.all_inner_texts()
    assert eight[:4] == seeds
    page.get_by_text("Someone declined their invitation?").click()
    page.locator("ul.checklist label").first.click()
    expect(preview).to_have_count(8)
    assert preview.all_inner_texts()[:7] == eight[1:]
    at_both_widths(page, shots, "cut_create_top8_declined", lambda p, width: expect(preview).to_have_count(8))
    page.locator("ul.checklist label").first.click()  # changed their mind after all
    expect(preview).to_have_text(eight)
    page.get_by_role("button", name="Create the cut").click()
    expect(page.get_by_text("Top 8 cut created.")).to_be_visible()
    for title in ("Upper bracket", "Lower bracket", "Grand final"):
        expect(page.get_by_role("heading", name=title)).to_be_visible()
    # play the upper bracket's first round so names and lines show
    for game in (1, 2, 3, 4):
        card = page.locator(f"#game-{game}")
        chooser = card.get_by_text("(higher seed) chooses a side")
        name = chooser.inner_text().split(" (higher seed)")[0]
        card.get_by_role("button", name=f"{name} corps", exact=True).click()
        # the sides are set (the page drawn again) before the result: a click on the old page is lost
        swap = page.locator(f"#game-{game}").get_by_role("button", name=re.compile(r"corps \(swap\)"))
        expect(swap).to_be_visible()
        page.locator(f"#game-{game}").get_by_role("button", name=f"{name} won", exact=True).click()
        expect(page.locator(f"#game-{game}")).to_have_class(re.compile(r"\bdone\b"))
    at_both_widths(page, shots, "cut_bracket", lambda p, width: check_bracket_shape(p, wide=width == 1280))

    public = new_context(viewport=NARROW).new_page()  # a player's phone
    public.goto(f"/t/{event.slug}/bracket")
    expect(public.locator(".cut-game")).to_have_count(14)  # the reset is not needed yet
    at_both_widths(public, shots, "public_bracket", lambda p, width: check_bracket_shape(p, wide=width == 1280))


def check_bracket_shape(page, wide: bool) -> None:
    """Wide: rounds are columns left to right, a game sits level with the middle of the two games feeding it,
    and lines run between them. Narrow: one column of cards, no sideways scrolling."""
    box = {g: page.locator(f"#game-{g}").bounding_box() for g in (1, 2, 3, 4, 5, 6, 9, 7, 8, 10, 11, 12, 13, 14)}
    if not wide:
        assert len({round(b["x"]) for b in box.values()}) == 1, "the phone list should be one column"
        no_sideways_scroll(page)
        return
    xs = [box[g]["x"] for g in (1, 5, 9)]
    assert xs[0] < xs[1] < xs[2], "upper bracket rounds should run left to right"
    assert box[1]["x"] == box[2]["x"] == box[3]["x"] == box[4]["x"]
    assert box[1]["y"] < box[2]["y"] < box[3]["y"] < box[4]["y"]
    for parent, (a, b) in {5: (1, 2), 6: (3, 4), 9: (5, 6), 12: (10, 11)}.items():
        expected = (centre(box[a])[1] + centre(box[b])[1]) / 2
        assert abs(centre(box[parent])[1] - expected) < 2, f"game {parent} should sit between {a} and {b}"
    assert abs(centre(box[10])[1] - centre(box[7])[1]) < 2  # one feeder in its part: a straight line
    lower_top = min(box[g]["y"] for g in (7, 8, 10, 11, 12, 13))
    assert lower_top > max(b["y"] + b["height"] for g, b in box.items() if g in (1, 2, 3, 4, 5, 6, 9))
    assert box[14]["y"] > box[13]["y"] + box[13]["height"], "the grand final comes last"
    # the connector lines are drawn (pseudo-elements with a border), and only where a game feeds another
    line = page.evaluate("""() => {
        const cell = document.querySelector('#game-1').parentElement;
        const s = getComputedStyle(cell, '::after');
        return [s.content, s.borderRightWidth, s.borderTopWidth];
    }""")
    assert line[0] == '""' and line[1] == "2px" and line[2] == "2px"
    assert page.evaluate("getComputedStyle(document.querySelector('#game-9').parentElement, '::after').content") \
        == "none"
    no_sideways_scroll(page)


# ---- from a new event to round 1: the next step, the advanced section, the bye warning --------------------------

def marker(page, summary) -> str:
    """The open/closed marker drawn before a <summary> (static/style.css)."""
    return summary.evaluate("(s) => getComputedStyle(s, '::before').content")


def test_new_event_to_round_one(to_page, players_csv, shots):
    page = to_page
    page.goto("/tournaments/new")
    advanced = page.locator("details.advanced")
    expect(advanced).not_to_have_attribute("open", "")
    expect(page.get_by_label("Score factor (single-sided)")).to_be_hidden()
    summary = advanced.locator("summary")
    expect(summary).to_have_text("Advanced: pairing score factor")
    assert "▸" in marker(page, summary)
    at_both_widths(page, shots, "new_event")
    summary.click()
    expect(page.get_by_label("Score factor (single-sided)")).to_have_value("3/2")
    assert "▾" in marker(page, summary)
    at_both_widths(page, shots, "new_event_advanced_open")
    page.get_by_label("Format").select_option("plain")
    expect(advanced).to_be_hidden()  # a single-sided setting only
    page.get_by_label("Format").select_option("single")
    page.get_by_label("Name", exact=True).fill("Guided Open")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name="Guided Open")).to_be_visible()
    dashboard = page.url

    # no players yet: the main button adds them
    main = page.locator(".next-action")
    expect(main).to_have_text("Add players")
    at_both_widths(page, shots, "dashboard_new", lambda p, width: expect(main).to_be_visible())
    page.locator(".next-step").get_by_role("link", name="Import CSV").click()
    page.get_by_label("CSV file").set_input_files(str(players_csv))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Imported 12 players.")).to_be_visible()

    # the add form's collapsible section shows its marker
    add = page.locator("details.add-player > summary")
    assert "▸" in marker(page, add)
    add.click()
    assert "▾" in marker(page, add)
    expect(page.get_by_label("Bye in round 1")).to_be_visible()
    expect(page.locator(".bye-note")).to_have_count(0)  # a 13th player with a bye leaves 12 to pair: no warning
    at_both_widths(page, shots, "players_add_open", lambda p, width: expect(p.get_by_label("Bye in round 1")
                                                                            ).to_be_visible(), full_page=False)

    page.goto(dashboard)
    expect(main).to_have_text("Pair round 1")
    expect(page.locator(".next-step .bye-note")).to_have_count(0)
    at_both_widths(page, shots, "dashboard_players_in", lambda p, width: expect(main).to_be_visible())

    # one requested bye in an even field: the edit page says what it causes before the box is ticked
    page.goto(dashboard + "/players")
    page.get_by_role("link", name="Ada Lovelace").click()
    note = page.locator(".bye-note")
    expect(note).to_contain_text("If you tick “Bye in round 1”: 1 requested bye with 12 active players leaves 11")
    at_both_widths(page, shots, "player_edit", lambda p, width: expect(note).to_be_visible())
    page.get_by_label("Bye in round 1").check()
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".flash.warning[role=status]")).to_contain_text("one more player, drawn at random, also gets")

    # the dashboard warns, and the pair button asks first
    page.goto(dashboard)
    expect(page.locator(".next-step .bye-note")).to_contain_text("1 requested bye with 12 active players")
    at_both_widths(page, shots, "dashboard_bye_warning", lambda p, width: expect(
        p.locator(".next-step .bye-note")).to_be_visible())
    questions = []

    def answer(dialog):
        questions.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    main.click()
    expect(page.get_by_text("Round 1 is paired.")).to_be_visible()
    assert questions and "Pair round 1 anyway?" in questions[0]
    # the round page shows the warning once, in its rules check (not repeated as a flash)
    expect(page.locator("#pairing-check[role=status]", has_text="has a bye nobody asked for: the 1 requested bye")
           ).to_be_visible()
    # the round page's collapsible sections (custom result, edit pairings, ...) show the marker too
    markers = page.locator("summary").evaluate_all("(ss) => ss.map((s) => getComputedStyle(s, '::before').content)")
    assert markers and all("▸" in m or "▾" in m for m in markers), markers
    at_both_widths(page, shots, "round1_paired")

    page.goto(dashboard)
    expect(main).to_have_text("Check and publish round 1")
    expect(page.locator(".bye-note")).to_have_count(0)
    at_both_widths(page, shots, "dashboard_round1_paired", lambda p, width: expect(main).to_be_visible())

    # late entry: no round-1 bye to offer any more
    page.goto(dashboard + "/players")
    page.locator("details.add-player > summary").click()
    expect(page.locator("details.add-player").get_by_label("Name", exact=True)).to_be_visible()
    expect(page.get_by_label("Bye in round 1")).to_have_count(0)
    page.get_by_role("link", name="Ada Lovelace").click()
    expect(page.get_by_label("Bye in round 1")).to_have_count(0)
    expect(page.get_by_text("Had a requested bye in round 1.")).to_be_visible()


def test_double_sixteen_stays_inside_the_window(new_context, organizer, seed_swiss, live_server, shots):
    """The largest bracket (a lower bracket of six rounds) scrolls inside its own box, never the page."""
    from app.extensions import db
    from app.models import Tournament
    from app.services import cut as cut_service

    event = seed_swiss(organizer["id"], FIELD, rounds=3, name="Big Open")
    with live_server.app_context():
        cut_service.create(db.session.get(Tournament, event.id), 16, "double")
        db.session.remove()
    page = new_context(viewport=NARROW).new_page()  # a player's phone
    page.goto(f"/t/{event.slug}/bracket")
    expect(page.locator(".cut-game")).to_have_count(30)

    def laid_out(page, width):
        if width == 1280:
            first, last = (page.locator(f"#game-{g}").bounding_box() for g in (9, 29))
            assert first["x"] < last["x"]  # the lower bracket's rounds are columns too, all in view on a laptop
            assert last["x"] + last["width"] <= WIDE["width"]
            assert abs(centre(page.locator("#game-27").bounding_box())[1] - (
                centre(page.locator("#game-21").bounding_box())[1]
                + centre(page.locator("#game-22").bounding_box())[1]) / 2) < 2
    at_both_widths(page, shots, "public_bracket_de16", laid_out)


def test_single_elimination_public_bracket(new_context, organizer, seed_swiss, live_server, shots):
    """Single elimination is one bracket, the final at its end, level with the two semi-finals."""
    from app.extensions import db
    from app.models import Tournament
    from app.services import cut as cut_service

    event = seed_swiss(organizer["id"], FIELD[:12], rounds=3, name="Knockout Open")
    with live_server.app_context():
        cut_service.create(db.session.get(Tournament, event.id), 8, "single")
        db.session.remove()
    page = new_context(viewport=NARROW).new_page()  # a player's phone
    page.goto(f"/t/{event.slug}/bracket")
    expect(page.get_by_role("heading", name="Bracket", exact=True)).to_be_visible()
    expect(page.locator(".cut-game")).to_have_count(7)

    def laid_out(page, width):
        box = {g: page.locator(f"#game-{g}").bounding_box() for g in range(1, 8)}
        if width == 1280:
            assert box[1]["x"] < box[5]["x"] < box[7]["x"]
            assert abs(centre(box[7])[1] - (centre(box[5])[1] + centre(box[6])[1]) / 2) < 2
        else:
            assert len({round(b["x"]) for b in box.values()}) == 1
    at_both_widths(page, shots, "public_bracket_single", laid_out)


# ---- what the rounds buy ------------------------------------------------------------------------------------------

def test_what_the_rounds_buy_beside_the_recommendation(to_page, organizer, seed_swiss, shots):
    """A 20-player single-sided event: the dashboard's recommended-rounds box and the settings form say how many
    of the 8 strongest players the simulated events put in the top 8 (app/core/round_advice.py), inside the
    window at both widths."""
    page = to_page
    event = seed_swiss(organizer["id"], FIELD, rounds=0, name="Rounds Advice", planned=8)
    page.goto(f"/tournaments/{event.id}")
    box = page.locator("#recommended-rounds")
    expect(box.locator("#top8-recall")).to_contain_text("best 8 in top 8: ≈")
    at_both_widths(page, shots, "rounds-advice-dashboard-{width}", part="#recommended-rounds")
    page.goto(f"/tournaments/{event.id}/edit")
    line = page.locator("#top8-recall")
    expect(line).to_contain_text("After 5 rounds, about")
    expect(line).to_contain_text("after the planned 8, about")
    expect(line).to_contain_text("the top cut settles the rest")
    at_both_widths(page, shots, "rounds-advice-form-{width}", lambda p, width: line.scroll_into_view_if_needed(),
                   full_page=False)

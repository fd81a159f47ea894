"""Decklists in a browser, each flow run once at its person's width (a player's 360 px phone, the TO's 1280 px
laptop) and each screen also looked at the other: a player pastes a legal list and a list with
three kinds of error and reads each explained; the TO reviews, unlocks and prints; open lists appear once the cut
is made. Screenshots in bench/out/decklists_*.png."""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from app.extensions import db
from app.models import Player, Tournament
from app.services import cut as cut_service
from app.services import decklists as service
from app.services.players import player_links

from tests.browser.conftest import at_both_widths

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "decklists"
CORP = (FIXTURES / "corp_nrdb.txt").read_text(encoding="utf-8")
RUNNER = (FIXTURES / "runner_jinteki.txt").read_text(encoding="utf-8")
# Three kinds of error: a typo, a Corp card in a Runner list, one copy too many.
BROKEN_RUNNER = RUNNER.replace("3 Sure Gamble", "3 Sure Gamle").replace("3 Jailbreak", "4 Jailbreak") + \
    "1 Hedge Fund\n"
WIDTHS = {"phone": {"width": 360, "height": 780}, "laptop": {"width": 1280, "height": 900}}


def _collecting(live_server, event, visibility="closed") -> dict:
    """Turn decklists on for a seeded event; the players' link tokens by name."""
    with live_server.app_context():
        t = db.session.get(Tournament, event.id)
        t.decklists, t.decklist_visibility = True, visibility
        db.session.commit()
        tokens = {p.name: player_links.token(p) for p in db.session.query(Player).filter_by(tournament_id=t.id)}
        db.session.remove()
    return tokens


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "scrolls sideways"


def test_a_player_pastes_a_legal_list_and_a_broken_one(new_context, live_server, roster, organizer, seed_swiss,
                                                       screenshots):
    event = seed_swiss(organizer["id"], roster[:4], rounds=0, name="Deck Open 360")
    me = roster[0][0]
    token = _collecting(live_server, event)[me]
    page = new_context(viewport=WIDTHS["phone"]).new_page()
    page.goto(f"/t/{event.slug}/p/{token}")
    page.get_by_role("link", name="Your decklists").click()
    expect(page.get_by_role("heading", name="Your decklists")).to_be_visible()

    page.get_by_label("Paste your Corp list").fill(CORP)
    page.get_by_role("button", name="Submit Corp list").click()
    expect(page.get_by_text("Your Corp list is in and legal.")).to_be_visible()
    corp = page.locator("section#corp")
    expect(corp.get_by_text("Legal under the event's rules.")).to_be_visible()
    expect(corp.get_by_role("heading", name="Agenda (8)")).to_be_visible()

    page.get_by_label("Paste your Runner list").fill(BROKEN_RUNNER)
    page.get_by_role("button", name="Submit Runner list").click()
    expect(page.get_by_text("Your Runner list is saved, with 3 problems shown below.")).to_be_visible()
    problems = page.locator("section#runner .deck-problems li")
    expect(problems).to_have_count(3)
    expect(problems).to_have_text([  # in the order of the paste's lines
        "Line 2: there is no card called “Sure Gamle”. Did you mean “Sure Gamble”?",
        "Line 3: 4 copies of Jailbreak; a deck may hold at most 3.",
        "Line 18: Hedge Fund is a Corp card; a Runner deck cannot include it."])
    at_both_widths(page, screenshots, "decklists_player", lambda p, width: expect(problems).to_have_count(3))


def test_the_to_reviews_unlocks_and_prints(new_context, live_server, roster, organizer, seed_swiss, log_in,
                                           screenshots):
    event = seed_swiss(organizer["id"], roster[:4], rounds=0, name="Deck Review 1280")
    tokens = _collecting(live_server, event)
    ann, ben = roster[0][0], roster[1][0]
    with live_server.app_context():
        t = db.session.get(Tournament, event.id)
        players = {p.name: p for p in t.players}
        service.submit(t, players[ann], "corp", CORP, "player")
        service.submit(t, players[ann], "runner", RUNNER, "player")
        service.submit(t, players[ben], "runner", BROKEN_RUNNER, "player")
        db.session.remove()
    event.pair(1)  # the lists lock

    page = new_context(viewport=WIDTHS["laptop"]).new_page()
    log_in(page, organizer["email"])
    page.goto(f"/tournaments/{event.id}")
    page.get_by_role("link", name="Decklists", exact=True).click()
    expect(page.get_by_role("heading", name="Decklists")).to_be_visible()
    expect(page.get_by_text("locked since round 1 was paired")).to_be_visible()
    ben_row = page.locator("tr", has_text=ben)
    expect(ben_row).to_contain_text("3 problems")
    expect(ben_row).to_contain_text("Did you mean “Sure Gamble”?")
    expect(page.locator(".stat", has_text="missing a list")).to_contain_text("3")
    at_both_widths(page, screenshots, "decklists_review", lambda p, width: expect(ben_row).to_contain_text(
        "3 problems"))

    ben_row.get_by_role("button", name="Unlock").click()
    expect(page.get_by_text(f"{ben} may change their Runner list once more.")).to_be_visible()
    phone = new_context(viewport=WIDTHS["phone"]).new_page()
    phone.goto(f"/t/{event.slug}/p/{tokens[ben]}/decklists")
    expect(phone.locator("section#corp")).to_contain_text("Locked: round 1 has been paired.")
    expect(phone.get_by_label("Change your Runner list")).to_have_value(BROKEN_RUNNER)
    phone.get_by_label("Change your Runner list").fill(RUNNER)
    phone.get_by_role("button", name="Submit Runner list").click()
    expect(phone.get_by_text("Your Runner list is in and legal.")).to_be_visible()
    expect(phone.locator("section#runner")).to_contain_text("Locked: round 1 has been paired.")

    page.get_by_role("link", name="Print all lists").click()
    expect(page.locator("article.deck-sheet")).to_have_count(2)
    first = page.locator("article.deck-sheet").first
    expect(first.get_by_role("heading", name=ann)).to_be_visible()
    expect(first.get_by_role("heading", name="Sentry (6)")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    page.screenshot(path=str(screenshots / "decklists_print_1280.png"), full_page=True)
    page.emulate_media(media="screen")  # the sheets on screen, before printing
    at_both_widths(page, screenshots, "decklists_print_screen", lambda p, width: expect(
        p.locator("article.deck-sheet")).to_have_count(2))


def test_open_lists_appear_when_the_cut_is_made(new_context, live_server, roster, organizer, seed_swiss, log_in,
                                                screenshots):
    event = seed_swiss(organizer["id"], roster[:8], rounds=3, name="Open Lists Cup")
    _collecting(live_server, event)
    with live_server.app_context():
        t = db.session.get(Tournament, event.id)
        for p in t.players:
            service.submit(t, p, "corp", CORP.replace("Precision Pressure", p.name), "organizer")
        db.session.remove()

    page = new_context().new_page()
    log_in(page, organizer["email"])
    page.goto(f"/tournaments/{event.id}/decklists")
    page.get_by_label("Open lists for the cut: the cut players' lists are public once the cut is made").check()
    page.get_by_role("button", name="Save decklist settings").click()
    expect(page.get_by_text("Decklist settings saved.")).to_be_visible()

    phone = new_context(viewport=WIDTHS["phone"]).new_page()
    phone.goto(f"/t/{event.slug}/decklists")
    expect(phone.get_by_text("The cut players' lists appear here once the cut is made.")).to_be_visible()

    with live_server.app_context():
        t = db.session.get(Tournament, event.id)
        cut_service.create(t, 4, "single")
        seeds = cut_service.load(t).bracket.seeds
        names = {p.id: p.name for p in t.players}
        cut_names = [names[s] for s in seeds]
        db.session.remove()
    phone.reload()
    shown = phone.locator("section.deck-public h3")
    expect(shown).to_have_count(4)
    assert shown.all_text_contents() == cut_names  # in seed order
    expect(phone.locator("section.deck-public").first).to_contain_text("Haas-Bioroid: Precision Design")
    _no_sideways_scroll(phone)
    phone.screenshot(path=str(screenshots / "decklists_public_cut_phone.png"), full_page=True)

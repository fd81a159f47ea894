"""Before round 1 on the TO's dashboard (run once at 1280 px, each screen also on a 360 px phone): missing and invalid
decklists are counted, "Review the decklists" is the advice, and "Lock the lists now" and "Pair round 1 anyway" are
the TO's choices. Screenshots in bench/out/lists_before_round_one_*.png."""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from app.extensions import db
from app.models import Player, Tournament
from app.services import decklists as service

from tests.browser.conftest import at_both_widths

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "decklists"
CORP = (FIXTURES / "corp_nrdb.txt").read_text(encoding="utf-8")


def test_the_to_sees_the_gaps_locks_then_pairs_anyway(new_context, live_server, roster, organizer, log_in,
                                                      seed_swiss, screenshots):
    event = seed_swiss(organizer["id"], roster[:4], rounds=0, name="Lists Open 1280")
    with live_server.app_context():
        t = db.session.get(Tournament, event.id)
        t.decklists = True
        db.session.commit()
        first = db.session.query(Player).filter_by(tournament_id=t.id).order_by(Player.id).first()
        service.submit(t, first, "corp", CORP, "player")
        service.submit(t, first, "runner", "Identity: Tao Salonga\n3 Hedge Fund\n", "player")
        db.session.remove()

    page = new_context().new_page()  # the TO's laptop
    log_in(page, organizer["email"], organizer["password"])
    page.goto(f"/tournaments/{event.id}")
    step = page.locator("section.next-step")
    expect(step.get_by_role("link", name="Review the decklists")).to_be_visible()
    expect(step).to_contain_text("3 players still missing a list and 1 invalid list")
    expect(step.get_by_role("button", name="Pair round 1 anyway")).to_be_visible()

    def choices(p, width):
        expect(step.get_by_role("link", name="Review the decklists")).to_be_visible()
        expect(step.get_by_role("button", name="Pair round 1 anyway")).to_be_visible()
    at_both_widths(page, screenshots, "lists_before_round_one", choices)

    step.get_by_role("button", name="Lock the lists now").click()
    expect(page.get_by_text("The decklists are locked")).to_be_visible()
    expect(page.locator("section.next-step").get_by_role("button", name="Lock the lists now")).to_have_count(0)
    at_both_widths(page, screenshots, "lists_before_round_one_locked", lambda p, width: expect(
        p.get_by_text("The decklists are locked")).to_be_visible())

    page.locator("section.next-step").get_by_role("button", name="Pair round 1 anyway").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible(timeout=15_000)

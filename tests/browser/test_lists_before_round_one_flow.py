"""Before round 1 on the TO's dashboard (1280 px and a 360 px phone): missing and invalid decklists are counted,
"Review the decklists" is the advice, and "Lock the lists now" and "Pair round 1 anyway" are the TO's choices.
Screenshots in bench/out/lists_before_round_one_*.png."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.extensions import db
from app.models import Player, Tournament
from app.services import decklists as service

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "decklists"
CORP = (FIXTURES / "corp_nrdb.txt").read_text(encoding="utf-8")
WIDTHS = {"phone": {"width": 360, "height": 780}, "laptop": {"width": 1280, "height": 900}}


@pytest.mark.parametrize("size", WIDTHS)
def test_the_to_sees_the_gaps_locks_then_pairs_anyway(size, new_context, live_server, roster, organizer, log_in,
                                                      seed_swiss, screenshots):
    event = seed_swiss(organizer["id"], roster[:4], rounds=0, name=f"Lists Open {size}")
    with live_server.app_context():
        t = db.session.get(Tournament, event.id)
        t.decklists = True
        db.session.commit()
        first = db.session.query(Player).filter_by(tournament_id=t.id).order_by(Player.id).first()
        service.submit(t, first, "corp", CORP, "player")
        service.submit(t, first, "runner", "Identity: Tao Salonga\n3 Hedge Fund\n", "player")
        db.session.remove()

    page = new_context(viewport=WIDTHS[size]).new_page()
    log_in(page, organizer["email"], organizer["password"])
    page.goto(f"/tournaments/{event.id}")
    step = page.locator("section.next-step")
    expect(step.get_by_role("link", name="Review the decklists")).to_be_visible()
    expect(step).to_contain_text("3 players still missing a list and 1 invalid list")
    expect(step.get_by_role("button", name="Pair round 1 anyway")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "scrolls sideways"
    page.screenshot(path=str(screenshots / f"lists_before_round_one_{size}.png"), full_page=True)

    step.get_by_role("button", name="Lock the lists now").click()
    expect(page.get_by_text("The decklists are locked")).to_be_visible()
    expect(page.locator("section.next-step").get_by_role("button", name="Lock the lists now")).to_have_count(0)
    page.screenshot(path=str(screenshots / f"lists_before_round_one_locked_{size}.png"), full_page=True)

    page.locator("section.next-step").get_by_role("button", name="Pair round 1 anyway").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible(timeout=15_000)

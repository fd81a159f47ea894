"""A TO backs up mid-round and restores through the pages (moving servers on event day): the restored copy's
round page shows the same waiting report, dispute and history, and a player's phone the same pending claim."""
from __future__ import annotations

import sqlalchemy as sa
from playwright.sync_api import expect

from app.core import results
from app.extensions import db
from app.models import Player, Tournament
from app.services.results import participation
from app.services.results import match_results
from tests.browser.test_participation_flow import PHONE_360, games, no_sideways_scroll, to_row


def _claims(live, event_id: int, organizer_id: int) -> list[dict]:
    """Round 2: table 1 waits for the Runner, table 2 is disputed; round 1's first result is edited by the TO."""
    first, second = games(live, event_id, 2)[:2]
    with live.app_context():
        t = db.session.get(Tournament, event_id)
        by_name = {p.name: p for p in t.players}
        participation.report(t, by_name[first["corp"]["name"]], first["id"], "corp")
        participation.report(t, by_name[second["corp"]["name"]], second["id"], "corp")
        participation.report(t, by_name[second["runner"]["name"]], second["id"], "runner")
        r1 = games(live, event_id, 1)[0]
        match_results.report_result(t, r1["id"], results.outcome(t.fmt, "id"),
                                    match_results.Actor("organizer", organizer_id), past=True)
        db.session.remove()
    return [first, second]


def test_restore_keeps_reports_and_history(roster, new_context, organizer, seed_swiss, log_in, screenshots,
                                           live_server, tmp_path):
    event = seed_swiss(organizer["id"], roster, rounds=1, name="Moving Open")
    event.pair(2)
    first, second = _claims(live_server, event.id, organizer["id"])

    laptop = new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(laptop, organizer["email"])
    backup = laptop.request.get(f"/tournaments/{event.id}/backup.json")
    assert backup.ok
    path = tmp_path / "backup.json"
    path.write_bytes(backup.body())
    laptop.goto("/tournaments/restore")
    laptop.get_by_label("File").set_input_files(str(path))
    laptop.get_by_role("button", name="Restore").click()
    expect(laptop.locator("body")).to_contain_text("Restored")
    with live_server.app_context():
        copy_id = db.session.scalars(sa.select(Tournament.id).where(Tournament.owner_id == organizer["id"],
                                                                     Tournament.id != event.id)).one()
        db.session.remove()
    copied = {g["table"]: g for g in games(live_server, copy_id, 2)}
    first_copy, second_copy = copied[first["table"]], copied[second["table"]]

    laptop.goto(f"/tournaments/{copy_id}/rounds/2")
    expect(laptop.locator(to_row(first_copy))).to_contain_text(
        f"Reported by {first['corp']['name']}: Corp win, waiting for {first['runner']['name']}")
    expect(laptop.locator(to_row(second_copy))).to_contain_text(
        f"Disputed: {second['corp']['name']} says Corp win; {second['runner']['name']} says Runner win")
    expect(laptop.locator('[data-count="disputed"]')).to_have_text("1")
    laptop.screenshot(path=str(screenshots / "restore_round_reports_1280.png"), full_page=True)

    laptop.goto(f"/tournaments/{copy_id}/rounds/1")
    r1 = {g["table"]: g for g in games(live_server, copy_id, 1)}[games(live_server, event.id, 1)[0]["table"]]
    laptop.locator(to_row(r1) + " details.result-log summary").click()
    log = laptop.locator(to_row(r1) + " details.result-log")
    expect(log).to_contain_text("History (2)")
    expect(log).to_contain_text("an organizer account (deleted, or from before a restore)")
    laptop.screenshot(path=str(screenshots / "restore_round_history_1280.png"), full_page=True)

    phone = new_context(**PHONE_360).new_page()
    phone.goto(first_copy["runner"]["link"])
    expect(phone.locator("body")).to_contain_text(f"{first['corp']['name']} reported: you lost as Runner")
    no_sideways_scroll(phone)
    phone.screenshot(path=str(screenshots / "restore_phone_claim_360.png"), full_page=True)

    narrow = new_context(**PHONE_360).new_page()
    log_in(narrow, organizer["email"])
    narrow.goto(f"/tournaments/{copy_id}/rounds/1")
    narrow.locator(to_row(r1) + " details.result-log summary").click()
    no_sideways_scroll(narrow)
    # the open history wraps within the row (an account line is longer than a phone is wide)
    assert narrow.locator(to_row(r1) + " details.result-log ol").evaluate(
        "ol => [...ol.children].every(li => li.getBoundingClientRect().right <= window.innerWidth"
        " && li.scrollWidth <= li.clientWidth + 1)")
    narrow.screenshot(path=str(screenshots / "restore_round_history_360.png"), full_page=True)
    with live_server.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Player)
                                 .where(Player.tournament_id == copy_id)) == len(roster)
        db.session.remove()

"""Players report from 360 px phones, the TO watches on a 1280 px laptop: the result appears without a reload,
a dispute shows at the top and is settled with one tap, a player drops."""
from __future__ import annotations

import sqlalchemy as sa
from playwright.sync_api import expect

from app.extensions import db
from app.models import Match, Player, Round, Seat
from app.services.players import player_links

PHONE_360 = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True,
             "device_scale_factor": 2}
LIVE = 12_000  # ms: the TO page polls every 4 s


def games(live, event_id: int, number: int = 1) -> list[dict]:
    """Round `number`'s games: match id, table, and per side the player's name and link path."""
    with live.app_context():
        rows = db.session.execute(
            sa.select(Match.id, Match.table, Seat.side, Player)
            .join(Seat, Seat.match_id == Match.id).join(Player, Player.id == Seat.player_id)
            .join(Round, Round.id == Match.round_id)
            .where(Round.tournament_id == event_id, Round.number == number, Match.is_bye.is_(False))
            .order_by(Match.table)).all()
        slug = db.session.get(Player, rows[0][3].id).tournament.slug
        out: dict[int, dict] = {}
        for mid, table, side, player in rows:
            g = out.setdefault(mid, {"id": mid, "table": table})
            g[side] = {"name": player.name, "link": f"/t/{slug}/p/{player_links.token(player)}"}
        db.session.remove()
    return list(out.values())


def to_row(game: dict) -> str:
    """The TO's round page row of a game."""
    return f"ol.matches > li[data-match='{game['id']}']"


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_report_confirm_dispute_settle_drop(roster, new_context, organizer, seed_swiss, log_in, screenshots,
                                            live_server):
    event = seed_swiss(organizer["id"], roster, rounds=0, name="Report Open")
    event.pair(1)
    first, second, third = games(live_server, event.id)[:3]

    laptop = new_context().new_page()
    log_in(laptop, organizer["email"])
    laptop.goto(f"/tournaments/{event.id}/rounds/1")
    expect(laptop.locator('[data-count="unreported"]')).to_have_text("6")

    # Table 1: the Corp reports a Corp win on their phone...
    corp = new_context(**PHONE_360).new_page()
    corp.goto(first["corp"]["link"])
    expect(corp.locator(".me-big")).to_have_text(f"Table {first['table']}")
    expect(corp.locator(".me-vs")).to_contain_text(first["runner"]["name"])
    corp.screenshot(path=str(screenshots / "participation_phone_me_360.png"), full_page=True)
    no_sideways_scroll(corp)
    corp.locator(".me-buttons button[value=corp]").tap()
    expect(corp.get_by_text(f"Waiting for {first['runner']['name']} to confirm")).to_be_visible()
    # ...the TO sees it arrive without reloading...
    note = laptop.locator(to_row(first) + " [data-note]")
    expect(note).to_contain_text(f"Reported by {first['corp']['name']}: Corp win", timeout=LIVE)
    expect(laptop.locator('[data-count="waiting"]')).to_have_text("1")
    # ...the Runner confirms with one tap, and the TO's page shows the result.
    runner = new_context(**PHONE_360).new_page()
    runner.goto(first["runner"]["link"])
    # (worded from the Runner's side: app/core/result_wording.py)
    expect(runner.get_by_text(f"{first['corp']['name']} reported: you lost as Runner")).to_be_visible()
    runner.screenshot(path=str(screenshots / "participation_phone_confirm_360.png"), full_page=True)
    runner.get_by_role("button", name="Yes: I lost as Runner").tap()
    expect(runner.locator(".me-result")).to_contain_text("I lost as Runner")
    expect(laptop.locator(to_row(first) + " [data-result]")).to_have_text("Corp win", timeout=LIVE)
    expect(laptop.locator('[data-count="confirmed"]')).to_have_text("1")
    expect(laptop.locator(to_row(first) + " button[value=corp]")).to_have_class("chosen")

    # Table 2: the players disagree; the dispute shows at the top of the TO's page.
    for side, key in (("corp", "corp"), ("runner", "runner")):
        p = new_context(**PHONE_360).new_page()
        p.goto(second[side]["link"])
        p.locator(f".me-buttons button[value={key}]").tap()
        if side == "runner":
            expect(p.get_by_text("Disputed.")).to_be_visible()
            p.screenshot(path=str(screenshots / "participation_phone_disputed_360.png"), full_page=True)
    disputes = laptop.locator("#disputes")
    expect(disputes).to_be_visible(timeout=LIVE)
    expect(disputes).to_contain_text(f"Table {second['table']}: Disputed: {second['corp']['name']} says Corp win; "
                                     f"{second['runner']['name']} says Runner win")
    laptop.get_by_label("Unreported only").check()
    expect(laptop.locator(to_row(first))).to_be_hidden()
    expect(laptop.locator(to_row(second))).to_be_visible()
    laptop.screenshot(path=str(screenshots / "participation_to_round_1280.png"), full_page=True)
    # One tap at the top settles it.
    laptop.locator("#disputes button[value=runner]").click()
    expect(laptop.locator(to_row(second) + " [data-result]")).to_have_text("Runner win")
    expect(laptop.locator("#disputes")).to_be_hidden()
    expect(laptop.locator("#toast")).to_have_text(f"Saved \u2713 table {second['table']}: Runner win")
    laptop.reload()  # the saved tap did not reload the page; the result's history shows after one
    laptop.locator(to_row(second) + " details.result-log summary").click()
    expect(laptop.locator(to_row(second) + " details.result-log")).to_contain_text(organizer["email"])

    # The TO's round page on a phone too.
    to_phone = new_context(**PHONE_360).new_page()
    log_in(to_phone, organizer["email"])
    to_phone.goto(f"/tournaments/{event.id}/rounds/1")
    no_sideways_scroll(to_phone)
    to_phone.screenshot(path=str(screenshots / "participation_to_round_360.png"), full_page=True)

    # Table 3's Corp drops (with a confirmation); the TO sees it at once.
    dropper = new_context(**PHONE_360).new_page()
    dropper.goto(third["corp"]["link"])
    dropper.get_by_text("Drop from the event").tap()
    dropper.get_by_role("button", name="Yes, drop me").tap()
    expect(dropper.get_by_text("You have dropped.").first).to_be_visible()
    laptop.goto(f"/tournaments/{event.id}/players")
    row = laptop.locator("tr", has_text=third["corp"]["name"])
    expect(row.locator(".badge", has_text="dropped")).to_be_visible()

    # The public pages greet a remembered phone with its table.
    corp.goto(f"/t/{event.slug}/pairings")
    expect(corp.locator(".you-banner")).to_contain_text(
        f"You: table {first['table']}, Corp against {first['runner']['name']}")
    corp.screenshot(path=str(screenshots / "participation_phone_banner_360.png"))

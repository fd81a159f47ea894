"""Check-in on the day: a 360 px phone registers into a full event, lands on the waitlist and checks in while it
waits; a player checks in from their phone; the TO's roll call (1280 px, then on a 360 px phone) ticks a player off
with one tap (a second tap on the row undoes nothing: undo is a button of its own), takes a check-in back and finds a
name typed without its accent; "Pair round 1" shows what pairing would do first (the no-show dropped, the waiting
player who is here let in); the TO drops the no-shows, and the waitlisted phone, left open, says "You are in" by
itself, still checked in; pairing is then one click. Another waitlisted phone leaves the line, and the open roll
call shows it."""
from __future__ import annotations

from playwright.sync_api import expect

from app.extensions import db
from app.models import CheckInSettings, Player, Tournament
from app.services.players import player_links, registration
from tests.browser.test_participation_flow import PHONE_360, no_sideways_scroll

LIVE = 15_000  # ms: a player's page checks every 2 s


def test_check_in_roll_call_and_a_waitlist_promotion(new_context, organizer, log_in, live_server, screenshots,
                                                     unique):
    with live_server.app_context():
        t = Tournament(owner_id=organizer["id"], name=f"Check-in Regional {unique}", format="single",
                       registration_open=True, registration_cap=4)
        db.session.add(t)
        db.session.flush()
        db.session.add(CheckInSettings(tournament_id=t.id, enabled=True, round=1, no_shows="drop", waitlist=True))
        db.session.commit()
        for name in ("Zoë Kovač", "Grace Hopper", "Alan Turing", "Ada Lovelace"):
            registration.register(t, name)
        links = {p.name: f"/t/{t.slug}/p/{player_links.token(p)}"
                 for p in db.session.query(Player).filter_by(tournament_id=t.id)}
        tid, slug = t.id, t.slug
        db.session.remove()

    # A fourth player registers on their phone: the event is full, they wait in line.
    wren = new_context(**PHONE_360).new_page()
    wren.goto(f"/t/{slug}")
    form = wren.locator("#register")
    expect(form).to_contain_text("The event is full: new entries join the waitlist")
    form.get_by_label("Name", exact=True).fill("Wren Waits")
    form.get_by_role("button", name="Register").click()
    expect(wren.get_by_text("you are on the waitlist, position 1")).to_be_visible()
    wren.locator("#player-link").click()
    expect(wren.locator("#check-in")).to_contain_text("Waitlist position 1")
    expect(wren.locator("#me-dropped")).not_to_contain_text("You have dropped")
    wren.get_by_role("button", name="I am here: check me in").click()  # she is at the venue: checks in, waiting
    expect(wren.locator("#check-in")).to_contain_text("Checked in while you wait")
    expect(wren.locator("#check-in")).to_contain_text("Waitlist position 1")
    no_sideways_scroll(wren)
    wren.screenshot(path=str(screenshots / "check_in_waitlisted_360.png"), full_page=True)
    # Lee registers after her: position 2 (Lee gives up later, from the phone).
    lee = new_context(**PHONE_360).new_page()
    lee.goto(f"/t/{slug}")
    lee.locator("#register").get_by_label("Name", exact=True).fill("Lee Leaves")
    lee.locator("#register").get_by_role("button", name="Register").click()
    lee.locator("#player-link").click()
    expect(lee.locator("#check-in")).to_contain_text("Waitlist position 2")

    # Grace checks in from her phone.
    grace = new_context(**PHONE_360).new_page()
    grace.goto(links["Grace Hopper"])
    grace.get_by_role("button", name="I am here: check me in").click()
    expect(grace.locator("#check-in")).to_contain_text("Checked in for round 1")
    no_sideways_scroll(grace)
    grace.screenshot(path=str(screenshots / "check_in_player_done_360.png"), full_page=True)

    # The TO's roll call: counts, one tap per player without a reload, undo, search by a folded name.
    desk = new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(desk, organizer["email"], organizer["password"])
    desk.goto(f"/tournaments/{tid}")
    desk.get_by_role("link", name="Check-in").click()
    counts = desk.locator("#check-in-counts")
    expect(counts).to_contain_text("1checked in")
    expect(counts).to_contain_text("3not yet")
    expect(counts).to_contain_text("2on the waitlist")
    desk.evaluate("window.notReloaded = true")
    zoe = desk.locator("#roll-call li", has_text="Zoë Kovač")
    zoe.get_by_role("button").click()
    expect(desk.locator("#roll-call li", has_text="Zoë Kovač")).to_contain_text("checked in ✓")
    expect(desk.locator("#check-in-counts")).to_contain_text("2checked in")
    desk.locator("#roll-call li", has_text="Zoë Kovač").locator(".name").click()  # a second tap on the row: nothing
    expect(desk.locator("#roll-call li", has_text="Zoë Kovač")).to_contain_text("checked in ✓")
    expect(desk.locator("#check-in-counts")).to_contain_text("2checked in")
    desk.locator("#roll-call li", has_text="Zoë Kovač").get_by_role("button", name="Undo Zoë Kovač's check-in").click()
    expect(desk.locator("#roll-call li", has_text="Zoë Kovač")).to_contain_text("tap to check in")
    expect(desk.locator("#check-in-counts")).to_contain_text("1checked in")
    desk.locator("#roll-call li", has_text="Zoë Kovač").get_by_role("button").click()
    expect(desk.locator("#check-in-counts")).to_contain_text("2checked in")
    # Ada checks in on her phone meanwhile: the open roll call shows it by itself.
    ada = new_context(**PHONE_360).new_page()
    ada.goto(links["Ada Lovelace"])
    ada.get_by_role("button", name="I am here: check me in").click()
    expect(desk.locator("#check-in-counts")).to_contain_text("3checked in", timeout=LIVE)
    expect(desk.locator("#roll-call li", has_text="Ada Lovelace")).to_contain_text("checked in ✓ (phone)")
    expect(desk.locator("#waitlist-line li", has_text="Wren Waits")).to_contain_text("checked in ✓")
    assert desk.evaluate("window.notReloaded") is True
    # Lee leaves the line from the phone: the open roll call shows the shorter line by itself.
    lee.get_by_text("Leave the waitlist", exact=True).click()
    no_sideways_scroll(lee)
    lee.screenshot(path=str(screenshots / "check_in_leave_waitlist_360.png"), full_page=True)
    lee.get_by_role("button", name="Yes, leave the waitlist").click()
    expect(lee.get_by_text("Lee Leaves, you have left the waitlist.")).to_be_visible()
    expect(desk.locator("#check-in-counts")).to_contain_text("1on the waitlist", timeout=LIVE)
    assert desk.evaluate("window.notReloaded") is True
    desk.get_by_label("Find a player").fill("zoe kovac")
    expect(desk.locator("#roll-call li", has_text="Grace Hopper")).to_be_hidden()
    expect(desk.locator("#roll-call li", has_text="Zoë Kovač")).to_be_visible()
    desk.screenshot(path=str(screenshots / "check_in_roll_call_1280.png"), full_page=True)
    desk.set_viewport_size({"width": 360, "height": 780})
    desk.get_by_label("Find a player").fill("")
    expect(desk.locator("#roll-call li", has_text="Grace Hopper")).to_be_visible()
    no_sideways_scroll(desk)
    desk.screenshot(path=str(screenshots / "check_in_roll_call_360.png"), full_page=True)

    # Alan never came. "Pair round 1" first says what pairing would do, and does nothing until confirmed.
    desk.goto(f"/tournaments/{tid}")
    desk.get_by_role("link", name="Pair round 1").click()
    plan = desk.locator("#pairing-plan")
    expect(plan).to_contain_text("Drops 1 not checked in: Alan Turing")
    expect(plan).to_contain_text("Lets in 1 from the waitlist: Wren Waits")
    expect(plan.get_by_role("button", name="Drop 1, let in 1 and pair round 1")).to_be_visible()
    no_sideways_scroll(desk)
    desk.screenshot(path=str(screenshots / "check_in_pairing_plan_360.png"), full_page=True)
    # The TO drops the no-shows from the roll call instead, and Wren's open page says she is in, without a reload.
    desk.get_by_role("link", name="Back to the roll call").click()
    wren.evaluate("window.notReloaded = true")
    desk.once("dialog", lambda dialog: dialog.accept())
    desk.get_by_role("button", name="Drop the no-shows now").click()
    expect(desk.get_by_text("Dropped 1 no-show: Alan Turing.")).to_be_visible()
    expect(desk.get_by_text("In from the waitlist: Wren Waits.")).to_be_visible()
    expect(desk.locator("#check-in-counts")).to_contain_text("0on the waitlist")
    expect(wren.locator("#check-in")).to_contain_text("You are in", timeout=LIVE)
    expect(wren.locator("#check-in")).to_contain_text("Checked in for round 1")  # her check-in carried over
    assert wren.evaluate("window.notReloaded") is True
    wren.screenshot(path=str(screenshots / "check_in_promoted_360.png"), full_page=True)
    desk.set_viewport_size({"width": 1280, "height": 900})
    desk.screenshot(path=str(screenshots / "check_in_after_no_shows_1280.png"), full_page=True)
    # Everyone in is here now: pairing is one click again.
    desk.goto(f"/tournaments/{tid}")
    desk.get_by_role("button", name="Pair round 1").click()
    expect(desk.get_by_text("Round 1 is paired")).to_be_visible()

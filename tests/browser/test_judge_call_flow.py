"""A judge call from a 360 px phone: the TO's 1280 px round page shows it without a reload (badge), a
scorekeeper on a 360 px phone claims it and resolves it, and the player's page follows each step by itself."""
from __future__ import annotations

from playwright.sync_api import expect

from app.extensions import db
from app.models import Staff, User
from tests.browser.conftest import PASSWORD
from tests.browser.test_participation_flow import PHONE_360, games, no_sideways_scroll

LIVE = 10_000  # ms: the staff pages and the player's box poll every 3 s


def _scorekeeper(live, event_id: int, unique: str) -> str:
    email = f"keeper-{unique}@example.com"
    with live.app_context():
        user = User(email=email, display_name="Sam Keeper")
        user.set_password(PASSWORD)
        db.session.add(user)
        db.session.flush()
        db.session.add(Staff(tournament_id=event_id, user_id=user.id, role="scorekeeper"))
        db.session.commit()
        db.session.remove()
    return email


def test_call_claim_resolve(roster, new_context, organizer, seed_swiss, log_in, screenshots, live_server, unique):
    event = seed_swiss(organizer["id"], roster, rounds=0, name="Judge Open")
    event.pair(1)
    game = games(live_server, event.id)[1]
    caller = game["corp"]
    keeper_email = _scorekeeper(live_server, event.id, unique)

    laptop = new_context().new_page()
    log_in(laptop, organizer["email"], organizer["password"])
    laptop.goto(f"/tournaments/{event.id}/rounds/1")
    panel = laptop.locator("#judge-calls")
    expect(panel).to_contain_text("No open calls.")
    expect(laptop.locator("#judge-badge")).to_be_hidden()
    laptop.get_by_label("Sound").check()  # this device's choice, kept across reloads
    laptop.reload()
    expect(laptop.get_by_label("Sound")).to_be_checked()

    phone = new_context(**PHONE_360).new_page()
    phone.goto(caller["link"])
    box = phone.locator("#judge-call")
    phone.get_by_placeholder("Reason (optional)").fill("Is this card legal?")
    box.get_by_role("button", name="Call a judge").click()
    expect(box).to_contain_text(f"Judge call sent for table {game['table']}, round 1")
    expect(box).to_contain_text("Is this card legal?")
    no_sideways_scroll(phone)
    phone.screenshot(path=str(screenshots / "judge_call_player_sent_360.png"), full_page=True)

    # The TO's page: the call and its badge arrive by the poll, no reload.
    expect(laptop.locator("#judge-badge")).to_have_text("1 waiting", timeout=LIVE)
    item = panel.locator("li.judge-item")
    expect(item).to_contain_text(f"Table {game['table']}, round 1 · {caller['name']}")
    expect(item).to_contain_text("Is this card legal?")
    expect(panel).to_have_class("card judge-calls ringing")
    expect(laptop).to_have_title("(1) Round 1 · Judge Open · SASS")
    laptop.screenshot(path=str(screenshots / "judge_call_to_badge_1280.png"))

    # The scorekeeper, on a phone, takes it.
    keeper = new_context(**PHONE_360).new_page()
    log_in(keeper, keeper_email)
    keeper.goto(f"/tournaments/{event.id}/rounds/1")
    keeper.locator("#judge-calls").get_by_role("button", name="I'll go").click()
    expect(keeper.locator("#judge-toast")).to_contain_text("is yours")
    expect(keeper.locator("#judge-calls li.judge-item")).to_contain_text("you are on the way")
    no_sideways_scroll(keeper)
    keeper.screenshot(path=str(screenshots / "judge_call_keeper_claimed_360.png"))

    expect(box).to_contain_text("A judge is on the way", timeout=LIVE)
    expect(box).to_contain_text("Sam Keeper")
    expect(laptop.locator("#judge-badge")).to_be_hidden(timeout=LIVE)
    expect(laptop).to_have_title("Round 1 · Judge Open · SASS")
    expect(item).to_contain_text("Sam Keeper is on the way")
    phone.screenshot(path=str(screenshots / "judge_call_player_on_the_way_360.png"), full_page=True)
    laptop.screenshot(path=str(screenshots / "judge_call_to_claimed_1280.png"))

    keeper.locator("#judge-calls").get_by_role("button", name="Resolved").click()
    expect(keeper.locator("#judge-calls")).to_contain_text("No open calls.")
    expect(box).to_contain_text("is resolved", timeout=LIVE)
    expect(box.get_by_role("button", name="Call a judge")).to_be_visible()
    expect(panel).to_contain_text("No open calls.", timeout=LIVE)

    # The log keeps who called, when, who took it and when it closed.
    laptop.get_by_role("link", name="Log").click()
    row = laptop.locator("table.judge-log tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(caller["name"])
    expect(row).to_contain_text("resolved by Sam Keeper")
    laptop.screenshot(path=str(screenshots / "judge_call_log_1280.png"))


def test_player_cancels(roster, new_context, organizer, seed_swiss, live_server, screenshots):
    event = seed_swiss(organizer["id"], roster, rounds=0, name="Cancel Open")
    event.pair(1)
    caller = games(live_server, event.id)[0]["runner"]
    phone = new_context(**PHONE_360).new_page()
    phone.goto(caller["link"])
    phone.locator("#judge-call").get_by_role("button", name="Call a judge").click()
    phone.get_by_role("button", name="Cancel the call").click()
    expect(phone.locator("#judge-call")).to_contain_text("was cancelled")
    expect(phone.get_by_text("Your judge call is cancelled.")).to_be_visible()
    # The cool-down: a second call at once is refused with the wait, nothing sent.
    phone.locator("#judge-call").get_by_role("button", name="Call a judge").click()
    expect(phone.get_by_text("You can call again in")).to_be_visible()
    phone.screenshot(path=str(screenshots / "judge_call_player_cooldown_360.png"), full_page=True)

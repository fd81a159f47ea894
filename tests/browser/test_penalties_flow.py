"""A judge on a 360 px phone records a game loss from the round page and the table's result changes (the TO's
1280 px round page shows it, with the reason in its history); then a random deck check on the laptop: two players
picked, their lists opened, one marked checked, the phone's view of the draw."""
from __future__ import annotations

import sqlalchemy as sa
from playwright.sync_api import expect

from app.extensions import db
from app.models import Player
from tests.browser.test_judge_call_flow import _scorekeeper
from tests.browser.test_participation_flow import PHONE_360, games, no_sideways_scroll, to_row


def _player_id(live, event_id: int, name: str) -> int:
    with live.app_context():
        pid = db.session.scalar(sa.select(Player.id).filter_by(tournament_id=event_id, name=name))
        db.session.remove()
    return pid


def test_game_loss_from_a_phone_and_a_random_deck_check(roster, new_context, organizer, seed_swiss, log_in,
                                                        screenshots, live_server, unique):
    event = seed_swiss(organizer["id"], roster, rounds=0, name="Penalty Open")
    event.pair(1)
    game = games(live_server, event.id)[0]
    late = game["corp"]
    keeper_email = _scorekeeper(live_server, event.id, unique)

    judge = new_context(**PHONE_360).new_page()
    log_in(judge, keeper_email)
    judge.goto(f"/tournaments/{event.id}/rounds/1")
    judge.locator("#penalty-links").get_by_role("link", name="Record a penalty").click()
    expect(judge.get_by_role("heading", name="Record a penalty")).to_be_visible()
    judge.get_by_label("Player", exact=True).select_option(str(_player_id(live_server, event.id, late["name"])))
    expect(judge.get_by_label("Round", exact=True)).to_have_value("1")
    judge.get_by_label("Infraction").select_option("tardiness")
    judge.get_by_label("Game loss").check()
    judge.get_by_label("Notes").fill("Arrived 12 minutes after the round began.")
    no_sideways_scroll(judge)
    judge.screenshot(path=str(screenshots / "penalty_form_360.png"), full_page=True)
    judge.get_by_role("button", name="Record the penalty").click()
    expect(judge.locator(".flash")).to_contain_text(f"Game loss for {late['name']} recorded; round 1's result is "
                                                    "now Runner win")
    log = judge.locator("#penalty-log")
    expect(log).to_contain_text("Tardiness")
    expect(log).to_contain_text("Arrived 12 minutes after the round began.")
    expect(log).to_contain_text("Sam Keeper")
    no_sideways_scroll(judge)
    judge.screenshot(path=str(screenshots / "penalty_log_360.png"), full_page=True)

    laptop = new_context().new_page()
    log_in(laptop, organizer["email"], organizer["password"])
    laptop.goto(f"/tournaments/{event.id}/rounds/1")
    row = laptop.locator(to_row(game))
    expect(row.locator("[data-result]")).to_have_text("Runner win")
    row.locator("summary", has_text="History").click()
    expect(row.locator(".result-log")).to_contain_text(f"Game loss for {late['name']} (tardiness)")
    laptop.screenshot(path=str(screenshots / "penalty_round_page_1280.png"))

    laptop.goto(f"/tournaments/{event.id}")
    laptop.get_by_role("link", name="random deck checks").click()
    laptop.get_by_label("How many players").fill("2")
    laptop.get_by_role("button", name="Pick players").click()
    draw = laptop.locator("section.draw").first
    expect(draw.locator("li.picked-player")).to_have_count(2)
    expect(draw).to_contain_text("gives this pick again")
    first = draw.locator("li.picked-player").first
    name = first.locator(".picked-name strong").inner_text()
    laptop.screenshot(path=str(screenshots / "deck_check_draw_1280.png"), full_page=True)
    first.get_by_role("link", name="Open lists").click()  # the player's deck-check sheet
    expect(laptop).to_have_title(f"Deck check · {name} · Penalty Open · SASS")
    expect(laptop.locator("body")).to_contain_text(name)
    laptop.go_back()
    draw = laptop.locator("section.draw").first
    draw.get_by_role("button", name=f"Mark {name} checked").click()
    expect(laptop.locator(".flash")).to_contain_text(f"{name}'s lists are marked checked")
    expect(laptop.locator("#checked")).to_contain_text(name)

    judge.goto(f"/tournaments/{event.id}/deck-checks")
    expect(judge.locator("section.draw").first).to_contain_text(f"checked by {organizer['email']}")
    no_sideways_scroll(judge)
    judge.screenshot(path=str(screenshots / "deck_check_360.png"), full_page=True)

"""At a publish a 360 px phone shows its new table from the round's shared seats answer (api.seats, what the proxy
keeps for the whole hall), before its own check answers: here the own check is held back entirely, and the table,
side and opponent still arrive with the status poll; when the check comes back, the whole card (result buttons)
replaces it."""
from __future__ import annotations

import sqlalchemy as sa
from playwright.sync_api import expect

from app.extensions import db
from app.models import Player
from app.services.players import player_links
from tests.browser.test_participation_flow import PHONE_360, games, no_sideways_scroll


def test_the_table_arrives_from_the_shared_answer(roster, new_context, organizer, seed_swiss, live_server,
                                                   screenshots):
    event = seed_swiss(organizer["id"], roster, rounds=0, name="Seats Open")
    with live_server.app_context():
        player = db.session.scalars(sa.select(Player).where(Player.tournament_id == event.id)
                                    .order_by(Player.id)).first()
        name, link = player.name, f"/t/{player.tournament.slug}/p/{player_links.token(player)}"
        db.session.remove()
    phone = new_context(**PHONE_360).new_page()
    held = []
    phone.route("**/live*", lambda route: held.append(route.request.url) or route.abort())
    phone.goto(link)
    expect(phone.locator("#me-card")).to_contain_text("Waiting for pairings")

    event.pair(1)  # paired and published
    mine = next(g for g in games(live_server, event.id) if name in (g["corp"]["name"], g["runner"]["name"]))
    side, other = ("Corp", mine["runner"]) if mine["corp"]["name"] == name else ("Runner", mine["corp"])
    card = phone.locator("#me-card")
    expect(card).to_contain_text(f"Table {mine['table']}", timeout=10_000)
    expect(card).to_contain_text(f"You play {side} against {other['name']}")
    expect(card).to_contain_text("Your result buttons follow in a moment.")
    no_sideways_scroll(phone)
    phone.screenshot(path=str(screenshots / "seat_preview_360.png"), full_page=True)
    phone.set_viewport_size({"width": 1280, "height": 800})  # the same card on a laptop
    expect(card).to_contain_text(f"Table {mine['table']}")
    no_sideways_scroll(phone)
    phone.screenshot(path=str(screenshots / "seat_preview_1280.png"), full_page=True)

    phone.unroute("**/live*")
    phone.reload()  # the page's own check is back: the whole card, its result buttons
    expect(card).to_contain_text(f"Table {mine['table']}")
    expect(card.get_by_role("button", name=f"I won as {side}")).to_be_visible()

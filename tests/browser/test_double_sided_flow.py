"""Double-sided results as two games: the TO taps one button for a 3-3 that says which side won (1280 px laptop and
360 px phone), enters a 4-1 game by game, players report a 3-3 from their phones, and the NRTM file has each
player's corpScore and runnerScore."""
from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from playwright.sync_api import expect

from app.extensions import db
from app.models import Match, Player, Round, Seat, Tournament
from app.services.players import player_links
from tests.browser.conftest import SeededEvent

PHONE_360 = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True,
             "device_scale_factor": 2}
SHOTS = Path("/tmp/shots/exportds")
LIVE = 12_000  # ms: the TO page polls every 4 s


def _double_event(live, owner_id: int, roster) -> SeededEvent:
    with live.app_context():
        t = Tournament(owner_id=owner_id, name="Double Night", format="double", planned_rounds=3)
        db.session.add(t)
        db.session.commit()
        db.session.add_all(Player(tournament_id=t.id, name=n, corp_identity=c, runner_identity=r)
                           for n, c, r in roster[:8])
        db.session.commit()
        event = SeededEvent(live, t.id, t.slug)
        db.session.remove()
    event.pair(1)
    return event


def _tables(live, event_id: int) -> list[dict]:
    """Round 1's tables in order: match id and the two seats' names and link paths."""
    with live.app_context():
        rows = db.session.execute(
            sa.select(Match.id, Match.table, Seat.position, Player).join(Seat, Seat.match_id == Match.id)
            .join(Player, Player.id == Seat.player_id).join(Round, Round.id == Match.round_id)
            .where(Round.tournament_id == event_id, Round.number == 1).order_by(Match.table, Seat.position)).all()
        out: dict[int, dict] = {}
        for mid, table, _position, p in rows:
            g = out.setdefault(mid, {"id": mid, "table": table, "seats": []})
            g["seats"].append({"name": p.name, "link": f"/t/{p.tournament.slug}/p/{player_links.token(p)}"})
        db.session.remove()
    return list(out.values())


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_double_sided_entry_on_laptop_phone_and_players_phones(roster, new_context, organizer, log_in,
                                                               live_server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    event = _double_event(live_server, organizer["id"], roster)
    t1, t2, t3, t4 = _tables(live_server, event.id)

    laptop = new_context().new_page()
    log_in(laptop, organizer["email"])
    laptop.goto(f"/tournaments/{event.id}/rounds/1")
    # one tap: a 3-3 in which each player won as Runner
    laptop.locator(f'[data-match="{t1["id"]}"] button[value="0-3/3-0"]').click()
    expect(laptop.locator(f'[data-match="{t1["id"]}"] [data-result]')).to_have_text("3-3 Runners won")
    expect(laptop.locator(f'[data-match="{t1["id"]}"] button[value="0-3/3-0"]')).to_have_class("chosen")
    # game by game: seat 1 won as Corp, then a tied game
    a, b = (s["name"] for s in t2["seats"])
    laptop.locator(f'[data-match="{t2["id"]}"] details.custom summary').click()
    laptop.locator(f'[data-match="{t2["id"]}"] select[name=first]').select_option(label=f"{a} won as Corp")
    laptop.locator(f'[data-match="{t2["id"]}"] select[name=second]').select_option(label="Tie")
    laptop.screenshot(path=str(SHOTS / "double_round_custom_1280.png"), full_page=True)
    laptop.locator(f'[data-match="{t2["id"]}"] .custom-result').get_by_role("button", name="Save").click()
    expect(laptop.locator(f'[data-match="{t2["id"]}"] [data-result]')).to_have_text("4-1 (Corp win, then tie)")
    laptop.screenshot(path=str(SHOTS / "double_round_1280.png"), full_page=True)

    # the TO's phone: the same one-tap buttons fit a 360 px screen
    to_phone = new_context(**PHONE_360).new_page()
    log_in(to_phone, organizer["email"])
    to_phone.goto(f"/tournaments/{event.id}/rounds/1")
    _no_sideways_scroll(to_phone)
    to_phone.locator(f'[data-match="{t3["id"]}"] button[value="3-0/3-0"]').tap()
    expect(to_phone.locator(f'[data-match="{t3["id"]}"] [data-result]')).to_have_text("6-0")
    _no_sideways_scroll(to_phone)
    to_phone.screenshot(path=str(SHOTS / "double_round_360.png"), full_page=True)

    # players report table 4 on their phones: each won as Corp; the opponent confirms with one tap
    (first, second) = t4["seats"]
    p1 = new_context(**PHONE_360).new_page()
    p1.goto(first["link"])
    _no_sideways_scroll(p1)
    p1.screenshot(path=str(SHOTS / "double_player_buttons_360.png"), full_page=True)
    p1.locator('.me-buttons button[value="3-0/0-3"]').tap()
    expect(p1.get_by_text(f"Waiting for {second['name']} to confirm")).to_be_visible()
    p2 = new_context(**PHONE_360).new_page()
    p2.goto(second["link"])
    # worded from the second seat's side (app/core/result_wording.py)
    expect(p2.get_by_text(f"{first['name']} reported: a 3-3 draw: each won as Corp")).to_be_visible()
    p2.get_by_role("button", name="Yes: We drew 3-3: each won as Corp").tap()
    expect(p2.locator(".me-result")).to_contain_text("We drew 3-3: each won as Corp")
    _no_sideways_scroll(p2)
    p2.screenshot(path=str(SHOTS / "double_player_confirmed_360.png"), full_page=True)
    expect(laptop.locator(f'[data-match="{t4["id"]}"] [data-result]')).to_have_text("3-3 Corps won", timeout=LIVE)

    # the public NRTM file has each game's points per player
    data = laptop.request.get(f"/t/{event.slug}.json").json()
    names = {p["id"]: p["name"] for p in data["players"]}
    got = {(names[g["player1"]["id"]], names[g["player2"]["id"]]):
           ((g["player1"]["corpScore"], g["player1"]["runnerScore"]),
            (g["player2"]["corpScore"], g["player2"]["runnerScore"])) for g in data["rounds"][0]}
    seats = lambda t: (t["seats"][0]["name"], t["seats"][1]["name"])  # noqa: E731
    assert got[seats(t1)] == ((0, 3), (0, 3))
    assert got[seats(t2)] == ((3, 1), (1, 0))
    assert got[seats(t3)] == ((3, 3), (0, 0))
    assert got[seats(t4)] == ((3, 0), (3, 0))

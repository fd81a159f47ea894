"""A league's third week, seeded by rating, in a browser: the TO's laptop (1280 px) reads on the dashboard that 5
of 5 players have no rating, links the identical names in one tap and reads 1 of 5; on a phone (360 px) the
series' players page lists each link with its undo, nothing wider than the screen."""
from __future__ import annotations

from datetime import date

from playwright.sync_api import expect

from app.extensions import db
from app.models import Series, SeriesEvent, Tournament
from tests.cut_helpers import add_players, add_round

NARROW = {"width": 360, "height": 780}
WIDE = {"width": 1280, "height": 900}
ROUNDS = [[(0, 1, "corp"), (2, 3, "corp")], [(0, 2, "corp"), (1, 3, "runner")]]


def test_the_to_links_a_leagues_regulars_from_the_seeding_notice(new_context, organizer, log_in, live_server,
                                                                 screenshots):
    with live_server.app_context():
        series = Series(owner_id=organizer["id"], name="Thursday League", slug="thursleague")
        db.session.add(series)
        db.session.flush()
        for week, names in enumerate([["Ann", "Ben", "Cat", "Dan"], ["ann", "Ben", "Cat", "dan"]], 1):
            t = Tournament(owner_id=organizer["id"], name=f"Week {week}", date=date(2026, 1, 7 * week),
                           format="single")
            db.session.add(t)
            db.session.flush()
            db.session.add(SeriesEvent(series_id=series.id, tournament_id=t.id))
            ps = add_players(t, names)
            for number, tables in enumerate(ROUNDS, 1):
                add_round(t, number, [(ps[a], ps[b], key) for a, b, key in tables])
        third = Tournament(owner_id=organizer["id"], name="Week 3", date=date(2026, 1, 21), format="single",
                           seed_by_rating=True)
        db.session.add(third)
        db.session.flush()
        db.session.add(SeriesEvent(series_id=series.id, tournament_id=third.id))
        add_players(third, ["ANN", "Ben", "Cät", "Dan", "Eve"])
        db.session.commit()
        tid, sid = third.id, series.id
        db.session.remove()

    laptop = new_context(viewport=WIDE).new_page()
    log_in(laptop, organizer["email"])
    laptop.goto(f"/tournaments/{tid}")
    notice = laptop.locator("#seeding")
    expect(notice).to_contain_text("Seeding by rating is on")
    expect(notice.locator("#seeding-count")).to_have_text("5 of 5 have no rating")
    expect(notice).to_contain_text("ANN, Ben, Cät, Dan, Eve")
    notice.screenshot(path=str(screenshots / "seeding_notice_before_1280.png"))
    notice.get_by_role("button", name="Link all identical names").click()
    expect(laptop.locator(".flash.success")).to_contain_text("Linked 8 entries by identical name")
    expect(laptop.locator("#seeding-count")).to_have_text("1 of 5 have no rating")
    expect(laptop.locator("#seeding")).to_contain_text("Eve")
    laptop.screenshot(path=str(screenshots / "seeding_notice_after_1280.png"), full_page=True)

    phone = new_context(viewport=NARROW, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
    log_in(phone, organizer["email"])
    phone.goto(f"/series/{sid}/players")
    matched = phone.locator("#matched + .table-wrap")
    expect(matched.get_by_role("button", name="Undo")).to_have_count(8)
    assert phone.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    phone.screenshot(path=str(screenshots / "series_links_360.png"), full_page=True)
    matched.get_by_role("button", name="Undo").first.click()
    expect(phone.locator(".flash.success")).to_contain_text("stands alone again")
    expect(phone.locator("#matched + .table-wrap").get_by_role("button", name="Undo")).to_have_count(7)
    phone.goto(f"/tournaments/{tid}")
    expect(phone.locator("#seeding")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    phone.screenshot(path=str(screenshots / "seeding_notice_360.png"), full_page=True)

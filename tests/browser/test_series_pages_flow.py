"""The series' bounded pages in a browser: the managers' players page paged, its pager and search on a 360 px phone;
the public standings at 1280 px with their ratings, which after a changed result show what rating the series' games
from scratch gives (the page is rated on from the changed event and shared by every worker)."""
from __future__ import annotations

import sqlalchemy as sa
from playwright.sync_api import expect

from app.core import ratings as core
from app.core import results
from app.extensions import db
from app.models import Match, Series, Tournament, User
from app.services.results import match_results
from app.services.series import manage, people
from app.services.series import standings as series_standings
from app.services.series.games import series_games
from app.services.series.rating_games import rating_games


def _no_sideways_scroll(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url} is {scroll} px wide at {width} px"


def _rated_from_scratch(sid: int) -> dict:
    series = db.session.get(Series, sid)
    table = series_standings.table(series)
    rated = core.rate(rating_games(series_games(series, table.roster)))
    return {line.name: rated[line.key].display for line in table.lines if line.key in rated.ratings}


def test_the_series_pages_paged_on_a_phone_and_rated_after_a_result_on_a_laptop(
        live_server, roster, new_context, organizer, seed_swiss, log_in, screenshots, unique, monkeypatch):
    first = seed_swiss(organizer["id"], roster[:8], rounds=2, name=f"Week 1 {unique}")
    second = seed_swiss(organizer["id"], roster[2:10], rounds=2, name=f"Week 2 {unique}")
    with live_server.app_context():
        owner = db.session.get(User, organizer["id"])
        series = manage.create(owner, manage.Settings(
            name=f"Paged League {unique}", kind="league", points_table="1st 10, 2nd 8, 3rd-4th 6, 5th-8th 4",
            participation="1", best_n=None, field_reference=None, tiers="", tie_breaks=("countback",),
            invite_top=2, invite_winners=False, link_identical=True))
        for event in (first, second):
            manage.add_event(series, db.session.get(Tournament, event.id), "")
        sid, slug = series.id, series.slug
    monkeypatch.setattr(people, "PER_PAGE", 3)  # 10 players: four pages of names

    phone = new_context(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True).new_page()
    log_in(phone, organizer["email"])
    phone.goto(f"/series/{sid}/players")
    pager = phone.get_by_role("navigation", name="Pages of the players")
    expect(pager.get_by_role("link")).to_have_count(4)
    expect(pager).to_contain_text("1–3 of 10, 3 a page.")
    pager.get_by_role("link", name="2", exact=True).click()
    pager = phone.get_by_role("navigation", name="Pages of the players")
    expect(pager.locator("[aria-current=page]")).to_have_text("2")
    expect(pager).to_contain_text("4–6 of 10")
    _no_sideways_scroll(phone, 360)
    phone.screenshot(path=str(screenshots / "series_players_paged_360.png"), full_page=True)
    name = roster[9][0]  # played Week 2 only: on the last page
    phone.get_by_label("Find a player").fill(name.split()[0])
    phone.get_by_role("button", name="Find").click()
    expect(phone.locator("#found")).to_contain_text("answers to")
    expect(phone.get_by_role("region", name="Players' public names")).to_contain_text(name)
    _no_sideways_scroll(phone, 360)

    laptop = new_context(viewport={"width": 1280, "height": 900}).new_page()
    laptop.goto(f"/s/{slug}")
    standings = laptop.get_by_role("region", name="Series standings")
    expect(standings.get_by_role("columnheader", name="Rating")).to_be_visible()
    expect(standings.locator("tbody tr")).to_have_count(10)

    def rating_of(player: str) -> str:
        return standings.get_by_role("row").filter(has=laptop.get_by_role("link", name=player, exact=True)) \
            .locator("td").nth(4).inner_text()

    with live_server.app_context():
        before = _rated_from_scratch(sid)
    for player, shown in before.items():
        assert rating_of(player) == str(shown), player
    # Week 2's first table changes hands: the page built again shows the ratings as from scratch
    with live_server.app_context():
        t = db.session.get(Tournament, second.id)
        game = db.session.scalars(sa.select(Match).filter_by(tournament_id=t.id, is_bye=False)
                                  .order_by(Match.round_id, Match.table)).first()
        flipped = "runner" if game.result == "corp" else "corp"
        match_results.report_result(t, game.id, results.outcome(t.fmt, flipped),
                                    match_results.Actor.account(db.session.get(User, organizer["id"]), t),
                                    past=True)
        after = _rated_from_scratch(sid)
    assert after != before
    laptop.reload()
    for player, shown in after.items():
        assert rating_of(player) == str(shown), player
    _no_sideways_scroll(laptop, 1280)
    laptop.screenshot(path=str(screenshots / "series_public_rated_1280.png"), full_page=True)

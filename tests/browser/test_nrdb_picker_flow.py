"""A 360 px phone signs in with NetrunnerDB (the local stand-in's consent page), links its entry, and picks one of its
own NetrunnerDB decks for each side from its decklists page; the picker at 1280 px too. Screenshots in
bench/out/nrdb_picker_*.png."""
from __future__ import annotations

from datetime import date
from pathlib import Path

from playwright.sync_api import expect

from app.extensions import db
from app.models import Player, Tournament
from app.services.players import player_links
from nrdb_standin import Standin, codes_of, normalized_deck, running

NARROW = {"width": 360, "height": 780}
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "decklists"


def _decks() -> list:
    corp = codes_of((FIXTURES / "corp_nrdb.txt").read_text(encoding="utf-8"), "corp")
    runner = codes_of((FIXTURES / "runner_jinteki.txt").read_text(encoding="utf-8"), "runner")
    return [normalized_deck(11, "2025-02-01T10:00:00+00:00", corp, "Old Precision"),
            normalized_deck(12, "2025-06-01T10:00:00+00:00", runner, "Tāo Goes Shopping"),
            normalized_deck(13, "2025-05-01T10:00:00+00:00", dict(corp, **{"30075": 4}), "Four Hedge Funds")]


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "scrolls sideways"


def test_a_phone_picks_its_own_decks(public_context, organizer, live_server, screenshots, unique):
    with live_server.app_context():
        t = Tournament(owner_id=organizer["id"], name=f"Deck Night {unique}", format="single", decklists=True,
                       date=date(2026, 11, 1))
        db.session.add(t)
        db.session.flush()
        ann = Player(tournament_id=t.id, name="Ann")
        db.session.add(ann)
        db.session.commit()
        slug, token = t.slug, player_links.token(ann)
        db.session.remove()
    config = live_server.app.config
    before = {k: config[k] for k in ("NRDB_URL", "NRDB_CLIENT_ID", "NRDB_CLIENT_SECRET")}
    username = f"ana_{abs(hash(unique)) % 10000}"
    standin = Standin("browser-client", "browser-secret", f"{public_context.url}/nrdb/callback",
                      users={username: 80000 + abs(hash(unique)) % 10000}, consent=username,
                      decks={username: _decks()})
    try:
        with running(standin) as url:
            config.update(NRDB_URL=url, NRDB_CLIENT_ID="browser-client", NRDB_CLIENT_SECRET="browser-secret")
            phone = public_context(viewport=NARROW, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
            phone.goto(f"/t/{slug}/p/{token}")
            phone.locator("#nrdb").get_by_role("link", name="Sign in with NetrunnerDB").click()
            phone.get_by_role("button", name=f"Link this entry to {username}").click()
            expect(phone.locator("#nrdb")).to_contain_text(f"Linked to {username}")
            phone.get_by_role("link", name="Your decklists").click()

            corp = phone.locator("section#corp")
            corp.get_by_role("link", name="Pick one of my NetrunnerDB decks for my Corp list").click()
            expect(phone.get_by_role("heading", name="My NetrunnerDB Corp decks")).to_be_visible()
            names = phone.locator(".nrdb-deck h2")
            expect(names).to_have_text(["Four Hedge Funds", "Old Precision"])  # newest first
            _no_sideways_scroll(phone)
            phone.screenshot(path=str(screenshots / "nrdb_picker_corp_360.png"), full_page=True)
            phone.get_by_role("button", name="Use as my Corp list (Old Precision)").click()
            expect(phone.get_by_text("Your Corp list is your NetrunnerDB deck “Old Precision”, and legal.")) \
                .to_be_visible()
            expect(phone.locator("section#corp .badge.ok")).to_have_text("legal")

            phone.locator("section#runner").get_by_role(
                "link", name="Pick one of my NetrunnerDB decks for my Runner list").click()
            expect(phone.locator(".nrdb-deck h2")).to_have_text(["Tāo Goes Shopping"])
            phone.get_by_role("button", name="Use as my Runner list (Tāo Goes Shopping)").click()
            expect(phone.get_by_text("Your Runner list is your NetrunnerDB deck “Tāo Goes Shopping”")).to_be_visible()
            expect(phone.locator("section#runner h2 .badge")).to_be_visible()
            _no_sideways_scroll(phone)
            phone.screenshot(path=str(screenshots / "nrdb_picker_decklists_360.png"), full_page=True)

            # NetrunnerDB no longer takes the token: said plainly, with the way back in
            standin.expire()
            phone.goto(f"/t/{slug}/p/{token}/decklists/nrdb/mine?side=corp")
            expect(phone.get_by_text("Your NetrunnerDB sign-in here has expired")).to_be_visible()
            phone.screenshot(path=str(screenshots / "nrdb_picker_expired_360.png"), full_page=True)
            phone.get_by_role("link", name="Sign in with NetrunnerDB again").click()
            expect(phone.get_by_role("heading", name="My NetrunnerDB Corp decks")).to_be_visible()
            expect(phone.locator(".nrdb-deck h2")).to_have_count(2)

            desk = public_context(viewport={"width": 1280, "height": 800}).new_page()
            desk.context.add_cookies(phone.context.cookies())
            desk.goto(f"/t/{slug}/p/{token}/decklists/nrdb/mine?side=corp")
            expect(desk.locator(".nrdb-deck h2")).to_have_count(2)
            desk.screenshot(path=str(screenshots / "nrdb_picker_corp_1280.png"), full_page=True)
    finally:
        config.update(before)

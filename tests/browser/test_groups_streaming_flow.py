"""Event groups and streaming in real browsers: the organizer makes a group of a main event and a side event
(1280 px); a 360 px phone holding a player link of each sees both entries on the group's page; the TO sets the
stream's address, is refused a table with an opted-out player, features another, and the projector, the round
page and the overlay feed show it. Screenshots go to bench/out/ (look at them)."""
from __future__ import annotations

from playwright.sync_api import expect

from app.extensions import db
from app.models import Player, Tournament
from app.services.players import player_links
from app.services.swiss import rounds as rounds_service

PHONE_360 = {"width": 360, "height": 780}
FOUR = [("Ana Silva", "Haas-Bioroid: Precision Design", "Hoshiko Shiro: Untold Protagonist"),
        ("Ben Okafor", "", ""), ("Cleo Marsh", "", ""), ("Dev Patel", "", "")]


def test_group_page_and_featured_table(new_context, page, organizer, log_in, seed_swiss, live_server, unique,
                                       screenshots):
    main = seed_swiss(organizer["id"], FOUR, rounds=0, name=f"Main Event {unique}", planned=3)
    main.pair(1)
    side = seed_swiss(organizer["id"], FOUR[:2] + [("Eve Stone", "", ""), ("Fay Lin", "", "")], rounds=0,
                      name=f"Startup Side {unique}", planned=2)
    side.pair(1)
    with live_server.app_context():
        ana = {e.slug: db.session.query(Player).filter_by(tournament_id=e.id, name="Ana Silva").one()
               for e in (main, side)}
        links = {slug: f"/t/{slug}/p/{player_links.token(p)}" for slug, p in ana.items()}
        db.session.remove()

    # The organizer makes the group and adds both events.
    log_in(page, organizer["email"])
    page.get_by_role("link", name="Event groups").click()
    page.get_by_label("Name").fill("Worlds Weekend")
    page.get_by_label("Public address").fill(f"worlds-{unique}".lower())
    page.get_by_role("button", name="Make the group").click()
    expect(page.get_by_role("heading", name="Worlds Weekend")).to_be_visible()
    for event in (f"Main Event {unique}", f"Startup Side {unique}"):
        page.get_by_label("Event", exact=True).select_option(label=page.locator("#tournament option", has_text=event)
                                                             .inner_text())
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator("#group-events")).to_contain_text(event)
    # one date, no schedules: listed by name
    expect(page.locator("#group-events li").first).to_contain_text(f"Main Event {unique}")
    page.screenshot(path=str(screenshots / "groups_manage_1280.png"), full_page=True)
    group_url = page.locator("#group-url").inner_text()

    # A phone that opened both of Ana's player links sees both entries on the group's page.
    phone = new_context(viewport=PHONE_360, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
    for link in links.values():
        phone.goto(link)
    phone.goto(group_url)
    expect(phone.locator("#your-entries")).to_be_visible()
    entries = phone.locator("#entry-list > li")
    expect(entries).to_have_count(2)
    expect(entries.first).to_contain_text(f"Main Event {unique}")
    expect(entries.first).to_contain_text("table")
    expect(phone.locator("#group-events")).to_contain_text("Round 1 of 3")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
    phone.screenshot(path=str(screenshots / "groups_page_phone_360.png"), full_page=True)
    # A stranger's phone sees the events and no entries.
    stranger = new_context(viewport=PHONE_360, is_mobile=True).new_page()
    stranger.goto(group_url)
    expect(stranger.locator("#group-events li")).to_have_count(2)
    expect(stranger.locator("#your-entries")).to_be_hidden()
    stranger.set_viewport_size({"width": 1280, "height": 900})
    stranger.screenshot(path=str(screenshots / "groups_page_1280.png"), full_page=True)

    # Streaming: the stream's address, an opted-out player refused, another table featured.
    with live_server.app_context():
        t = db.session.get(Tournament, main.id)
        rnd = rounds_service.load_round(t, 1)
        shy_table, shown_table = rnd.matches[0], rnd.matches[1]
        shy = db.session.get(Player, shy_table.seats[0].player_id)
        shy.no_coverage = True
        shy_name = shy.name
        db.session.commit()
        db.session.remove()
    page.goto(f"/tournaments/{main.id}")
    page.get_by_label("Stream address").fill("https://twitch.tv/worlds")
    page.get_by_role("button", name="Save the stream's address").click()
    expect(page.locator(".flash.success")).to_contain_text("stream's address is saved")
    expect(page.locator("#no-coverage")).to_contain_text(shy_name)
    page.locator("#streaming").screenshot(path=str(screenshots / "streaming_dashboard_card_1280.png"))
    page.goto(f"/tournaments/{main.id}/rounds/1")
    page.get_by_label("Featured table").fill(str(shy_table.table))
    page.get_by_role("button", name="Feature", exact=True).click()
    expect(page.locator(".flash.error")).to_contain_text(f"{shy_name} opted out of coverage")
    page.get_by_label("Featured table").fill(str(shown_table.table))
    page.get_by_role("button", name="Feature", exact=True).click()
    expect(page.locator("#on-stream")).to_contain_text(f"Table {shown_table.table}:")
    page.locator("#on-stream").screenshot(path=str(screenshots / "streaming_round_card_1280.png"))

    feed = page.request.get(f"/t/{main.slug}/stream.json")
    assert feed.ok and feed.headers["access-control-allow-origin"] == "*"
    data = feed.json()
    assert data["table"] == shown_table.table and data["stream_url"] == "https://twitch.tv/worlds"
    assert [p["name"] for p in data["players"]] == [s.name for s in shown_table.seats]
    again = page.request.get(f"/t/{main.slug}/stream.json", headers={"If-None-Match": feed.headers["etag"]})
    assert again.status == 304
    # An overlay on another origin (an OBS browser source) reads it and sends its ETag back (a CORS preflight).
    overlay = new_context(bypass_csp=True).new_page()  # the page stands in for a site of its own
    overlay.goto(live_server.url.replace("127.0.0.1", "localhost") + "/")  # another origin, same server
    status, table, revalidated = overlay.evaluate("""async (url) => {
        const first = await fetch(url, {cache: "no-store"});
        const body = await first.json();
        const again = await fetch(url, {cache: "no-store", headers: {"If-None-Match": first.headers.get("ETag")}});
        return [first.status, body.table, again.status];
    }""", f"{live_server.url}/t/{main.slug}/stream.json")
    assert (status, table, revalidated) == (200, shown_table.table, 304)

    page.goto(f"/t/{main.slug}/projector")
    expect(page.locator("#on-stream")).to_contain_text(f"table {shown_table.table}")
    page.screenshot(path=str(screenshots / "streaming_projector_1280.png"))
    phone.goto(f"/t/{main.slug}")
    expect(phone.locator("#stream-link")).to_contain_text("https://twitch.tv/worlds")
    expect(phone.locator("#group-of")).to_contain_text("Worlds Weekend")
    page.set_viewport_size(PHONE_360)
    page.goto(f"/tournaments/{main.id}/rounds/1")
    page.locator("#on-stream").scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
    page.screenshot(path=str(screenshots / "streaming_round_360.png"), full_page=True)


def test_registering_from_the_group_page_starts_from_the_entry_this_phone_holds(new_context, page, organizer, log_in,
                                                                              seed_swiss, live_server, unique,
                                                                              screenshots):
    """A 360 px phone holding Ana's link of the main event opens the group page, then the side event: its
    registration form is filled with her name, identities and pronouns, which she may change before registering."""
    main = seed_swiss(organizer["id"], FOUR, rounds=0, name=f"Main Event {unique}", planned=3)
    side = seed_swiss(organizer["id"], FOUR[1:], rounds=0, name=f"Startup Side {unique}", planned=2)
    with live_server.app_context():
        db.session.get(Tournament, side.id).registration_open = True
        ana = db.session.query(Player).filter_by(tournament_id=main.id, name="Ana Silva").one()
        ana.pronouns = "she/her"
        link = f"/t/{main.slug}/p/{player_links.token(ana)}"
        db.session.commit()
        db.session.remove()
    log_in(page, organizer["email"])
    page.goto("/groups")
    page.get_by_label("Name").fill("Prefill Weekend")
    page.get_by_label("Public address").fill(f"prefill-{unique}".lower())
    page.get_by_role("button", name="Make the group").click()
    for event in (f"Main Event {unique}", f"Startup Side {unique}"):
        page.get_by_label("Event", exact=True).select_option(label=page.locator("#tournament option", has_text=event)
                                                             .inner_text())
        page.get_by_role("button", name="Add", exact=True).click()
    group_url = page.locator("#group-url").inner_text()

    phone = new_context(viewport=PHONE_360, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()
    phone.goto(link)
    phone.goto(group_url)
    expect(phone.locator("#entry-list > li")).to_have_count(1)
    phone.locator("#group-events").get_by_role("link", name=f"Startup Side {unique}").click()
    expect(phone.locator("#prefilled")).to_be_visible()
    expect(phone.locator("#prefilled")).to_contain_text(f"Main Event {unique}")
    expect(phone.locator("#register-form [name=name]")).to_have_value("Ana Silva")
    expect(phone.locator("#register-form [name=corp_identity]")).to_have_value(FOUR[0][1])
    expect(phone.locator("#register-form [name=runner_identity]")).to_have_value(FOUR[0][2])
    expect(phone.locator("#register-form [name=pronouns]")).to_have_value("she/her")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
    phone.screenshot(path=str(screenshots / "groups_register_prefilled_360.png"), full_page=True)
    phone.locator("#register-form [name=pronouns]").fill("they/them")
    phone.get_by_role("button", name="Register").click()
    expect(phone.locator(".flash").first).to_contain_text("You are registered, Ana Silva")
    with live_server.app_context():
        entry = db.session.query(Player).filter_by(tournament_id=side.id, name="Ana Silva").one()
        assert (entry.corp_identity, entry.pronouns) == (FOUR[0][1], "they/them")
        db.session.remove()

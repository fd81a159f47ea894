"""A whole two-day Store Championship in real browsers: the TO on a 1280 px laptop, every player on their own
360 px phone holding their secret link. Cap 6 with a waitlist and a roll call (the default settings: no deadline,
no-shows dropped when round 1 is paired), 8 registrations (6 in, W1 and W2 waiting), a side event in the same group.

Day 1: the waiting phones read their place in line, never "dropped"; four players check in (two from their phones,
two ticked by the TO), W1 checks in while waiting, N1 and N2 never come; "Pair round 1" shows its plan (N1 and N2
dropped, W1 let in, W2 absent and skipped) and one confirm does it; the TO's clicks from doors open to round 1
published are counted. Round 1 is reported from the phones, one table by a game loss from the penalty form; in round
2 the TO disqualifies a player mid-round: their table is at once their loss, their phone offers nothing more, the
public sees them "dropped", last, and a second disqualification is refused. Day 2: a new roll call (no waitlist on
it), round 3, the top 4 cut, the eliminated phones' "place N of M", the NRTM file and the TO's "Did not play".
Screenshots: bench/out/weekend_*.png."""
from __future__ import annotations

import json
import re

import sqlalchemy as sa
from playwright.sync_api import expect

from app.extensions import db
from app.models import CheckInSettings, Match, Player, Round, Seat, Tournament
from app.services import groups
from app.services.players import player_links, registration
from tests.browser.test_cut_flow import play_game
from tests.browser.test_participation_flow import PHONE_360, games, no_sideways_scroll, to_row

LIVE = 15_000  # ms: an open page checks every few seconds
IN = ["Ana Silva", "Ben Okafor", "Cleo Marsh", "Dev Patel", "Nico Noshow", "Nadia Absent"]
N1, N2 = "Nico Noshow", "Nadia Absent"
W1, W2 = "Wren Waits", "Walt Later"
PHONE_CHECK_IN = ["Ana Silva", "Ben Okafor"]  # check in from their phones
DESK_CHECK_IN = ["Cleo Marsh", "Dev Patel"]  # ticked by the TO on the roll call page
DROPPED = re.compile(r"dropped", re.I)
NO_SHOW = "Dropped: you did not check in. See the organizer"
DISQUALIFIED = "Disqualified: see the head judge"
TO_CLICKS_TO_ROUND_ONE = 7  # roll call link, 2 ticks, back to the dashboard, "Pair round 1", confirm, publish


class Clicks:
    """The TO's clicks, counted."""

    def __init__(self):
        self.count = 0

    def __call__(self, locator) -> None:
        locator.click()
        self.count += 1


class Phones:
    """One 360 px phone (own browser context) per player, opened on their secret link the first time."""

    def __init__(self, new_context, links: dict[str, str]):
        self.new_context, self.links, self.pages = new_context, links, {}

    def __call__(self, name: str, reload: bool = True):
        page = self.pages.get(name)
        if page is None:
            page = self.pages[name] = self.new_context(**PHONE_360).new_page()
        elif not reload:
            return page
        page.goto(self.links[name])
        return page


def _setup(live, owner_id: int, unique: str) -> dict:
    """The main event (cap 6, waitlist, roll call before round 1 with the default settings), its 8 registrations
    through the registration service, a side event, and a group of both."""
    with live.app_context():
        t = Tournament(owner_id=owner_id, name=f"Store Championship {unique}", format="single",
                       registration_open=True, registration_cap=6, planned_rounds=3)
        side = Tournament(owner_id=owner_id, name=f"Startup Side {unique}", format="single", planned_rounds=2)
        db.session.add_all([t, side])
        db.session.flush()
        db.session.add(CheckInSettings(tournament_id=t.id, enabled=True, round=1, waitlist=True))  # default: drop
        db.session.add_all(Player(tournament_id=side.id, name=n) for n in ("Ana Silva", "Eve Stone", "Fay Lin"))
        db.session.commit()
        for name in IN + [W1, W2]:
            registration.register(t, name)
        players = db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id)).all()
        assert len(players) == 8
        links = {p.name: f"/t/{t.slug}/p/{player_links.token(p)}" for p in players}
        ids = {p.name: p.id for p in players}
        group = groups.create(owner_id, "Store Champs Weekend", f"scw-{unique}".lower()[:40].strip("-"))
        groups.add(group, t.id)
        groups.add(group, side.id)
        out = {"id": t.id, "slug": t.slug, "name": t.name, "side": side.name, "group": group.slug,
               "links": links, "ids": ids}
        db.session.remove()
    return out


def _bye(live, event_id: int, number: int):
    """The name of round `number`'s bye, or None."""
    with live.app_context():
        name = db.session.scalar(
            sa.select(Player.name).join(Seat, Seat.player_id == Player.id).join(Match, Match.id == Seat.match_id)
            .join(Round, Round.id == Match.round_id)
            .where(Round.tournament_id == event_id, Round.number == number, Match.is_bye.is_(True)))
        db.session.remove()
    return name


def _report_from_phones(phones: Phones, game: dict, result: str = "corp") -> None:
    """The Corp player reports from their phone and the Runner confirms from theirs."""
    corp, runner = game["corp"]["name"], game["runner"]["name"]
    reporter = phones(corp)
    expect(reporter.locator(".me-big")).to_have_text(f"Table {game['table']}")
    reporter.locator(f".me-buttons button[value={result}]").tap()
    expect(reporter.get_by_text(f"Waiting for {runner} to confirm")).to_be_visible()
    confirmer = phones(runner)
    expect(confirmer.locator(".me-status")).to_contain_text(f"{corp} reported")
    confirmer.locator(".me-confirm button").tap()
    expect(confirmer.locator(".me-result")).to_be_visible()
    expect(phones(corp).locator(".me-result")).to_be_visible()


def _waiting_phone(phones: Phones, slug: str, name: str, position: int, screenshots=None) -> None:
    """A waiting player's own page and the public page's "You:" line say their place in line, never dropped."""
    page = phones(name)
    expect(page.locator("#check-in")).to_contain_text(f"Waitlist position {position}")
    expect(page.locator("main")).not_to_contain_text(DROPPED)
    expect(page.locator("#me-drop")).not_to_contain_text("Drop from the event")
    expect(page.locator("#judge-call")).to_contain_text("while you wait on the waitlist")
    no_sideways_scroll(page)
    if screenshots:
        page.screenshot(path=str(screenshots / "weekend_waitlist_360.png"), full_page=True)
    page.goto(f"/t/{slug}")
    expect(page.locator(".you-banner")).to_contain_text(f"You: waitlist position {position}")
    expect(page.locator(".you-banner")).not_to_contain_text(DROPPED)
    no_sideways_scroll(page)


def test_a_two_day_store_championship(new_context, organizer, log_in, live_server, screenshots, unique):
    ev = _setup(live_server, organizer["id"], unique)
    tid, slug = ev["id"], ev["slug"]
    phones = Phones(new_context, ev["links"])

    # --- Before the doors open: the group page, the waiting phones ---------------------------------------------
    ana = phones("Ana Silva")
    ana.goto(f"/g/{ev['group']}")
    expect(ana.locator("#group-events li")).to_have_count(2)
    expect(ana.locator("#group-events")).to_contain_text(ev["name"])
    expect(ana.locator("#group-events")).to_contain_text(ev["side"])
    expect(ana.locator("#your-entries")).to_contain_text(ev["name"])
    no_sideways_scroll(ana)
    ana.screenshot(path=str(screenshots / "weekend_group_360.png"), full_page=True)
    _waiting_phone(phones, slug, W1, 1, screenshots)
    _waiting_phone(phones, slug, W2, 2)

    # --- Day 1, doors open: the roll call --------------------------------------------------------------------
    for name in PHONE_CHECK_IN:
        page = phones(name)
        page.get_by_role("button", name="I am here: check me in").tap()
        expect(page.locator("#check-in")).to_contain_text("Checked in for round 1")
        no_sideways_scroll(page)
    wren = phones(W1)
    wren.get_by_role("button", name="I am here: check me in").tap()  # W1 is at the venue, still waiting
    expect(wren.locator("#check-in")).to_contain_text("Checked in while you wait")
    expect(wren.locator("#check-in")).to_contain_text("Waitlist position 1")
    expect(wren.locator("main")).not_to_contain_text(DROPPED)
    for name in (N1, N2):  # they never come: their phones still ask them to check in
        expect(phones(name).locator("#check-in")).to_contain_text("Check in for round 1")

    desk = new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(desk, organizer["email"], organizer["password"])
    desk.goto(f"/tournaments/{tid}")
    click = Clicks()  # from here to round 1 published, every click the TO makes is counted
    click(desk.get_by_role("link", name="Roll call: 2 of 6 checked in"))
    counts = desk.locator("#check-in-counts")
    expect(counts).to_contain_text("2checked in")
    expect(counts).to_contain_text("4not yet")
    expect(counts).to_contain_text("2on the waitlist")
    expect(desk.locator("#waitlist-line li", has_text=W1)).to_contain_text("checked in ✓")
    expect(desk.locator("#waitlist-line li", has_text=W2)).not_to_contain_text("checked in")
    plan_line = desk.locator("#roll-call-plan")  # what pairing would do now, kept true as the TO ticks
    expect(plan_line).to_contain_text(f"Drops 4 not checked in: Cleo Marsh, Dev Patel, {N2}, {N1}")
    for name in DESK_CHECK_IN:
        click(desk.locator("#roll-call li", has_text=name).get_by_role("button"))
        expect(desk.locator("#roll-call li", has_text=name)).to_contain_text("checked in ✓")
    expect(counts).to_contain_text("4checked in")
    expect(counts).to_contain_text("2not yet")
    # A checked-in row is not itself a button: its only button is the separate undo.
    done = desk.locator("#roll-call li", has_text="Cleo Marsh")
    expect(done.get_by_role("button")).to_have_count(1)
    expect(done.get_by_role("button")).to_have_accessible_name("Undo Cleo Marsh's check-in")
    assert done.locator(".name").evaluate("el => el.closest('button') === null")
    expect(plan_line).to_have_text(f"Pairing round 1 now: Drops 2 not checked in: {N2}, {N1}; lets in 1 from the "
                                   f"waitlist: {W1}.")
    desk.screenshot(path=str(screenshots / "weekend_roll_call_1280.png"), full_page=True)
    # The staff ticks show on the players' phones.
    expect(phones("Cleo Marsh").locator("#check-in")).to_contain_text("The staff ticked you off")

    click(desk.locator(".crumbs").get_by_role("link", name=ev["name"]))
    click(desk.get_by_role("link", name="Pair round 1"))
    plan = desk.locator("#pairing-plan")
    expect(plan.locator("#plan-drops")).to_contain_text("Drops 2 not checked in:")
    expect(plan.locator("#plan-drops")).to_contain_text(N1)
    expect(plan.locator("#plan-drops")).to_contain_text(N2)
    expect(plan.locator("#plan-let-in")).to_contain_text(f"Lets in 1 from the waitlist: {W1}")
    expect(plan.locator("#plan-let-in")).not_to_contain_text(W2)
    expect(plan).not_to_contain_text("Ana Silva")
    desk.screenshot(path=str(screenshots / "weekend_pair_preview_1280.png"), full_page=True)
    click(plan.get_by_role("button", name="Drop 2, let in 1 and pair round 1"))
    expect(desk.get_by_text("Round 1 is paired")).to_be_visible()
    click(desk.get_by_role("button", name="Publish round 1"))
    expect(desk.locator("span.badge", has_text=re.compile(r"^published$"))).to_be_visible()
    assert click.count == TO_CLICKS_TO_ROUND_ONE, f"the TO needed {click.count} clicks to publish round 1"

    # --- Round 1 published: what each phone and the public pages say ------------------------------------------
    nico = phones(N1)
    expect(nico.locator("#me-dropped")).to_contain_text(NO_SHOW)
    expect(nico.locator(".me-buttons")).to_have_count(0)
    expect(nico.locator("#me-card")).not_to_contain_text("Waiting for pairings")  # round 1 is out: no table comes
    no_sideways_scroll(nico)
    nico.screenshot(path=str(screenshots / "weekend_no_show_360.png"), full_page=True)
    expect(phones(N2).locator("#me-dropped")).to_contain_text(NO_SHOW)
    round1 = games(live_server, tid, 1)
    bye1 = _bye(live_server, tid, 1)
    seated = {g[side]["name"]: g for g in round1 for side in ("corp", "runner")}
    assert sorted(list(seated) + [bye1]) == sorted(["Ana Silva", "Ben Okafor", "Cleo Marsh", "Dev Patel", W1])
    wren = phones(W1)
    expect(wren.locator("#me-dropped")).not_to_contain_text(DROPPED)
    if W1 == bye1:
        expect(wren.locator("#me-card")).to_contain_text("Bye")
    else:
        expect(wren.locator("#me-table")).to_have_text(f"Table {seated[W1]['table']}")
        opponent = next(g[s]["name"] for g in [seated[W1]] for s in ("corp", "runner") if g[s]["name"] != W1)
        expect(wren.locator(".me-vs")).to_contain_text(opponent)
    no_sideways_scroll(wren)
    wren.screenshot(path=str(screenshots / "weekend_let_in_360.png"), full_page=True)
    _waiting_phone(phones, slug, W2, 1)
    public = new_context(**PHONE_360).new_page()  # a stranger's phone
    public.goto(f"/t/{slug}/pairings")
    for name in seated:
        expect(public.locator("main")).to_contain_text(name)
    for name in (N1, N2, W2):
        expect(public.locator("main")).not_to_contain_text(name)
    no_sideways_scroll(public)
    public.screenshot(path=str(screenshots / "weekend_public_pairings_360.png"), full_page=True)

    # --- Round 1's results: one table from the phones, the other by a game loss --------------------------------
    reported, late = round1
    _report_from_phones(phones, reported, "corp")
    loser, winner = late["corp"]["name"], late["runner"]["name"]
    desk.goto(f"/tournaments/{tid}/rounds/1")
    desk.locator("#penalty-links").get_by_role("link", name="Record a penalty").click()
    desk.get_by_label("Player", exact=True).select_option(str(ev["ids"][loser]))
    expect(desk.get_by_label("Round", exact=True)).to_have_value("1")
    desk.get_by_label("Infraction").select_option("tardiness")
    desk.get_by_label("Game loss").check()
    desk.get_by_label("Notes").fill("Arrived 15 minutes after the round began.")
    desk.get_by_role("button", name="Record the penalty").click()
    expect(desk.locator(".flash")).to_contain_text(f"Game loss for {loser} recorded; round 1's result is now "
                                                   "Runner win")
    desk.goto(f"/tournaments/{tid}/rounds/1")
    expect(desk.locator(to_row(late)).locator("[data-result]")).to_have_text("Runner win")
    expect(desk.locator(to_row(reported)).locator("[data-result]")).to_have_text("Corp win")
    desk.screenshot(path=str(screenshots / "weekend_game_loss_1280.png"), full_page=True)
    expect(phones(winner).locator(".me-result")).to_contain_text(re.compile("won", re.I))
    expect(phones(loser).locator(".me-result")).to_contain_text(re.compile("lost", re.I))

    # --- Round 2, and a disqualification in the middle of it ---------------------------------------------------
    desk.get_by_role("button", name="Pair round 2").click()
    expect(desk.get_by_text("Round 2 is paired")).to_be_visible()
    desk.get_by_role("button", name="Publish round 2").click()
    expect(desk.locator("#round-actions")).not_to_contain_text("Publish round 2")
    round2 = games(live_server, tid, 2)
    assert len(round2) == 2
    cheat_table, other_table = round2
    cheat, victim = cheat_table["corp"]["name"], cheat_table["runner"]["name"]
    cheater = phones(cheat)
    expect(cheater.locator(".me-buttons button")).not_to_have_count(0)  # before: they can report
    expect(cheater.get_by_role("button", name="Call a judge")).to_be_visible()
    desk.goto(f"/tournaments/{tid}/penalties/new?round=2")
    desk.get_by_label("Player", exact=True).select_option(str(ev["ids"][cheat]))
    expect(desk.get_by_label("Round", exact=True)).to_have_value("2")
    desk.get_by_label("Infraction").select_option("cheating")
    desk.get_by_label("Disqualification").check()
    desk.get_by_label("Notes").fill("Stacked the deck during the shuffle.")
    desk.get_by_role("button", name="Record the penalty").click()
    expect(desk.locator(".flash")).to_contain_text(f"Disqualification for {cheat} recorded; round 2's result is "
                                                   f"now Runner win; {cheat} is dropped")
    desk.goto(f"/tournaments/{tid}/rounds/2")
    expect(desk.locator(to_row(cheat_table)).locator("[data-result]")).to_have_text("Runner win")
    expect(desk.locator(to_row(other_table)).locator("[data-result]")).to_have_text("no result")
    desk.screenshot(path=str(screenshots / "weekend_disqualified_round_1280.png"), full_page=True)
    cheater = phones(cheat)
    expect(cheater.locator("#me-dropped")).to_contain_text(DISQUALIFIED)
    expect(cheater.locator(".me-buttons")).to_have_count(0)
    expect(cheater.locator(".me-confirm")).to_have_count(0)
    expect(cheater.locator("#me-drop")).not_to_contain_text("Drop from the event")
    expect(cheater.get_by_role("button", name="Call a judge")).to_have_count(0)
    expect(cheater.locator(".me-result")).to_contain_text(re.compile("lost", re.I))
    no_sideways_scroll(cheater)
    cheater.screenshot(path=str(screenshots / "weekend_disqualified_360.png"), full_page=True)
    expect(phones(victim).locator(".me-result")).to_contain_text(re.compile("won", re.I))
    # The public standings: the disqualified player reads "dropped", after everyone who played.
    public.goto(f"/t/{slug}/standings")
    rows = public.locator("#standings-rows tr")
    expect(rows).to_have_count(5)
    expect(rows.last).to_contain_text(cheat)
    expect(rows.last.locator(".badge")).to_have_text("dropped")
    expect(public.locator("main")).not_to_contain_text(DISQUALIFIED)
    expect(public.locator("main")).not_to_contain_text(re.compile("disqualif", re.I))
    for name in (N1, N2, W2):
        expect(public.locator("main")).not_to_contain_text(name)
    no_sideways_scroll(public)
    public.screenshot(path=str(screenshots / "weekend_public_standings_360.png"), full_page=True)
    # A second disqualification is refused.
    desk.goto(f"/tournaments/{tid}/penalties/new?round=2")
    desk.get_by_label("Player", exact=True).select_option(str(ev["ids"][cheat]))
    desk.get_by_label("Infraction").select_option("cheating")
    desk.get_by_label("Disqualification").check()
    desk.get_by_role("button", name="Record the penalty").click()
    expect(desk.locator("form.penalty-form")).to_contain_text("disqualified already")
    _report_from_phones(phones, other_table, "runner")

    # --- Day 2: a new roll call (the waitlist stays off it), round 3 ------------------------------------------
    desk.goto(f"/tournaments/{tid}/check-in")
    desk.get_by_role("button", name="Start a roll call before round 3").click()
    expect(desk.locator("h1")).to_contain_text("before round 3")
    remaining = sorted(n for n in ["Ana Silva", "Ben Okafor", "Cleo Marsh", "Dev Patel", W1] if n != cheat)
    expect(desk.locator("#roll-call li")).to_have_count(4)
    for name in remaining:
        expect(desk.locator("#roll-call")).to_contain_text(name)
    expect(desk.locator("#waitlist-line")).to_have_count(0)
    expect(desk.locator("main")).not_to_contain_text(W2)
    expect(phones(remaining[0]).locator("#check-in")).to_contain_text("Check in for round 3")
    for name in remaining:
        desk.locator("#roll-call li", has_text=name).get_by_role("button").click()
        expect(desk.locator("#roll-call li", has_text=name)).to_contain_text("checked in ✓")
    desk.screenshot(path=str(screenshots / "weekend_day2_roll_call_1280.png"), full_page=True)
    _waiting_phone(phones, slug, W2, 1)
    desk.goto(f"/tournaments/{tid}")
    desk.get_by_role("button", name="Pair round 3").click()  # everyone here: one click, no plan
    expect(desk.get_by_text("Round 3 is paired")).to_be_visible()
    desk.get_by_role("button", name="Publish round 3").click()
    expect(desk.locator("#round-actions")).not_to_contain_text("Publish round 3")
    round3 = games(live_server, tid, 3)
    cheater = phones(cheat)  # not paired again, and not told to wait for a table
    expect(cheater.locator("#me-dropped")).to_contain_text(DISQUALIFIED)
    expect(cheater.locator("#me-card")).not_to_contain_text("Waiting for pairings")
    expect(cheater.locator(".me-buttons")).to_have_count(0)
    assert sorted(g[s]["name"] for g in round3 for s in ("corp", "runner")) == remaining
    for game in round3:
        _report_from_phones(phones, game, "corp")

    # --- The cut ------------------------------------------------------------------------------------------
    desk.goto(f"/tournaments/{tid}")
    desk.get_by_role("link", name="Top cut").first.click()
    expect(desk.locator("main")).not_to_contain_text(cheat)  # not offered a seed
    desk.get_by_label("Bracket").select_option("double")
    desk.get_by_label("Cut to the top").select_option("4")
    desk.get_by_role("button", name="Create the cut").click()
    expect(desk.get_by_text("Top 4 cut created.")).to_be_visible()
    seeds = desk.locator("#game-1 .cut-player .name").all_inner_texts() + \
        desk.locator("#game-2 .cut-player .name").all_inner_texts()
    assert sorted(seeds) == remaining
    first = phones(seeds[0])
    expect(first.locator(".me-cut")).to_contain_text("Top 4 · game 1")
    expect(first.locator(".me-vs")).to_contain_text(seeds[1])
    no_sideways_scroll(first)
    first.screenshot(path=str(screenshots / "weekend_cut_player_360.png"), full_page=True)
    desk.screenshot(path=str(screenshots / "weekend_cut_1280.png"), full_page=True)
    for game in (1, 2, 3):
        play_game(desk, game, 0)
    _, fourth = play_game(desk, 4, 0)  # the lower bracket's first game: its loser is out, 4th
    _, third = play_game(desk, 5, 0)  # the loser of the winners' final against it: out, 3rd
    for name, place in ((fourth, "4th"), (third, "3rd")):
        phone = phones(name)
        expect(phone.locator(".me-place")).to_contain_text(f"{place} place")
        # "of 4": the players holding a placing (who played and are not disqualified): not N1, N2, W2, the DQ
        expect(phone.locator(".me-place")).to_contain_text(f"{place} of 4: you made the top 4 as seed")
        no_sideways_scroll(phone)
    eliminated = phones(fourth)
    eliminated.screenshot(path=str(screenshots / "weekend_eliminated_360.png"), full_page=True)
    eliminated.goto(f"/t/{slug}")
    expect(eliminated.locator(".you-banner")).to_contain_text("You: place 4 of 4")
    cheater = phones(cheat)
    expect(cheater.locator("#me-dropped")).to_contain_text(DISQUALIFIED)
    expect(cheater.locator("#me-card")).not_to_contain_text(" of ")
    expect(phones(N1).locator("#me-dropped")).to_contain_text(NO_SHOW)
    expect(phones(N1).locator("#me-card")).not_to_contain_text(" of ")

    # --- The NRTM file and the TO's standings ---------------------------------------------------------------
    desk.goto(f"/tournaments/{tid}")
    with desk.expect_download() as info:
        desk.get_by_role("link", name="NRTM JSON").click()
    nrtm = json.loads(open(info.value.path(), encoding="utf-8").read())
    names = [p["name"] for p in sorted(nrtm["players"], key=lambda p: p["rank"])]
    assert sorted(names) == sorted(remaining + [cheat])
    assert names[-1] == cheat
    for name in (N1, N2, W2):
        assert name not in json.dumps(nrtm)
    desk.goto(f"/tournaments/{tid}/standings")
    dnp = desk.locator("ul.did-not-play")
    expect(desk.locator("#did-not-play")).to_have_text("Did not play")
    expect(dnp.locator("li")).to_have_count(2)
    expect(dnp.locator("li", has_text=N1)).to_contain_text("no-show")
    expect(dnp.locator("li", has_text=N2)).to_contain_text("no-show")
    desk.screenshot(path=str(screenshots / "weekend_to_standings_1280.png"), full_page=True)

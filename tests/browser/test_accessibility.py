"""The WCAG scan: axe-core (bundled by axe-playwright-python, run inside Debian's Chromium, nothing fetched) checks
the WCAG 2.0/2.1 A and AA rules on every page a TO, staff member or player uses, at 360 px and at 1280 px, on one
online event scanned as it goes: round 3 under way (result buttons, an open judge call), the top-4 cut in progress,
then the event over (ABR panel and history, decklists, staff, an entry linked to NetrunnerDB). One browser, the
pages reused at both widths. Zero violations, or the assertion lists each rule, impact and node."""
from __future__ import annotations

from datetime import timedelta

from pathlib import Path

import axe_playwright_python
from playwright.sync_api import expect

from app.extensions import db
from app.models import AbrUpload, CheckInSettings, EventGroup, EventGroupMember, Player, Staff, Tournament, User, utcnow
from app.services import cut, decklists, judge_calls, streaming
from app.services.players import player_links, registration
from app.services.check_in import roll_call
from app.services.nrdb import accounts
from app.services.schedule import plan as schedule_plan
from app.services.penalties import deck_checks as penalty_checks
from app.services.penalties import record as penalty_record
from app.core.deck_checks import Pool
from app.core.penalties import Infraction, Kind
from tests.browser.conftest import PASSWORD, SeededEvent
from cut_helpers import play_cut
from tests.browser.test_decklists_flow import CORP, RUNNER

# axe-core as axe-playwright-python bundles it, added to each context once: its Axe().run sends the 570 kB script
# through Playwright's pipe again before every scan.
AXE_JS = Path(axe_playwright_python.__file__).with_name("axe.min.js")
WIDTHS = {"360": {"width": 360, "height": 780}, "1280": {"width": 1280, "height": 900}}
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
         "resultTypes": ["violations"]}
NAMES = [("Zoë Kovač", "zoekov"), ("Grace Hopper", "gracehopper"), ("Ada Lovelace", "ada_l"),
         ("Alan Turing", "turing42"), ("Edsger Dijkstra", "ewd"), ("Barbara Liskov", "liskov"),
         ("Donald Knuth", "tex"), ("Frances Allen", "fran")]


def _event(live, owner_id: int, unique: str) -> tuple[dict, SeededEvent]:
    """An online event with lists, a scorekeeper, a judge call, an entry linked to NetrunnerDB, two reported swiss
    rounds and the third paired (results still to come)."""
    with live.app_context():
        t = Tournament(owner_id=owner_id, name=f"Axe Open {unique}", format="single", online=True,
                       planned_rounds=3, decklists=True)
        db.session.add(t)
        db.session.flush()
        db.session.add_all(Player(tournament_id=t.id, name=n, jinteki_name=j, corp_identity="", runner_identity="")
                           for n, j in NAMES)
        keeper = User(email=f"axe-keeper-{unique}@example.com", display_name="Sam Keeper")
        keeper.set_password(PASSWORD)
        db.session.add(keeper)
        db.session.flush()
        db.session.add(Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"))
        db.session.commit()
        players = db.session.query(Player).filter_by(tournament_id=t.id).order_by(Player.id).all()
        for p in players[:-1]:
            decklists.submit(t, p, "corp", CORP, "player")
            decklists.submit(t, p, "runner", RUNNER, "player")
        zoe = players[0]
        account = accounts.signed_in(70000 + t.id, "zoe_runs")
        accounts.link(t, zoe, account.id)
        ids = {"tid": t.id, "slug": t.slug, "token": player_links.token(zoe), "zoe": zoe.id,
               "keeper": keeper.email}
        db.session.commit()
        db.session.remove()
    event = SeededEvent(live, ids["tid"], ids["slug"])
    event.pair(1)
    with live.app_context():
        t = db.session.get(Tournament, ids["tid"])
        judge_calls.call(t, db.session.get(Player, ids["zoe"]), "Timing question", timedelta(0))
        db.session.commit()
        keeper = db.session.query(User).filter_by(email=ids["keeper"]).one()  # a penalty and a deck check
        penalty_record.record(t, keeper, ids["zoe"], 1, Infraction.SLOW_PLAY, Kind.WARNING, "Reminded twice.")
        mistake = penalty_record.record(t, keeper, ids["zoe"], 1, Infraction.TARDINESS, Kind.WARNING)
        penalty_record.void(t, keeper, mistake.id, "Recorded against the wrong player")  # the log strikes it
        draw = penalty_checks.draw(t, keeper, 2, Pool.FIELD)
        penalty_checks.mark(t, keeper, draw.picked[0], draw.id)
        db.session.remove()
    event.report(1)
    event.pair(2)
    event.report(2)
    event.pair(3)
    return ids, event


def _to_the_cut(live, event: SeededEvent, owner_id: int) -> None:
    """Round 3's results, a top-4 cut with its first game played, and an upload ABR concluded."""
    event.report(3)
    with live.app_context():
        t = db.session.get(Tournament, event.id)
        cut.create(t, 4, "single")
        first = cut.load(t).bracket.ready_games()[0]
        cut.set_corp(t, first.id, first.higher_seed)
        cut.report(t, first.id, first.higher_seed)
        # A concluded upload (never queued: nothing here may reach a sender), as ABR's answer leaves it.
        db.session.add(AbrUpload(tournament_id=t.id, digest="0" * 64, body="{}", version=1, state="sent",
                                 attempts=1, code="ABCD1234", abr_url="http://127.0.0.1:9/tournaments/1",
                                 queued_by_id=owner_id, sent_at=utcnow()))
        db.session.commit()
        db.session.remove()


def _schedule(live, tid: int) -> None:
    """The standard day, in Berlin's time (the schedule's pages and the "Next:" lines)."""
    with live.app_context():
        t = db.session.get(Tournament, tid)
        template = schedule_plan.standard_day(t)
        schedule_plan.save(t, "Europe/Berlin", list(template.days), list(template.items))
        db.session.remove()


def _group(live, owner_id: int, tid: int, unique: str) -> tuple[int, str]:
    """The event in an event group of its owner's, with a featured table in round 3 (groups, streaming)."""
    with live.app_context():
        group = EventGroup(owner_id=owner_id, name=f"Axe Weekend {unique}", slug=f"axe-{unique}".lower())
        db.session.add(group)
        db.session.flush()
        db.session.add(EventGroupMember(group_id=group.id, tournament_id=tid, position=0))
        db.session.get(Tournament, tid).stream_url = "https://twitch.tv/axe"
        db.session.commit()
        streaming.feature(db.session.get(Tournament, tid), 3, 1)
        ids = (group.id, group.slug)
        db.session.remove()
    return ids


def _check_in_event(live, owner_id: int, unique: str) -> list[str]:
    """Before round 1 with a roll call running and a waitlist: the roll call page, a phone that may check in and a
    waitlisted one (app/services/check_in/)."""
    with live.app_context():
        t = Tournament(owner_id=owner_id, name=f"Axe Check-in {unique}", format="single", registration_open=True,
                       registration_cap=2)
        db.session.add(t)
        db.session.flush()
        db.session.add(CheckInSettings(tournament_id=t.id, enabled=True, round=1, no_shows="drop", waitlist=True))
        db.session.commit()
        first, second, waiting = (registration.register(t, n) for n in ("Ada Lovelace", "Alan Turing", "Zoë Kovač"))
        roll_call.check_in(t, second, by_staff=True)
        paths = [f"/tournaments/{t.id}/check-in", f"/t/{t.slug}/p/{player_links.token(first)}",
                 f"/t/{t.slug}/p/{player_links.token(waiting)}"]
        db.session.remove()
    return paths


def _scan(page, path: str, width: str) -> list[str]:
    """Open `path` (it must answer 200) and list axe's violations there, one line per rule."""
    response = page.goto(path)
    assert response is not None and response.status == 200, f"{path}: {response and response.status}"
    lines = []
    for v in page.evaluate("rules => axe.run(document, rules).then(results => results.violations)", RULES):
        targets = "; ".join(" ".join(n["target"]) for n in v["nodes"][:6])
        lines.append(f"{width} px {path}: {v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {targets}")
    return lines


def test_no_wcag_violations_at_360_and_1280_px(new_context, live_server, organizer, log_in, unique, screenshots):
    config = live_server.app.config
    before = {k: config[k] for k in ("NRDB_URL", "NRDB_CLIENT_ID", "NRDB_CLIENT_SECRET", "PUBLIC_URL", "ABR_USER",
                                     "ABR_PASSWORD")}
    # A NetrunnerDB client (never called here: the history page reads this server's own records), at a public
    # address, where its pages are offered (app/core/nrdb_sign_in.py); pages are opened by their paths.
    config.update(NRDB_URL="http://127.0.0.1:9", NRDB_CLIENT_ID="axe", NRDB_CLIENT_SECRET="axe",
                  PUBLIC_URL="https://sass.example.org")
    # an ABR upload login, so the ABR panel shows its send button beside the download (app/services/abr/)
    config.update(ABR_USER="axe", ABR_PASSWORD="axe")
    try:
        ids, event = _event(live_server, organizer["id"], unique)
        tid, slug, token = ids["tid"], ids["slug"], ids["token"]
        gid, gslug = _group(live_server, organizer["id"], tid, unique)
        pages = {}
        for who, email in (("to", organizer["email"]), ("keeper", ids["keeper"]), ("public", None)):
            context = new_context(viewport=WIDTHS["1280"])
            context.add_init_script(path=AXE_JS)
            pages[who] = context.new_page()
            if email:
                log_in(pages[who], email, PASSWORD)
        found: list[str] = []

        def scan(paths: dict) -> None:
            for width, viewport in WIDTHS.items():
                for who, page in pages.items():
                    page.set_viewport_size(viewport)
                    for path in paths.get(who, ()):
                        found.extend(_scan(page, path, width))

        _schedule(live_server, tid)
        # Round 3 under way: result buttons, the judge-call panel, the player's table; the schedule's pages.
        scan({"to": [f"/tournaments/{tid}", f"/tournaments/{tid}/rounds/3", f"/tournaments/{tid}/schedule"],
              "keeper": [f"/tournaments/{tid}/rounds/3"],
              "public": [f"/t/{slug}/p/{token}", f"/t/{slug}/pairings", f"/t/{slug}", f"/t/{slug}/schedule"]})
        # Another event's roll call: its page, a phone that may check in and a waitlisted one.
        roll_call_page, may_check_in, waitlisted = _check_in_event(live_server, organizer["id"], unique)
        scan({"to": [roll_call_page], "public": [may_check_in, waitlisted]})
        _to_the_cut(live_server, event, organizer["id"])
        scan({"to": [f"/tournaments/{tid}/cut"]})  # the cut in progress: side choices and result buttons
        with live_server.app_context():  # the cut to its end: the event is over and ABR's button shows
            play_cut(db.session.get(Tournament, tid), lambda game: game.higher_seed)
            db.session.remove()
        scan({
            "to": [f"/tournaments/{tid}", f"/tournaments/{tid}/edit", f"/tournaments/{tid}/players",
                   f"/tournaments/{tid}/players/import", f"/tournaments/{tid}/rounds/3",
                   f"/tournaments/{tid}/rounds/3/slips", f"/tournaments/{tid}/cut", f"/tournaments/{tid}/staff",
                   f"/tournaments/{tid}/decklists", f"/tournaments/{tid}/abr", "/groups", f"/groups/{gid}"],
            "keeper": [f"/tournaments/{tid}/judge-calls", f"/tournaments/{tid}/penalties",
                       f"/tournaments/{tid}/penalties/new", f"/tournaments/{tid}/deck-checks"],
            "public": [f"/t/{slug}", f"/t/{slug}/pairings", f"/t/{slug}/standings", f"/t/{slug}/report",
                       f"/t/{slug}/p/{token}", f"/t/{slug}/p/{token}/decklists", f"/t/{slug}/p/{token}/history",
                       f"/g/{gslug}"],
        })
        # A series holding the event (app/web/views/series.py): the managers' pages and the public ones.
        with live_server.app_context():
            from app.services.series import manage as series_manage
            from app.services.series import standings as series_standings

            owner = db.session.get(User, organizer["id"])
            league = series_manage.create(owner, series_manage.Settings(
                name=f"Axe League {unique}", kind="league", points_table="1st 10, 2nd 8, 3rd-4th 6",
                participation="1", tiers="Store: 1, Regional: 2", invite_top=2))
            series_manage.add_event(league, db.session.get(Tournament, tid), "Regional")
            sid, series_slug = league.id, league.slug
            key = series_standings.table(league).lines[0].key
            db.session.remove()
        from app.services.series import people as series_people
        per_page = series_people.PER_PAGE
        series_people.PER_PAGE = 2  # the players page's pagers and its search's answer, with this event's few players
        try:
            scan({"to": ["/series", "/series/new", f"/series/{sid}", f"/series/{sid}/edit", f"/series/{sid}/players",
                         f"/series/{sid}/players?page=2", f"/series/{sid}/players?q=a", f"/series/{sid}/staff"],
                  "public": [f"/s/{series_slug}", f"/s/{series_slug}/players/{key}", f"/t/{slug}"]})
        finally:
            series_people.PER_PAGE = per_page
        pages["to"].goto(f"/tournaments/{tid}")
        # The scanned dashboard had the ABR panel with its button (the event is over).
        expect(pages["to"].locator("#abr-send")).to_be_visible()
        # The CSV sample scrolls sideways on a phone and takes the keyboard's focus to do it.
        to = pages["to"]
        to.set_viewport_size(WIDTHS["360"])
        to.goto(f"/tournaments/{tid}/players/import")
        to.locator("pre.sample").focus()
        to.keyboard.press("ArrowRight")
        # the key scrolls it, smoothly: wait for the scroll to begin rather than read it at once (a busy machine)
        to.wait_for_function("() => document.querySelector('pre.sample').scrollLeft > 0", timeout=5000)
        to.screenshot(path=str(screenshots / "a11y_import_sample_360.png"))
        assert not found, "WCAG 2.0/2.1 A and AA violations:\n" + "\n".join(found)
    finally:
        config.update(before)

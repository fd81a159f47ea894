"""Browser tests: the real app on a loopback port, driven by Playwright with Debian's Chromium.

Each pytest worker gets its own server (a free port chosen by the OS) and its own SQLite file built by the
migrations, so workers never share state. The rule (docs/development.md, "Running the tests"): browser tests run
once, on SQLite, with or without TEST_DATABASE_URL; the services' and request tests run on both databases. One
Chromium and one served app a worker, for every test; state is built through the services, and waits are on
conditions (expect, a response, page.clock to a page's next poll), never fixed sleeps.
Every test fails if the server raised an exception or answered 5xx, or a page threw a JavaScript error.
"""
from __future__ import annotations

import csv
import itertools
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask, got_request_exception
from flask_migrate import upgrade
from werkzeug.serving import make_server

from app import create_app
from app.core import results
from app.extensions import db
from app.models import Match, Player, Round, Seat, Tournament, User
from app.services.swiss import rounds as service
from app.services.results import match_results

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]
HERE = Path(__file__).resolve().parent
SCREENSHOTS = HERE.parent.parent / "bench" / "out"
PLAYERS_CSV = HERE.parent / "fixtures" / "players12.csv"
PASSWORD = "correct horse battery"
PHONE = {"width": 390, "height": 844}
VIEWPORTS = {360: {"width": 360, "height": 780}, 1280: {"width": 1280, "height": 900}}


def pytest_collection_modifyitems(config, items):
    """Every test in this folder is a browser test, skipped (with the reason) where Chromium is missing."""
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) "
                                   "to run the browser tests")
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
            if not os.path.exists(CHROMIUM):
                item.add_marker(skip)


@dataclass
class LiveServer:
    url: str
    app: Flask
    errors: list = field(default_factory=list)  # exceptions raised inside requests

    def app_context(self):
        return self.app.app_context()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    db_file = tmp_path_factory.mktemp("browser-db") / "live.db"
    # Throttling off: every test logs in from 127.0.0.1 (tests/web/test_throttle.py covers the limits).
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{db_file}", "SECRET_KEY": "browser-tests",
                      "TESTING": False, "RATELIMIT_ENABLED": False,
                      "PAGE_CACHE_DIR": str(tmp_path_factory.mktemp("pages"))})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request in failure reports
    server = make_server("127.0.0.1", 0, app, threaded=True)
    live = LiveServer(url=f"http://127.0.0.1:{server.server_port}", app=app)

    def record(sender, exception, **extra):
        live.errors.append(repr(exception))

    got_request_exception.connect(record, app, weak=False)
    # a short poll: shutting down waits for the next one (0.5 s by default, paid by every test that serves)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="live-server",
                              daemon=True)
    thread.start()
    yield live
    server.shutdown()
    thread.join(timeout=10)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import expect, sync_playwright

    # An assertion waits as long as an action does: on a loaded 2-core CI machine a POST's answer can take more
    # than expect's default 5 s.
    expect.set_options(timeout=15_000)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


class PageWatch:
    """Server errors, 5xx answers, JavaScript errors and Content-Security-Policy refusals (an inline script or
    style the policy in app/web/headers.py blocked) seen by one browser context."""

    def __init__(self, live: LiveServer):
        self.live = live
        self.before = len(live.errors)
        self.problems: list[str] = []

    def attach(self, context):
        def response(r):
            if r.status >= 500:
                self.problems.append(f"{r.status} {r.url}")

        def console(message):
            if message.type == "error" and "Content Security Policy" in message.text:
                self.problems.append(f"CSP: {message.text}")

        def page(p):
            p.on("pageerror", lambda e: self.problems.append(f"JS error: {e}"))
            p.on("console", console)

        context.on("response", response)
        context.on("page", page)

    def check(self):
        problems = self.problems + self.live.errors[self.before:]
        assert not problems, "the app failed during the test:\n" + "\n".join(problems)


@pytest.fixture
def page_watch(live_server):
    """page_watch() -> a PageWatch that nothing checks for you (for tests that provoke a problem on purpose)."""
    return lambda: PageWatch(live_server)


@pytest.fixture
def new_context(browser, live_server):
    """new_context(**options) -> a fresh browser context on the live server (own cookies), checked at teardown."""
    contexts, watches = [], []

    def make(**options):
        options.setdefault("viewport", {"width": 1280, "height": 900})
        context = browser.new_context(base_url=live_server.url, accept_downloads=True, **options)
        context.set_default_timeout(15_000)
        watch = PageWatch(live_server)
        watch.attach(context)
        contexts.append(context)
        watches.append(watch)
        return context

    yield make
    for context in contexts:
        context.close()
    for watch in watches:
        watch.check()


PUBLIC_NAME = "sass.example.org"  # a public-looking name for the live server (NetrunnerDB's sign-in needs one)


@pytest.fixture(scope="session")
def mapped_browser(browser):
    """A second Chromium, one per worker, that resolves PUBLIC_NAME to 127.0.0.1."""
    mapped = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=[
        *CHROMIUM_ARGS, f"--host-resolver-rules=MAP {PUBLIC_NAME} 127.0.0.1"])
    yield mapped
    mapped.close()


@pytest.fixture
def public_context(mapped_browser, live_server):
    """public_context(**options) -> a browser context that reaches the live server by a public name
    (http://sass.example.org:<port>, which this Chromium alone resolves to 127.0.0.1), with PUBLIC_URL set to it for
    the test: the NetrunnerDB sign-in is offered only at such an address (app/core/nrdb_sign_in.py)."""
    port = live_server.url.rsplit(":", 1)[1]
    public = f"http://{PUBLIC_NAME}:{port}"
    config = live_server.app.config
    before = config["PUBLIC_URL"]
    config["PUBLIC_URL"] = public
    contexts, watches = [], []

    def make(**options):
        options.setdefault("viewport", {"width": 1280, "height": 900})
        context = mapped_browser.new_context(base_url=public, **options)
        context.set_default_timeout(15_000)
        watch = PageWatch(live_server)
        watch.attach(context)
        contexts.append(context)
        watches.append(watch)
        return context

    make.url = public
    try:
        yield make
    finally:
        config["PUBLIC_URL"] = before
        for context in contexts:
            context.close()
    for watch in watches:
        watch.check()


@pytest.fixture
def page(new_context):
    """A desktop-sized page for the organizer."""
    return new_context().new_page()


@pytest.fixture
def phone(new_context):
    """A 390x844 touch phone (the viewport meta tag applies, as on a real phone)."""
    return new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()


def no_sideways_scroll(page) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner + 1, f"the page is {width} px wide in a {inner} px window"


def at_both_widths(page, shots: Path, name: str, check=None, *, part: str | None = None, full_page: bool = True):
    """The screen as it is now, at the page's own width (360 or 1280) and then at the other, without replaying the
    flow that led to it: no sideways scroll, `check(page, width)` for what the test asserts differs by width, and a
    screenshot each (`name` with `{width}` in it, else `name_<width>.png`; `part`: of that element only). The page
    is left at its own width."""
    own = page.viewport_size
    first = 360 if own["width"] < 800 else 1280
    try:
        for width in (first, 1640 - first):
            if width != first:
                page.set_viewport_size(VIEWPORTS[width])
            no_sideways_scroll(page)
            if check is not None:
                check(page, width)
            stem = name.format(width=width) if "{width}" in name else f"{name}_{width}"
            path = str(shots / f"{stem}.png")
            if part:
                page.locator(part).screenshot(path=path)
            else:
                page.screenshot(path=path, full_page=full_page)
    finally:
        page.set_viewport_size(own)


@pytest.fixture(scope="session")
def players_csv() -> Path:
    """The 12-player list the organizer imports (name, corp identity, runner identity; a header row)."""
    return PLAYERS_CSV


@pytest.fixture(scope="session")
def roster() -> list[tuple[str, str, str]]:
    """(name, corp identity, runner identity) of the 12 players in players12.csv."""
    with PLAYERS_CSV.open(newline="", encoding="utf-8") as f:
        return [(row["name"], row["corp identity"], row["runner identity"]) for row in csv.DictReader(f)]


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


_SERIAL = itertools.count(1)


@pytest.fixture
def unique() -> str:
    """A short tag unique to this test in the shared database: worker and serial number."""
    return f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}-{next(_SERIAL)}"


@pytest.fixture
def organizer(live_server, unique):
    """An organizer account made through the models (the sign-up form has its own test)."""
    email = f"to-{unique}@example.com"
    with live_server.app_context():
        user = User(email=email)
        user.set_password(PASSWORD)
        db.session.add(user)
        db.session.commit()
        user_id = user.id
        db.session.remove()
    return {"email": email, "password": PASSWORD, "id": user_id}


@pytest.fixture
def log_in():
    """log_in(page, email, password) through the real login form."""
    def do(page, email: str, password: str = PASSWORD) -> None:
        page.goto("/login")
        page.get_by_label("Email").fill(email)
        page.get_by_label("Password").fill(password)
        page.locator("main form").get_by_role("button", name="Log in").click()
        page.wait_for_url("**/tournaments")

    return do


def default_result(rnd: int, table: int) -> str:
    """Corp wins, Runner wins and ties in turn."""
    return ("corp", "runner", "tie")[(rnd + table) % 3]


class SeededEvent:
    """A single-sided event in the live server's database, run through the rounds service (the TO's code
    path, no browser): the real engine pairs, results go in as the one-tap buttons store them."""

    def __init__(self, live: LiveServer, tid: int, slug: str):
        self.live, self.id, self.slug = live, tid, slug

    def _t(self):
        return db.session.get(Tournament, self.id)

    def pair(self, number: int) -> None:
        """Pair round `number` and publish it."""
        with self.live.app_context():
            t = self._t()
            service.pair_next_round(t, number)
            service.publish_round(t, number)
            db.session.remove()

    def report(self, number: int, result=default_result) -> None:
        """`result(round, table) -> button key` for every unreported table of the round."""
        with self.live.app_context():
            t = self._t()
            for match in service.load_round(t, number).matches:
                if match.result is None:
                    match_results.report_result(t, match.id, results.outcome(t.fmt, result(number, match.table)),
                                          match_results.Actor("organizer"))
            db.session.remove()

    def tables(self, number: int) -> dict[str, int]:
        """Player name -> table number in round `number`."""
        with self.live.app_context():
            rows = db.session.execute(
                sa.select(Player.name, Match.table).join(Seat, Seat.player_id == Player.id)
                .join(Match, Match.id == Seat.match_id).join(Round, Round.id == Match.round_id)
                .where(Round.tournament_id == self.id, Round.number == number)).all()
            db.session.remove()
        return dict(rows)

    def points(self) -> dict[str, int]:
        """Each player's points summed straight from the seats (independent of the standings code)."""
        query = (sa.select(Player.name, sa.func.coalesce(sa.func.sum(Seat.points), 0))
                 .outerjoin(Seat, Seat.player_id == Player.id)
                 .where(Player.tournament_id == self.id).group_by(Player.id, Player.name))
        with self.live.app_context():
            rows = db.session.execute(query).all()
            db.session.remove()
        return {name: int(points) for name, points in rows}


@pytest.fixture
def seed_swiss(live_server):
    """seed_swiss(owner_id, players, rounds) -> SeededEvent with `rounds` rounds paired, published and
    reported; `players` are (name, corp identity, runner identity) tuples."""

    def seed(owner_id: int, players, rounds: int, name="Store Championship", planned=None) -> SeededEvent:
        with live_server.app_context():
            t = Tournament(owner_id=owner_id, name=name, format="single", planned_rounds=planned or rounds)
            db.session.add(t)
            db.session.commit()
            db.session.add_all(Player(tournament_id=t.id, name=n, corp_identity=corp, runner_identity=runner)
                               for n, corp, runner in players)
            db.session.commit()
            event = SeededEvent(live_server, t.id, t.slug)
            db.session.remove()
        for number in range(1, rounds + 1):
            event.pair(number)
            event.report(number)
        return event

    return seed

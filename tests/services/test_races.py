"""Races with real concurrency: threads sending requests at once to the app served on a loopback port, each
request on its own database connection. Every answer must be a redirect or a 4xx, and the data must add up.

They need PostgreSQL (row locks, many connections writing at once): on SQLite-only runs they are skipped.
"""
from __future__ import annotations

import http.client
import threading
import time
import urllib.parse
from http.cookies import SimpleCookie

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Match, PairingJob, Player, Round, Seat
from app import create_app

from served import served

pytestmark = pytest.mark.slow
PASSWORD = "correct horse"


class Server:
    """The app on 127.0.0.1 (port chosen by the OS), with a logged-in organizer's cookie."""

    def __init__(self, database_uri: str):
        self.app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri, "WTF_CSRF_ENABLED": False,
                               "SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": 8, "max_overflow": 4}})
        self._served = served(self.app)
        self.port = int(self._served.__enter__().rsplit(":", 1)[1])
        self.cookie = ""
        self.errors: list[str] = []

    def request(self, method: str, path: str, data: dict | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        body = urllib.parse.urlencode(data or {})
        headers = {"Cookie": self.cookie, "Content-Type": "application/x-www-form-urlencoded"}
        conn.request(method, path, body=body if method == "POST" else None, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        cookie = response.getheader("Set-Cookie")
        conn.close()
        if cookie and not self.cookie:
            morsel = SimpleCookie(cookie)
            self.cookie = "; ".join(f"{k}={v.value}" for k, v in morsel.items())
        if response.status >= 500:
            self.errors.append(f"{response.status} {method} {path}")
        return response.status, text

    def login(self, email: str) -> None:
        status, _ = self.request("POST", "/login", {"email": email, "password": PASSWORD})
        assert status in (302, 303) and self.cookie

    def at_once(self, calls: list[tuple[float, str, dict]]) -> list[tuple[int, str]]:
        """Send the requests from as many threads, released together; each waits its delay (s) first."""
        barrier = threading.Barrier(len(calls))
        answers: list = [None] * len(calls)

        def run(i, delay, path, data):
            barrier.wait()
            if delay:
                time.sleep(delay)
            answers[i] = self.request("POST", path, data)

        threads = [threading.Thread(target=run, args=(i, *call)) for i, call in enumerate(calls)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        return answers

    def close(self) -> None:
        self._served.__exit__(None, None, None)


@pytest.fixture
def server(app, database_uri, make_user):
    if db.engine.dialect.name != "postgresql":
        pytest.skip("race tests need PostgreSQL (set TEST_DATABASE_URL, as CI does)")
    owner = make_user(password=PASSWORD)
    server = Server(database_uri)
    server.login(owner.email)
    server.owner = owner
    yield server
    server.close()


def _add_players(t, n: int) -> list[Player]:
    players = [Player(tournament_id=t.id, name=f"Player {i:03}") for i in range(1, n + 1)]
    db.session.add_all(players)
    db.session.commit()
    return players


def _round_rows(t, number: int) -> dict[int, list[int]]:
    """match id -> seated player ids, fresh from the database."""
    db.session.expire_all()
    rows = db.session.execute(
        sa.select(Match.id, Seat.player_id).join(Round, Round.id == Match.round_id)
        .outerjoin(Seat, Seat.match_id == Match.id)
        .where(Round.tournament_id == t.id, Round.number == number)).all()
    tables: dict[int, list[int]] = {}
    for mid, pid in rows:
        tables.setdefault(mid, [])
        if pid is not None:
            tables[mid].append(pid)
    return tables


def _assert_whole_round(t, number: int) -> None:
    """Every active player of the event seated once; two seats a table, one for the bye (at most one)."""
    tables = _round_rows(t, number)
    byes = db.session.execute(sa.select(Match.id, Match.is_bye).join(Round, Round.id == Match.round_id)
                              .where(Round.tournament_id == t.id, Round.number == number)).all()
    is_bye = dict(byes)
    for mid, seated in tables.items():
        assert len(seated) == (1 if is_bye[mid] else 2), (mid, seated)
    seated = sorted(p for players in tables.values() for p in players)
    active = sorted(db.session.scalars(sa.select(Player.id).filter_by(tournament_id=t.id, dropped=False)))
    assert seated == active
    assert sum(is_bye.values()) <= 1


def test_pairing_while_a_player_is_removed(server, make_tournament):
    """Audit item 3: pairing round 1 and removing a player within milliseconds, 10 times. Either the removal
    comes first (the round pairs the rest) or the pairing does (the removal is refused): never a round with a
    seat for a removed player, never a table that can never be reported."""
    for trial in range(10):
        t = make_tournament(server.owner, name=f"Race {trial}")
        players = _add_players(t, 60)
        victim = players[trial * 5]
        answers = server.at_once([
            (0, f"/tournaments/{t.id}/rounds/pair", {"number": 1}),
            (0.003 * trial, f"/tournaments/{t.id}/players/{victim.id}/delete", {}),
        ])
        assert all(status in (302, 303) for status, _ in answers), answers
        db.session.expire_all()
        _assert_whole_round(t, 1)
        assert len(_round_rows(t, 1)) == 30  # 60 players, or 59: 29 tables and a bye
    assert not server.errors, server.errors


def test_simultaneous_swaps_on_one_round(server, make_tournament):
    """Audit item 8: four swaps on one round at once, 10 times: each answers a redirect (applied one after the
    other), never a 500, and the round stays whole."""
    for trial in range(10):
        t = make_tournament(server.owner, name=f"Swaps {trial}")
        players = _add_players(t, 16)
        status, _ = server.request("POST", f"/tournaments/{t.id}/rounds/pair", {"number": 1})
        assert status == 303
        ids = [p.id for p in players]
        pairs = [(ids[i], ids[(i + 5 + trial) % 16]) for i in range(0, 8, 2)]
        answers = server.at_once([(0, f"/tournaments/{t.id}/rounds/1/edit",
                                   {"action": "swap", "first": a, "second": b}) for a, b in pairs])
        assert all(status == 303 for status, _ in answers), answers
        _assert_whole_round(t, 1)
    assert not server.errors, server.errors


def test_simultaneous_adds_of_one_name(server, make_tournament):
    """Audit item 9: six "add player" requests at once whose names differ only in case or accents, 10 times:
    one player stored, the other five told the name is taken in the words of the one-at-a-time check."""
    for trial in range(10):
        t = make_tournament(server.owner, name=f"Names {trial}")
        spellings = ["Zoë Ray", "zoe ray", "ZOE RAY", "Zoe  Ray", "zoë ray", "ZOË RAY"]
        answers = server.at_once([(0, f"/tournaments/{t.id}/players", {"name": name}) for name in spellings])
        statuses = sorted(status for status, _ in answers)
        assert statuses == [302] + [422] * 5, statuses
        db.session.expire_all()
        (stored,) = db.session.scalars(sa.select(Player.name).filter_by(tournament_id=t.id)).all()
        for status, text in answers:
            if status == 422:
                assert f"“{stored}” is already in this tournament." in text
    assert not server.errors, server.errors


def test_pair_clicked_at_once_on_two_hosts_starts_one_background_pairing(server, make_tournament):
    """A big field pairs in the background (services/swiss/pairing_jobs.py). Three clicks of "Pair round 1" at once,
    on two hosts sharing the database, 8 times: every answer sends the TO to the same job's page, one job row
    exists, and exactly one round is written, whole."""
    other = Server(server.app.config["SQLALCHEMY_DATABASE_URI"])
    other.login(server.owner.email)
    try:
        for host in (server, other):
            host.app.config["PAIRING_BACKGROUND_FROM"] = 0
        for trial in range(8):
            t = make_tournament(server.owner, name=f"Background {trial}")
            _add_players(t, 41)
            path = f"/tournaments/{t.id}/rounds/pair"
            barrier = threading.Barrier(3)
            answers: list = [None] * 3

            def click(i, host):
                barrier.wait()
                answers[i] = host.request("POST", path, {"number": 1})

            threads = [threading.Thread(target=click, args=(i, host))
                       for i, host in enumerate((server, other, server))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=120)
            assert all(status == 303 for status, _ in answers), answers
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                db.session.expire_all()
                states = db.session.scalars(sa.select(PairingJob.state).filter_by(tournament_id=t.id)).all()
                if states != ["running"]:
                    break
                time.sleep(0.05)
            assert states == ["done"], states
            assert db.session.scalar(sa.select(sa.func.count(Round.id)).filter_by(tournament_id=t.id)) == 1
            _assert_whole_round(t, 1)
            status, _ = server.request("GET", f"/tournaments/{t.id}/rounds/1/pairing")
            assert status == 303  # the job page now sends the TO on to the round
    finally:
        other.close()
    assert not server.errors and not other.errors, server.errors + other.errors

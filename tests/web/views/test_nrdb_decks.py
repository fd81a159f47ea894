"""Decks from NetrunnerDB (app/web/views/nrdb_decks.py, app/services/nrdb/decks.py) against a local stand-in that
answers as NetrunnerDB's public API does: a player's or the TO's pasted address fetches the deck and stores it
judged as a paste; another site is refused without a fetch; offline, slow, refused, missing, huge or garbage
answers say so plainly and change nothing."""
from __future__ import annotations

import html
import json
import threading
import time
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cut_helpers import add_players, add_round
from tests.web.test_authz import _snapshot

from app.core import decklists as rules_core
from app.services import decklists as decklist_service
from app.services.players import player_links
from nrdb_standin import PUBLIC, Standin, normalized_deck, running

UUID = "7b2c3d4e-1111-4222-8333-944455556666"
# The corp fixture (tests/fixtures/decklists/corp_nrdb.txt) by NetrunnerDB code, its identity among the cards.
CORP_CODES = {"30035": 1, "26032": 3, "35038": 3, "30069": 2, "30037": 3, "30071": 3, "30075": 3, "30040": 3,
              "30041": 3, "35044": 3, "30039": 3, "30072": 2, "33099": 3, "30038": 3, "35041": 3}


def nrdb_answer(cards: dict, name: str = "Precision Pressure") -> bytes:
    """As NetrunnerDB's PublicApi20Controller answers (Decklist::normalize inside `data`)."""
    return json.dumps({"data": [{"id": 81234, "uuid": UUID, "date_creation": "2025-05-02T10:00:00+00:00",
                                 "date_update": "2025-05-02T10:00:00+00:00", "name": name, "description": "",
                                 "user_id": 7, "user_name": "someone", "tournament_badge": False, "cards": cards,
                                 "mwl_code": None}],
                       "total": 1, "success": True, "version_number": "2.0",
                       "last_updated": "2025-05-02T10:00:00+00:00"}).encode()


NOT_FOUND = json.dumps({"data": [], "total": 0, "success": False, "version_number": "2.0",
                        "last_updated": None}).encode()


class StandIn:
    """NetrunnerDB on 127.0.0.1: `routes` maps a path to (status, body, headers) or a callable writing the answer
    itself; every request's path is kept in `seen`."""

    def __init__(self):
        self.routes: dict = {}
        self.seen: list[str] = []
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                standin.seen.append(self.path)
                route = standin.routes.get(self.path, (404, b"<html>Not Found</html>", {}))
                if callable(route):
                    return route(self)
                status, body, headers = route
                self.send_response(status)
                self.send_header("Content-Type", headers.pop("Content-Type", "application/json; charset=UTF-8"))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def nrdb(app):
    with StandIn() as standin:
        app.config.update(NRDB_URL=standin.url, NRDB_DECK_TIMEOUT=1.0)
        yield standin


@pytest.fixture
def event(make_user, make_tournament):
    owner = make_user()
    t = make_tournament(owner, decklists=True, date=date(2026, 11, 1))
    players = add_players(t, ["Ann", "Ben"])
    return owner, t, players


def _fetch(client, t, player, address, side="corp"):
    return client.post(f"/t/{t.slug}/p/{player_links.token(player)}/decklists/nrdb",
                       data={"side": side, "address": address})


def _page(client, response) -> str:
    assert response.status_code == 303
    return " ".join(html.unescape(client.get(response.location).get_data(as_text=True)).split())


def test_a_player_fetches_a_published_decklist_judged_as_the_same_list_pasted(client, nrdb, event):
    _, t, (ann, ben) = event
    nrdb.routes[f"/api/2.0/public/decklist/{UUID}"] = (200, nrdb_answer(CORP_CODES), {})
    r = _fetch(client, t, ann, f"https://netrunnerdb.com/en/decklist/{UUID}/precision-pressure")
    page = _page(client, r)
    assert "Your Corp list is in from NetrunnerDB (“Precision Pressure”) and legal." in page
    assert nrdb.seen == [f"/api/2.0/public/decklist/{UUID}"]
    deck = decklist_service.lists_of(t, ann)["corp"]
    assert deck.text.startswith(f"From NetrunnerDB: https://netrunnerdb.com/en/decklist/{UUID} (Precision Pressure)")
    # the same verdict and cards as the plain-text list pasted
    pasted, _ = decklist_service.submit(t, ben, "corp",
                                        open("tests/fixtures/decklists/corp_nrdb.txt", encoding="utf-8").read(),
                                        "player")
    assert (deck.identity, deck.cards, deck.valid, deck.problems) == \
        (pasted.identity, pasted.cards, pasted.valid, pasted.problems)


def test_a_shared_deck_and_a_bare_id(client, nrdb, event):
    _, t, (ann, _) = event
    broken = dict(CORP_CODES, **{"30075": 4, "99999": 1})  # four Hedge Funds, and a card SASS's data lacks
    nrdb.routes[f"/api/2.0/public/deck/{UUID}"] = (200, nrdb_answer(broken, name="Work in progress"), {})
    page = _page(client, _fetch(client, t, ann, f"https://netrunnerdb.com/en/deck/view/{UUID}"))
    assert "Your Corp list is in from NetrunnerDB (“Work in progress”), with 2 problems shown below." in page
    assert "there is no card called “NetrunnerDB card 99999”." in page
    assert "4 copies of Hedge Fund; a deck may hold at most 3." in page
    # a bare id: a published decklist first, then a shared deck of that id
    nrdb.seen.clear()
    nrdb.routes["/api/2.0/public/decklist/81234"] = (200, NOT_FOUND, {})
    nrdb.routes["/api/2.0/public/deck/81234"] = (200, nrdb_answer(CORP_CODES), {})
    page = _page(client, _fetch(client, t, ann, "81234"))
    assert "and legal." in page
    assert nrdb.seen == ["/api/2.0/public/decklist/81234", "/api/2.0/public/deck/81234"]


def _unchanged(client, t, player, address, words, nrdb=None, side="corp"):
    before = _snapshot()
    r = _fetch(client, t, player, address, side)
    page = _page(client, r)
    assert words in page and "Nothing was saved." in page, page[-3000:]
    assert _snapshot() == before


def test_another_site_is_refused_without_fetching(client, nrdb, event):
    _, t, (ann, _) = event
    for address in ("https://evil.example.org/en/decklist/81234/x", "https://netrunnerdb.com.evil.example/en/deck"
                    "list/81234", "http://127.0.0.1:9/en/decklist/81234"):
        _unchanged(client, t, ann, address, "is not NetrunnerDB's")
    assert nrdb.seen == []


def _hang(handler):
    time.sleep(3)


def _drip(handler):
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.end_headers()
    for _ in range(30):
        handler.wfile.write(b" ")
        handler.wfile.flush()
        time.sleep(0.1)


@pytest.mark.parametrize("route, words", [
    ((200, NOT_FOUND, {}), "NetrunnerDB has no published decklist 81234"),
    ((404, b"<html>no</html>", {"Content-Type": "text/html"}), "NetrunnerDB has no published decklist 81234"),
    ((403, b"<html>Access Denied</html>", {"Content-Type": "text/html"}), "That deck is private on NetrunnerDB"),
    ((500, b"<html>oops</html>", {"Content-Type": "text/html"}), "NetrunnerDB answered 500 (Internal Server Error): "
                                                                  "an error on its side instead of the deck"),
    # an unshared deck: NetrunnerDB's firewall sends an anonymous caller to its log-in page
    ((302, b"", {"Location": "https://netrunnerdb.com/login"}), "That deck is private on NetrunnerDB (it sent SASS "
                                                                "to its log-in page instead): publish it"),
    ((200, b"[" * 70 + b"]" * 70, {}), "nested more than 64 deep"),
    ((200, b"<html>maintenance</html>", {"Content-Type": "text/html"}), "not the JSON its API gives"),
    ((200, b'{"data": [{"cards": {"01050": "lots"}}]}', {}), "lists its cards in a way SASS cannot read"),
    ((200, b"[" + b"1," * 400_000 + b"1]", {}), "far larger than a deck"),
    ((302, b"", {"Location": "http://example.org/api/2.0/public/decklist/81234"}),
     "NetrunnerDB answered 302 (a redirect, which SASS does not follow) instead of the deck"),
    (_hang, "did not answer within 1 seconds"),
    (_drip, "did not answer within 1 seconds"),
])
def test_every_failure_says_so_and_changes_nothing(client, nrdb, event, route, words):
    _, t, (ann, _) = event
    decklist_service.submit(t, ann, "corp", "Identity: Haas-Bioroid: Precision Design\n3x Hedge Fund", "player")
    nrdb.routes["/api/2.0/public/decklist/81234"] = route
    started = time.monotonic()
    _unchanged(client, t, ann, "https://netrunnerdb.com/en/decklist/81234/x", words)
    assert time.monotonic() - started < 4  # a 1 s limit: never the stand-in's 3 s hang
    assert all(path.startswith("/api/2.0/public/decklist/81234") for path in nrdb.seen)


def test_offline_says_so(client, app, event):
    _, t, (ann, _) = event
    app.config["NRDB_URL"] = "http://127.0.0.1:9"  # nothing listens: as a venue laptop without internet
    _unchanged(client, t, ann, f"https://netrunnerdb.com/en/decklist/{UUID}", "SASS could not reach NetrunnerDB")


def test_bad_form_input(client, nrdb, event):
    _, t, (ann, _) = event
    _unchanged(client, t, ann, "", "Paste the address of your deck on NetrunnerDB.")
    _unchanged(client, t, ann, "x" * 400, "too long")
    _unchanged(client, t, ann, "https://netrunnerdb.com/en/card/01050", "names no deck")
    _unchanged(client, t, ann, "81\x0034", "control characters")
    _unchanged(client, t, ann, "81234", "A list is for the Corp or the Runner side.", side="both")
    assert nrdb.seen == []


def test_a_locked_list_is_refused_before_fetching_and_the_to_fetches_for_a_player(client, login, nrdb, event,
                                                                                 app):
    owner, t, (ann, ben) = event
    add_round(t, 1, [(ann, ben, None)])
    nrdb.routes[f"/api/2.0/public/decklist/{UUID}"] = (200, nrdb_answer(CORP_CODES), {})
    _unchanged(client, t, ann, f"https://netrunnerdb.com/en/decklist/{UUID}", "Decklists are locked")
    assert nrdb.seen == []
    login("to@example.com", "correct horse")
    r = client.post(f"/tournaments/{t.id}/decklists/{ann.id}/corp/nrdb", data={"address": UUID})
    assert r.status_code == 303 and r.location.endswith(f"#player-{ann.id}")
    assert "Ann's Corp list is in from NetrunnerDB (“Precision Pressure”) and legal." in _page(client, r)
    deck = decklist_service.lists_of(t, ann)["corp"]
    assert deck.updated_by == "organizer" and deck.valid
    r = client.post(f"/tournaments/{t.id}/decklists/{ann.id}/corp/nrdb", data={"address": "https://example.org/1"})
    assert "is not NetrunnerDB's" in _page(client, r)
    assert client.post(f"/tournaments/{t.id}/decklists/{ann.id}/both/nrdb", data={"address": UUID}).status_code \
        == 404


def test_the_decklist_pages_offer_the_fetch(client, login, event):
    _, t, (ann, _) = event
    page = client.get(f"/t/{t.slug}/p/{player_links.token(ann)}/decklists").get_data(as_text=True)
    assert page.count('name="address"') == 2 and "Fetch Corp deck" in page and "Fetch Runner deck" in page
    login("to@example.com", "correct horse")
    page = client.get(f"/tournaments/{t.id}/decklists/{ann.id}/runner").get_data(as_text=True)
    assert "Or fetch the Runner deck from NetrunnerDB" in page
    assert rules_core.Side.RUNNER.value in page


def test_netrunnerdb_s_own_answers_for_a_shared_a_private_and_a_missing_deck(app, client, event):
    """Against the stand-in built to NetrunnerDB's code (tests/nrdb_standin.py): a deck of an owner who shares their
    decks comes in; an unshared one is NetrunnerDB's 302 to its log-in page, said as a private deck; an id nobody has
    is its 404; nothing is stored but the shared deck, and no redirect is followed."""
    _, t, (ann, ben) = event
    mine = normalized_deck(4242, "2025-06-01T10:00:00+00:00", CORP_CODES, "Shared Precision")
    hidden = normalized_deck(4343, "2025-06-01T10:00:00+00:00", CORP_CODES, "Secret Precision")
    standin = Standin("c", "s", f"{PUBLIC}/nrdb/callback", decks={"ana": [mine], "bo": [hidden]},
                      sharing={"ana": True})
    with running(standin) as url:
        app.config.update(NRDB_URL=url, NRDB_DECK_TIMEOUT=1.0)
        _unchanged(client, t, ann, "https://netrunnerdb.com/en/deck/view/4343",
                   "That deck is private on NetrunnerDB (it sent SASS to its log-in page instead): publish it as a "
                   "decklist, or share your decks (NetrunnerDB's account settings), then try again")
        _unchanged(client, t, ann, "https://netrunnerdb.com/en/deck/view/9999", "NetrunnerDB has no deck 9999")
        assert [r["path"] for r in standin.requests] == ["/api/2.0/public/deck/4343", "/api/2.0/public/deck/9999"]
        page = _page(client, _fetch(client, t, ben, "https://netrunnerdb.com/en/deck/view/4242"))
        assert "Your Corp list is in from NetrunnerDB (“Shared Precision”) and legal." in page
        # a bare id: no published decklist (NetrunnerDB's `success: false`), then the shared deck
        page = _page(client, _fetch(client, t, ann, "4242", side="corp"))
        assert "and legal." in page
        assert [r["path"] for r in standin.requests][-2:] == ["/api/2.0/public/decklist/4242",
                                                               "/api/2.0/public/deck/4242"]

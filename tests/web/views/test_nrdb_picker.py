"""A player picks one of their own NetrunnerDB decks (app/web/views/nrdb_picker.py, app/services/nrdb/picker.py)
against the local NetrunnerDB stand-in (tests/nrdb_standin.py: its OAuth server and its private deck API, which
wants the bearer token): offered and allowed only to a device signed in with the account the entry is linked to;
the decks listed newest first by their identity's side; the pick judged exactly as the same list pasted; an
expired token, NetrunnerDB offline or failing say so and change nothing; the token reaches no page and no log."""
from __future__ import annotations

import html
import logging
import time
from datetime import date

import pytest
import sqlalchemy as sa
from cut_helpers import add_players, add_round
from tests.web.test_authz import _snapshot
from tests.web.views.test_nrdb import CLIENT_ID, SECRET, _sign_in

from app.extensions import db
from app.models import NrdbAccount
from app.services import decklists as decklist_service
from app.services.players import player_links
from app.web import nrdb_oauth
from nrdb_standin import PUBLIC, Standin, codes_of, normalized_deck, running

OFFER = "Pick one of my NetrunnerDB decks"
PRIVATE = "/api/2.0/private/deck"  # the deck routes (the sign-in asks account/info)
RUNNER_TEXT = open("tests/fixtures/decklists/runner_jinteki.txt", encoding="utf-8").read()
CORP_TEXT = open("tests/fixtures/decklists/corp_nrdb.txt", encoding="utf-8").read()
_deck = normalized_deck
ANA_DECKS = [
    _deck(11, "2025-02-01T10:00:00+00:00", codes_of(CORP_TEXT, "corp"), "Old Precision"),
    _deck(12, "2025-06-01T10:00:00+00:00", codes_of(RUNNER_TEXT, "runner"), "Tāo Goes Shopping"),
    _deck(13, "2025-05-01T10:00:00+00:00", dict(codes_of(CORP_TEXT, "corp"), **{"30075": 4}), "Four Hedge Funds"),
    _deck(14, "2025-07-01T10:00:00+00:00", {"99001": 1, "30075": 3}, "Newer than SASS's cards"),
]
BO_DECKS = [_deck(21, "2025-06-01T10:00:00+00:00", codes_of(CORP_TEXT, "corp"), "Bo's secret deck")]


@pytest.fixture
def nrdb(app):
    standin = Standin(CLIENT_ID, SECRET, f"{PUBLIC}/nrdb/callback",
                      decks={"ana": ANA_DECKS, "bo": BO_DECKS})
    with running(standin) as url:
        app.config.update(NRDB_URL=url, NRDB_CLIENT_ID=CLIENT_ID, NRDB_CLIENT_SECRET=SECRET, NRDB_DECK_TIMEOUT=1.0,
                          PUBLIC_URL=PUBLIC)
        yield standin


@pytest.fixture
def event(make_user, make_tournament):
    t = make_tournament(make_user(), decklists=True, date=date(2026, 11, 1))
    return t, add_players(t, ["Ann", "Ben"])


def _base(t, player) -> str:
    return f"/t/{t.slug}/p/{player_links.token(player)}"


def _text(response) -> str:
    return " ".join(html.unescape(response.get_data(as_text=True)).split())


def _linked(client, t, player):
    """`client` signed in as ana, `player`'s entry linked to ana."""
    _sign_in(client)
    assert client.post(f"{_base(t, player)}/nrdb/link").status_code == 303


def _private(nrdb) -> list:
    return [r for r in nrdb.requests if r["path"].startswith(PRIVATE)]


def _pick(client, t, player, deck, side="corp"):
    r = client.post(f"{_base(t, player)}/decklists/nrdb/mine", data={"side": side, "deck": deck})
    assert r.status_code == 303 and r.location.endswith(f"/decklists#{side if side == 'runner' else 'corp'}")
    return _text(client.get(r.location))


def test_offered_and_allowed_only_to_the_entrys_own_account(app, client, nrdb, event):
    t, (ann, ben) = event
    page = f"{_base(t, ann)}/decklists"
    picker = f"{_base(t, ann)}/decklists/nrdb/mine"
    before = _snapshot()
    # not signed in: not offered, refused
    assert OFFER not in _text(client.get(page))
    assert client.get(picker).status_code == 403
    assert client.post(picker, data={"side": "corp", "deck": 11}).status_code == 403
    # signed in as ana, the entry not linked (yet): the same
    _sign_in(client)
    before = _snapshot()
    assert OFFER not in _text(client.get(page))
    assert client.get(picker).status_code == 403
    assert client.post(picker, data={"side": "corp", "deck": 11}).status_code == 403
    assert _snapshot() == before and _private(nrdb) == []
    # linked: offered for each side
    assert client.post(f"{_base(t, ann)}/nrdb/link").status_code == 303
    text = _text(client.get(page))
    assert text.count(OFFER) == 2
    assert f'href="{picker}?side=corp"' in client.get(page).get_data(as_text=True)
    # another browser holding Ann's link, signed in as bo: not offered, refused, NetrunnerDB never asked
    nrdb.consent = "bo"
    other = app.test_client()
    _sign_in(other)
    other.get(_base(t, ann))
    before = _snapshot()
    assert OFFER not in _text(other.get(page))
    assert other.get(picker).status_code == 403
    assert other.post(picker, data={"side": "corp", "deck": 21}).status_code == 403
    assert _snapshot() == before and _private(nrdb) == []
    # ana's own browser with Ben's link (an entry not hers): refused too
    assert OFFER not in _text(client.get(f"{_base(t, ben)}/decklists"))
    assert client.get(f"{_base(t, ben)}/decklists/nrdb/mine").status_code == 403


def test_hidden_without_a_client(app, client, event):
    t, (ann, _) = event
    assert OFFER not in _text(client.get(f"{_base(t, ann)}/decklists"))
    assert client.get(f"{_base(t, ann)}/decklists/nrdb/mine").status_code == 404
    assert client.post(f"{_base(t, ann)}/decklists/nrdb/mine", data={"side": "corp", "deck": 1}).status_code == 404


def test_the_decks_of_each_side_newest_first(client, nrdb, event):
    t, (ann, _) = event
    _linked(client, t, ann)
    page = _text(client.get(f"{_base(t, ann)}/decklists/nrdb/mine?side=corp"))
    assert page.index("Four Hedge Funds") < page.index("Old Precision")
    assert "Tāo Goes Shopping" not in page and "Bo's secret deck" not in page
    assert "Haas-Bioroid: Precision Design" in page and "changed 2025-05-01 10:00 UTC" in page
    assert "1 deck not shown: SASS does not know its identity" in page
    asked = _private(nrdb)
    assert [r["path"] for r in asked] == ["/api/2.0/private/decks"]
    assert asked[0]["headers"]["Authorization"] == f"Bearer {nrdb.issued_tokens()[0]}" and asked[0]["query"] == ""
    page = _text(client.get(f"{_base(t, ann)}/decklists/nrdb/mine?side=runner"))
    assert "Tāo Goes Shopping" in page and "Old Precision" not in page
    assert client.get(f"{_base(t, ann)}/decklists/nrdb/mine?side=both").status_code == 404


def test_the_pick_is_judged_as_the_same_list_pasted(client, nrdb, event):
    t, (ann, ben) = event
    _linked(client, t, ann)
    page = _pick(client, t, ann, 11)
    assert "Your Corp list is your NetrunnerDB deck “Old Precision”, and legal." in page
    assert [r["path"] for r in _private(nrdb)] == ["/api/2.0/private/deck/11"]
    deck = decklist_service.lists_of(t, ann)["corp"]
    assert deck.text.startswith("From NetrunnerDB: https://netrunnerdb.com/en/deck/view/11 (Old Precision)")
    pasted, _ = decklist_service.submit(t, ben, "corp", CORP_TEXT, "player")
    assert (deck.identity, deck.cards, deck.valid, deck.problems, deck.updated_by) == \
        (pasted.identity, pasted.cards, pasted.valid, pasted.problems, "player")
    # the runner side, and a list with a problem, kept with its problem as a paste would be
    page = _pick(client, t, ann, 12, "runner")
    runner = decklist_service.lists_of(t, ann)["runner"]
    pasted, _ = decklist_service.submit(t, ben, "runner", RUNNER_TEXT, "player")
    assert (runner.identity, runner.cards, runner.valid, runner.problems) == \
        (pasted.identity, pasted.cards, pasted.valid, pasted.problems)
    page = _pick(client, t, ann, 13)
    assert "Your Corp list is your NetrunnerDB deck “Four Hedge Funds”, with 1 problem shown below." in page
    assert "4 copies of Hedge Fund; a deck may hold at most 3." in page


def _unchanged(client, t, player, deck, words, side="corp"):
    before = _snapshot()
    page = _pick(client, t, player, deck, side)
    assert words in page and "Nothing was saved." in page, page[-2000:]
    assert _snapshot() == before


def test_a_deck_not_among_yours(client, nrdb, event):
    t, (ann, _) = event
    _linked(client, t, ann)
    # NetrunnerDB answers 500 for a deck id that is not the token's (another player's, or none): SASS reads the
    # player's list to tell that from NetrunnerDB failing, and says which
    _unchanged(client, t, ann, 21, "Deck 21 is not in your NetrunnerDB account (another player's, or deleted): "
                                   "pick one from the list.")  # bo's
    _unchanged(client, t, ann, 999, "Deck 999 is not in your NetrunnerDB account")
    assert [r["path"] for r in _private(nrdb)][-2:] == ["/api/2.0/private/deck/999", "/api/2.0/private/decks"]
    # one of hers on which NetrunnerDB itself fails: an error on its side, not "not yours"
    nrdb.failing.add(11)
    _unchanged(client, t, ann, 11, "NetrunnerDB answered 500 (Internal Server Error): an error on its side")


def test_bad_form_input_fetches_nothing(client, nrdb, event):
    t, (ann, _) = event
    _linked(client, t, ann)
    _unchanged(client, t, ann, "", "Pick one of your decks.")
    _unchanged(client, t, ann, "abc", "Not a valid whole number")
    _unchanged(client, t, ann, "0", "That is not one of your NetrunnerDB decks.")
    _unchanged(client, t, ann, str(2**70), "That is not one of your NetrunnerDB decks.")
    _unchanged(client, t, ann, "11", "A list is for the Corp or the Runner side.", side="both")
    assert _private(nrdb) == []


def test_an_expired_sign_in_says_so_and_changes_nothing(client, nrdb, event):
    t, (ann, _) = event
    _linked(client, t, ann)
    picker = f"{_base(t, ann)}/decklists/nrdb/mine"
    # NetrunnerDB no longer accepts the token (its hour is over, or it was revoked): the pick says so, the list too
    nrdb.expire()
    before = _snapshot()
    _unchanged(client, t, ann, 11, "NetrunnerDB no longer accepts your sign-in here")
    assert "/nrdb/sign-in?next=" in client.get(f"{_base(t, ann)}/decklists").get_data(as_text=True)
    _sign_in(client)
    nrdb.expire()
    page = _text(client.get(f"{picker}?side=corp"))
    assert "Your NetrunnerDB sign-in here has expired" in page and "Sign in with NetrunnerDB again" in page
    assert "Old Precision" not in page
    assert _snapshot() == before
    _sign_in(client)
    # the session's copy ran out: SASS does not even ask, and the offer signs in again first
    with client.session_transaction() as s:
        s[nrdb_oauth.TOKEN] = dict(s[nrdb_oauth.TOKEN], expires_at=int(time.time()) - 1)
    asked = len(_private(nrdb))
    assert "Your NetrunnerDB sign-in here has expired" in _text(client.get(f"{picker}?side=runner"))
    _unchanged(client, t, ann, 11, "Your NetrunnerDB sign-in has expired")
    assert len(_private(nrdb)) == asked
    page = client.get(f"{_base(t, ann)}/decklists").get_data(as_text=True)
    assert "/nrdb/sign-in?next=" in page and "this signs you in again first" in page
    # signing in again brings the picker back
    _sign_in(client, f"/nrdb/sign-in?next={picker}?side=corp")
    assert "Old Precision" in _text(client.get(f"{picker}?side=corp"))


def test_netrunnerdb_failing_or_offline_says_so_and_changes_nothing(app, client, nrdb, event):
    t, (ann, _) = event
    decklist_service.submit(t, ann, "corp", "Identity: Haas-Bioroid: Precision Design\n3x Hedge Fund", "player")
    _linked(client, t, ann)
    picker = f"{_base(t, ann)}/decklists/nrdb/mine?side=corp"
    nrdb.private_status = 500
    before = _snapshot()
    page = _text(client.get(picker))
    assert "NetrunnerDB answered 500" in page and "Nothing was changed." in page
    _unchanged(client, t, ann, 11, "NetrunnerDB answered 500")
    nrdb.private_status = None
    app.config["NRDB_OWN_DECKS_MAX_BYTES"] = 1000  # ana's decks are more than that
    assert "far larger" in _text(client.get(picker))
    app.config["NRDB_URL"] = "http://127.0.0.1:9"  # nothing listens: a venue laptop without internet
    assert "SASS could not reach NetrunnerDB" in _text(client.get(picker))
    _unchanged(client, t, ann, 11, "SASS could not reach NetrunnerDB")
    assert _snapshot() == before


def test_locked_lists_are_refused_before_asking_netrunnerdb(client, nrdb, event):
    t, (ann, ben) = event
    _linked(client, t, ann)
    add_round(t, 1, [(ann, ben, None)])
    r = client.get(f"{_base(t, ann)}/decklists/nrdb/mine?side=corp")
    assert r.status_code == 303 and "Decklists are locked" in _text(client.get(r.location))
    _unchanged(client, t, ann, 11, "Decklists are locked")
    assert OFFER not in _text(client.get(f"{_base(t, ann)}/decklists"))
    assert _private(nrdb) == []


def test_the_token_reaches_no_page_no_log_no_row(client, nrdb, event, caplog):
    t, (ann, _) = event
    caplog.set_level(logging.DEBUG)
    _linked(client, t, ann)
    token = nrdb.issued_tokens()[0]
    pages = [client.get(f"{_base(t, ann)}/decklists"), client.get(f"{_base(t, ann)}/decklists/nrdb/mine")]
    r = client.post(f"{_base(t, ann)}/decklists/nrdb/mine", data={"side": "corp", "deck": 11})
    pages += [r, client.get(r.location)]
    nrdb.private_status = 500
    pages.append(client.get(f"{_base(t, ann)}/decklists/nrdb/mine"))
    assert _private(nrdb) and all(token not in p.get_data(as_text=True) for p in pages)
    assert all(token not in (p.location or "") for p in pages)
    assert token not in caplog.text
    assert token not in repr(_snapshot())
    assert db.session.scalar(sa.select(sa.func.count()).select_from(NrdbAccount)) == 1


def test_the_list_and_the_pick_are_throttled(app, client, nrdb, event):
    """Each showing of the list asks NetrunnerDB, so the page counts against the deck-fetch limit, as the pick."""
    t, (ann, _) = event
    _linked(client, t, ann)
    app.config["NRDB_DECK_LIMIT_PER_IP"] = "2/minute"
    picker = f"{_base(t, ann)}/decklists/nrdb/mine"
    assert [client.get(picker).status_code for _ in range(3)] == [200, 200, 429]
    assert [client.post(picker, data={"side": "corp", "deck": 11}).status_code for _ in range(3)] == [303, 303, 429]
    assert len(_private(nrdb)) == 4

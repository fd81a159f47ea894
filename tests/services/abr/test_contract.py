"""ABR's contract as ABR's code has it (docs/api.md, "AlwaysBeRunning"): what each answer of its upload address means
(app/services/abr/contract.py), the request SASS makes (client.py) against the stand-in (tests/abr_standin.py, which
answers as ABR's TournamentsController and its Apache vhost do), the file SASS gives ABR (uploads.py: never with
`abrTournamentId`), and the start-up check of ABR_URL (config.py)."""
from __future__ import annotations

import json

import pytest
from abr_standin import PASSWORD, USER, StandIn

import config
from app.services.abr import contract, uploads
from app.services.abr.client import has_login, post

FILE = json.dumps({"name": "Store Champs", "cutToTop": 0, "uploadedFrom": "SASS", "players": [
    {"id": 1, "name": "Ann", "rank": 1, "corpIdentity": "Azmari EdTech", "runnerIdentity": "Esa Ashgrove"},
    {"id": 2, "name": "Ben", "rank": 2, "corpIdentity": "Nuvem SA", "runnerIdentity": "Lat"}]}).encode()


def _post(standin, body=FILE, user=USER, password=PASSWORD):
    return post(standin.url, body, 5, 65536, user, password)


# --- each answer, in words that say what is true and what to do ----------------------------------------------

@pytest.mark.parametrize("status, body, kw, outcome, words", [
    (200, b'{"code": 123456, "status": "JSON successfully stored."}', {}, "sent", ""),
    (200, b'{"code": 654321, "error": "Tournament with ID 9 not found."}', {}, "sent", "not found"),
    (200, b'{"error": ["Player \'A\' has no corp identity."]}', {}, "refused", "has no corp identity"),
    (200, b'{"error": "File upload failed."}', {}, "refused", "File upload failed"),
    (200, b'{}', {}, "refused", "without a conclusion code"),
    (200, b'<html>Wi-Fi</html>', {}, "retry", "not ABR's"),
    (500, b'<html>Whoops</html>', {}, "retry", "HTTP 500"),
    (503, b'', {}, "retry", "SASS tries again"),
    (401, b'', {"credential": False}, "refused", "this server has none: ABR_USER and ABR_PASSWORD are not set"),
    (401, b'', {"credential": True}, "refused", "did not accept this server's login"),
    (403, b'<html>This action is unauthorized.</html>', {}, "refused", "forbade this upload (HTTP 403)"),
    (404, b'', {}, "refused", "ABR_URL has no upload address"),
    (413, b'', {}, "refused", "HTTP 413"),
])
def test_each_answer_of_abr_means_one_thing(status, body, kw, outcome, words):
    answer = contract.interpret(status, body, **kw)
    assert answer.outcome == outcome and words in answer.words
    if outcome == "sent":
        assert answer.code.isdigit()
    if outcome == "refused" and status != 200:  # every refusal of the address names the way without a login
        assert "download the NRTM file and give it to your event's Conclude form on ABR" in answer.words


def test_no_refusal_blames_a_login_the_server_never_sent():
    assert "ABR_PASSWORD must" not in contract.interpret(401, b"", credential=False).words
    assert "login" not in contract.interpret(403, b"").words


@pytest.mark.parametrize("location, words", [
    ("https://alwaysberunning.net/api/nrtm", "Set ABR_URL to https://alwaysberunning.net and send again"),
    ("https://alwaysberunning.net/api/nrtm/", "Set ABR_URL to https://alwaysberunning.net and send"),
    ("https://abr.example/mirror/api/nrtm", "Set ABR_URL to https://abr.example/mirror and"),
    ("http://login.example/portal", "to http://login.example/portal, which is not ABR's upload address"),
    ("/login", "to /login, which is not ABR's upload address"),
    ("", "names no address"),
])
def test_a_redirect_is_refused_with_the_address_to_use(location, words):
    for status in (301, 302, 307, 308):
        answer = contract.interpret(status, b"", location=location)
        assert answer.outcome == "refused" and words in answer.words and f"HTTP {status}" in answer.words


# --- ABR's upload address, as ABR's code has it (the stand-in) ------------------------------------------------

def test_the_upload_address_asks_for_the_login_first():
    with StandIn() as abr:
        none = _post(abr, user="", password="")
        assert none.outcome == "refused" and "this server has none" in none.words
        wrong = _post(abr, password="not-it")
        assert wrong.outcome == "refused" and "did not accept this server's login" in wrong.words
        assert abr.received == [] and abr.stored == {}  # abr.conf stops it before ABR's code
        assert _post(abr).outcome == "sent"
        assert abr.received[0]["headers"]["Authorization"].startswith("Basic ")


def test_each_upload_is_a_new_file_under_a_new_code():
    with StandIn() as abr:
        codes = [_post(abr).code for _ in range(3)]  # the same file three times
        assert len(set(codes)) == 3 and all(len(c) == 6 for c in codes)
        assert sorted(abr.stored) == sorted(int(c) for c in codes)


def test_a_server_upload_naming_an_abr_event_is_forbidden_and_its_code_never_told():
    with StandIn(events={7}) as abr:
        named = json.dumps({**json.loads(FILE), "abrTournamentId": 7}).encode()
        answer = _post(abr, named)
        assert answer.outcome == "refused" and "HTTP 403" in answer.words and answer.code == ""
        assert len(abr.stored) == 1 and abr.claims == {}  # kept on ABR under a code nobody is told


def test_a_second_code_on_a_concluded_event_adds_claims_beside_the_first():
    """A correction: the first import's claims stay, the new file's are added (only a rank whose first claim has
    the same identities is skipped); reverting the conclusion keeps them; clearing the import's claims first
    leaves exactly the corrected file."""
    corrected = json.loads(FILE)
    corrected["players"][0]["rank"], corrected["players"][1]["rank"] = 2, 1  # Ben beat Ann after all
    with StandIn() as abr:
        first, second = _post(abr).code, _post(abr, json.dumps(corrected).encode()).code
        assert abr.conclude(5, first) == [] and len(abr.claims[5]) == 2
        abr.revert(5)
        assert abr.conclude(5, second) == []
        assert len(abr.claims[5]) == 4  # four claims for two players
        abr.clear_imported(5)
        third = _post(abr, json.dumps(corrected).encode()).code
        abr.conclude(5, third)
        assert [(c["rank"], c["name"]) for c in abr.claims[5]] == [(2, "Ann"), (1, "Ben")]


def test_a_file_that_is_not_json_breaks_abr_and_no_file_is_an_error():
    with StandIn() as abr:
        assert _post(abr, b"not json").outcome == "retry"  # ABR's error page (SASS never sends one)
        bad = _post(abr, json.dumps({"players": [{"name": "Ann", "rank": 1}]}).encode())
        assert bad.outcome == "sent"  # ABR checks identities only when the code is entered
        assert abr.conclude(1, bad.code) == ["Player 'Ann' has no corp or runner identity."]


def test_a_redirect_from_the_upload_address_is_not_followed():
    with StandIn() as abr:
        abr.mode = "moved"
        answer = _post(abr)
        assert answer.outcome == "refused" and "Set ABR_URL to https://alwaysberunning.net" in answer.words
        assert abr.received == [] and abr.requests == 1


# --- the file SASS gives ABR ------------------------------------------------------------------------------------

def test_an_older_upload_naming_an_abr_event_leaves_without_it():
    named = json.dumps({"name": "X", "players": [], "abrTournamentId": 1234})
    assert json.loads(uploads.wire(named)) == {"name": "X", "players": []}
    plain = json.dumps({"name": "X"})
    assert uploads.wire(plain) == plain


def test_the_abr_event_only_makes_a_link():
    assert uploads.event_page("https://alwaysberunning.net", 1234) == "https://alwaysberunning.net/tournaments/1234"
    assert uploads.event_page("https://alwaysberunning.net", None) == ""


def test_a_login_is_both_settings():
    assert has_login("uploads", "pw") and not has_login("", "pw") and not has_login("uploads", "")


# --- ABR_URL at start-up --------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["http://alwaysberunning.net", "https://www.alwaysberunning.net",
                                   "http://www.alwaysberunning.net/", "HTTP://AlwaysBeRunning.net"])
def test_an_abr_url_that_abr_redirects_is_refused_at_start_up(value):
    with pytest.raises(RuntimeError, match="set ABR_URL=https://alwaysberunning.net"):
        config.abr_url(value)


@pytest.mark.parametrize("value", ["https://alwaysberunning.net", "https://alwaysberunning.net/",
                                   "http://127.0.0.1:8080", "https://abr.example/mirror"])
def test_other_abr_urls_are_taken(value):
    assert config.abr_url(value) == value.rstrip("/")

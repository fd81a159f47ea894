"""Results to AlwaysBeRunning (app/services/abr/, app/web/views/abr.py) against a stand-in of ABR on 127.0.0.1
(tests/abr_standin.py): queued by the TO's click, sent by the sender, never twice for one version of the file,
and every answer (refusal, no connection, timeout, error page, captive portal, huge body, hang) a clear state on
the dashboard, with nothing lost. First on the panel, for every TO: the NRTM file for ABR's Conclude form. The
contract's words and the stand-in's ABR behaviours: tests/services/abr/test_contract.py."""
from __future__ import annotations

import json
import logging
import re
import socket
import threading
import time
from datetime import timedelta

import pytest
import sqlalchemy as sa
from abr_standin import PASSWORD, USER, StandIn
from cut_helpers import add_players, add_round

from app import create_app
from app.extensions import db
from app.models import AbrUpload, Player, utcnow
from app.services.abr import contract, sender, uploads


def _dead_url() -> str:
    """A loopback port nobody listens on: ABR unreachable."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


@pytest.fixture
def event(app, make_user, make_tournament, login):
    """A finished 4-player swiss (2 rounds planned and played, too small for a cut), its owner logged in."""
    owner = make_user()
    t = make_tournament(owner, planned_rounds=2)
    a, b, c, d = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    add_round(t, 1, [(a, b, "corp"), (c, d, "runner")])
    add_round(t, 2, [(a, c, "corp"), (b, d, "tie")])
    login()
    return t


@pytest.fixture
def abr(app):
    """The stand-in ABR, and this server's login for its upload address."""
    with StandIn(events={1234}) as standin:
        app.config.update(ABR_URL=standin.url, ABR_TIMEOUT_SECONDS=2, ABR_USER=USER, ABR_PASSWORD=PASSWORD)
        yield standin


def _rows(t) -> list[AbrUpload]:
    db.session.expire_all()
    return db.session.scalars(sa.select(AbrUpload).filter_by(tournament_id=t.id).order_by(AbrUpload.id)).all()


def _dashboard(client, t) -> str:
    response = client.get(f"/tournaments/{t.id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _send(client, t):
    response = client.post(f"/tournaments/{t.id}/abr")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/tournaments/{t.id}#abr")
    return response


def _due_now(t) -> None:
    """Skip the back-off wait, as time passing would."""
    db.session.execute(sa.update(AbrUpload).where(AbrUpload.tournament_id == t.id)
                       .values(next_try_at=utcnow() - timedelta(seconds=1)))
    db.session.commit()


# --- the contract -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, number", [
    ("1234", 1234), (" 1234 ", 1234), ("https://alwaysberunning.net/tournaments/1234/some-name", 1234),
    ("alwaysberunning.net/tournaments/77", 77), ("http://127.0.0.1:9/tournaments/5/x?y=1", 5), ("", None)])
def test_the_abr_event_is_its_number_or_its_address(text, number):
    assert contract.event_id(text) == number


@pytest.mark.parametrize("text", ["0", "abc", "https://alwaysberunning.net/results", "99999999999",
                                  "https://alwaysberunning.net/tournaments/12x", "-5"])
def test_anything_else_is_refused_with_words(text):
    with pytest.raises(ValueError, match="ABR event's number"):
        contract.event_id(text)


def test_the_back_off_grows_to_a_cap():
    waits = [contract.backoff(n) for n in range(1, 12)]
    assert waits == sorted(waits) and waits[0] == 5 and max(waits) == 90


# --- the settings -------------------------------------------------------------------------------------------------

def test_the_settings_take_the_abr_event_as_a_pasted_address(client, event):
    form = {"name": event.name, "date": event.date.isoformat(), "format": "single", "score_factor": "2",
            "planned_rounds": "2", "round_minutes": "65", "tiebreakers": "magic"}
    bad = client.post(f"/tournaments/{event.id}/edit", data={**form, "abr_id": "https://example.org/results"})
    assert bad.status_code == 422 and "ABR event&#39;s number" in bad.get_data(as_text=True)
    db.session.expire_all()
    assert event.abr_id is None
    ok = client.post(f"/tournaments/{event.id}/edit",
                     data={**form, "abr_id": "https://alwaysberunning.net/tournaments/1234/store-champs"})
    assert ok.status_code == 302
    db.session.expire_all()
    assert event.abr_id == 1234
    assert 'value="1234"' in client.get(f"/tournaments/{event.id}/edit").get_data(as_text=True)


# --- queue and send -----------------------------------------------------------------------------------------------

def _rename(t, old: str, new: str) -> None:
    """A correction that changes the file (the TO fixes a name)."""
    player = db.session.scalar(sa.select(Player).filter_by(tournament_id=t.id, name=old))
    player.name = new
    db.session.commit()


def test_an_event_not_over_cannot_be_sent_or_downloaded(app, client, make_user, make_tournament, login, abr):
    t = make_tournament(make_user(), planned_rounds=3)
    a, b = add_players(t, ["Ann", "Ben"])
    add_round(t, 1, [(a, b, "corp")])
    login()
    page = _dashboard(client, t)
    assert "Once the event is over" in page and 'id="abr-download"' not in page and 'id="abr-send"' not in page
    _send(client, t)
    assert "not over yet" in _dashboard(client, t) and _rows(t) == []
    response = client.get(f"/tournaments/{t.id}/abr/file.json")
    assert response.status_code == 303 and "not over yet" in _dashboard(client, t)


# --- the way every TO has: the file for ABR's Conclude form ---------------------------------------------------

def test_without_a_login_the_file_for_abr_comes_with_the_steps_and_nothing_is_sent(app, client, event, abr):
    app.config.update(ABR_USER="", ABR_PASSWORD="")  # the defaults: this server has no login for ABR
    event.name, event.abr_id = "Store Champs: Köln", 1234
    db.session.commit()
    page = _dashboard(client, event)
    assert page.index('id="abr-download"') < page.index('id="abr-event"')
    assert "Log in to" in page and "Choose <strong>Conclude</strong>" in page and "Choose the file you downloaded" in page
    assert f'href="{abr.url}/tournaments/1234"' in page  # the id only makes the link
    assert 'id="abr-send"' not in page and "Sending from here needs a login" in page

    response = client.get(f"/tournaments/{event.id}/abr/file.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith('attachment; filename="Store-Champs-Koln-') and "for-ABR.json" in disposition
    assert "K%C3%B6ln" in disposition
    data = response.get_json()
    assert "abrTournamentId" not in data and sorted(p["name"] for p in data["players"]) == ["Ann", "Ben", "Cat", "Dan"]
    assert data["uploadedFrom"] == "SASS"

    _send(client, event)  # a send without a login: refused in words, nothing queued, nothing sent
    page = _dashboard(client, event)
    assert "This server has no login for ABR&#39;s upload address" in page and _rows(event) == []
    assert abr.requests == 0


def test_the_file_is_for_organizers(app, client, make_user, event, login):
    from app.models import Staff
    scorer = make_user("score@example.com")
    db.session.add(Staff(tournament_id=event.id, user_id=scorer.id, role="scorekeeper"))
    db.session.commit()
    scorer_client = login("score@example.com", c=app.test_client())
    assert scorer_client.get(f"/tournaments/{event.id}/abr/file.json").status_code == 403
    assert client.get(f"/tournaments/{event.id}/abr/file.json").status_code == 200  # the owner


# --- queue and send (a login configured) ----------------------------------------------------------------------

def test_the_click_queues_and_the_sender_sends_once(app, client, event, abr):
    page = _dashboard(client, event)
    assert 'data-state="not-sent"' in page and 'id="abr-send"' in page
    assert page.index('id="abr-download"') < page.index('id="abr-send"')  # the file for ABR first
    _send(client, event)
    assert abr.requests == 0  # the request only queued
    [row] = _rows(event)
    assert row.state == "queued" and row.attempts == 0
    assert 'data-state="queued"' in _dashboard(client, event)
    assert client.get(f"/tournaments/{event.id}/abr").headers["Refresh"] == "5"  # the ABR page follows it

    assert sender.send_due(app) == 1
    [row] = _rows(event)
    assert row.state == "sent" and re.fullmatch(r"\d{6}", row.code) and row.sent_at and row.attempts == 1
    [received] = abr.received
    assert received["file"]["uploadedFrom"] == "SASS" and "abrTournamentId" not in received["file"]
    assert [p["name"] for p in received["file"]["players"]] and received["file"] == json.loads(row.body)
    assert str(received["code"]) == row.code  # the code ABR gave is the one shown
    page = _dashboard(client, event)
    assert 'data-state="sent"' in page and f'value="{row.code}"' in page and 'data-copy=' in page
    assert f"choose <strong>Conclude</strong>, then the NRTM import, and enter the code {row.code}" in page
    assert "Nothing changed in the event since" in page and 'id="abr-send"' not in page

    # sending again with nothing changed, and a second sender: nothing goes out twice
    _send(client, event)
    assert "already sent to ABR" in _dashboard(client, event)
    event.round_minutes = 50  # a setting outside the file: offered to send again, found to be the same results
    db.session.commit()
    assert 'id="abr-send"' in _dashboard(client, event)
    _send(client, event)
    page = _dashboard(client, event)
    assert "already sent to ABR" in page and 'id="abr-send"' not in page
    assert sender.send_due(app) == 0 and len(abr.received) == 1 and len(_rows(event)) == 1


def test_a_correction_says_what_to_do_on_abr_never_that_it_replaced_anything(app, client, event, abr):
    _send(client, event)
    sender.send_due(app)
    [first] = _rows(event)
    _rename(event, "Ann", "Anne")
    page = _dashboard(client, event)
    assert "Send the corrected results" in page and f"(code {first.code})" in page
    assert "ABR keeps them as a new file under a new code" in page and "replace" not in page.replace(
        "replaces nothing", "").replace("replaced nothing", "")
    response = client.post(f"/tournaments/{event.id}/abr", follow_redirects=True)
    assert "replacing nothing on ABR" in response.get_data(as_text=True)
    first_row, second = _rows(event)
    assert second.state == "queued" and second.replaces_id == first.id and second.digest != first.digest
    assert "it replaces nothing on ABR" in _dashboard(client, event)
    sender.send_due(app)
    first_row, second = _rows(event)
    assert second.state == "sent" and first_row.state == "sent" and len(abr.received) == 2
    assert second.code != first.code and len(abr.stored) == 2  # ABR keeps both files
    page = _dashboard(client, event)
    assert "It replaced" not in page and "ABR kept this as a new file and replaced nothing" in page
    assert (f"if you entered code {first.code}" in page and "revert the event's conclusion and clear the claims"
            in page and f"then enter code {second.code}" in page)
    history = client.get(f"/tournaments/{event.id}/abr").get_data(as_text=True)
    assert "replaces the upload" not in history and f"beside the upload of" in history


def test_a_newer_version_supersedes_one_still_waiting(app, client, event, abr):
    app.config["ABR_URL"] = _dead_url()
    _send(client, event)
    sender.send_due(app)
    _rename(event, "Ann", "Anne")
    _send(client, event)
    old, new = _rows(event)
    assert old.state == "superseded" and new.state == "queued"


def test_with_the_abr_event_given_the_file_still_does_not_name_it_and_the_panel_links_it(app, client, event, abr):
    event.abr_id = 1234
    db.session.commit()
    _send(client, event)
    sender.send_due(app)
    [row] = _rows(event)
    assert "abrTournamentId" not in abr.received[0]["file"]  # ABR would refuse it (403) and tell nobody the code
    assert row.state == "sent" and len(row.code) == 6 and row.abr_url == ""
    page = _dashboard(client, event)
    assert f'value="{row.code}"' in page and "ABR concludes it itself" not in page
    assert f'<a href="{abr.url}/tournaments/1234" rel="noopener" class="abr-event-page">your event on ABR</a>' in page
    assert "SASS only links it; ABR is not sent the number" in page


def test_an_upload_queued_by_an_older_sass_with_the_abr_event_leaves_without_it(app, client, event, abr):
    _send(client, event)
    [row] = _rows(event)
    row.body = json.dumps({**json.loads(row.body), "abrTournamentId": 1234})  # as an older SASS queued it
    db.session.commit()
    sender.send_due(app)
    assert _rows(event)[0].state == "sent" and "abrTournamentId" not in abr.received[0]["file"]


# --- offline, and everything that may answer instead of ABR -------------------------------------------------------

def test_offline_it_waits_then_sends_by_itself_once_abr_answers_even_after_a_restart(
        app, client, event, database_uri, abr):
    app.config["ABR_URL"] = _dead_url()
    _send(client, event)
    sender.send_due(app)
    [row] = _rows(event)
    assert row.state == "queued" and row.attempts == 1 and "could not be reached" in row.last_error
    assert 0 < uploads.wait_seconds(row) <= 5
    page = _dashboard(client, event)
    assert "Not sent after 1 try: ABR could not be reached" in page and "tries again by itself" in page
    assert sender.send_due(app) == 0  # not due yet: no hammering
    _due_now(event)
    sender.send_due(app)
    assert _rows(event)[0].attempts == 2 and 5 < uploads.wait_seconds(_rows(event)[0]) <= 10

    # the laptop restarts (a new process: a new app on the same database), and the venue's internet comes back
    restarted = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri, "ABR_URL": abr.url,
                            "ABR_USER": USER, "ABR_PASSWORD": PASSWORD})
    _due_now(event)
    assert sender.send_due(restarted) == 1
    [row] = _rows(event)
    assert row.state == "sent" and row.attempts == 3 and len(abr.received) == 1
    assert sender.send_due(restarted) == 0 and len(abr.received) == 1


@pytest.mark.parametrize("mode, words", [
    ("500", "HTTP 500"), ("html", "not ABR's"), ("huge", "far longer than ABR's"), ("hang", "did not answer within"),
    ("drip", "did not answer within")])
def test_whatever_answers_instead_of_abr_the_upload_waits_and_says_why(app, client, event, abr, mode, words):
    abr.mode = mode
    app.config["ABR_TIMEOUT_SECONDS"] = 1
    _send(client, event)
    started = time.monotonic()
    sender.send_due(app)
    assert time.monotonic() - started < 4  # the budget holds, whatever the other end does
    [row] = _rows(event)
    body = row.body
    assert row.state == "queued" and words in row.last_error and row.attempts == 1
    page = _dashboard(client, event)
    assert 'data-state="queued"' in page and words.replace("'", "&#39;") in page
    # once ABR itself answers, the same file goes out (nothing lost, nothing rebuilt)
    abr.mode = "abr"
    _due_now(event)
    sender.send_due(app)
    [row] = _rows(event)
    assert row.state == "sent" and row.body == body and abr.received[-1]["file"] == json.loads(body)


@pytest.mark.parametrize("mode, words", [
    ("moved", "ABR_URL is redirected (HTTP 301) to https://alwaysberunning.net/api/nrtm: SASS sends no results "
              "through a redirect. Set ABR_URL to https://alwaysberunning.net and send again."),
    ("redirect", "redirected SASS (HTTP 302) to http://login.example/portal, which is not ABR&#39;s upload address")])
def test_a_redirect_is_refused_once_with_the_address_not_tried_again(app, client, event, abr, mode, words):
    abr.mode = mode
    _send(client, event)
    sender.send_due(app)
    [row] = _rows(event)
    assert row.state == "failed" and row.attempts == 1 and abr.requests == 1
    _due_now(event)
    assert sender.send_due(app) == 0 and abr.requests == 1  # never tried again by itself
    page = _dashboard(client, event)
    assert 'data-state="failed"' in page and words in page and "Send again" in page
    assert "download the NRTM file" in page


def test_abr_forbidding_the_upload_is_said_as_it_is(app, client, event, abr, monkeypatch):
    monkeypatch.setattr(uploads, "wire", lambda body: json.dumps({**json.loads(body), "abrTournamentId": 1234}))
    _send(client, event)
    sender.send_due(app)  # a file naming the event, as ABR forbids from a server
    [row] = _rows(event)
    assert row.state == "failed" and row.code == "" and "forbade this upload (HTTP 403)" in row.last_error
    page = _dashboard(client, event)
    assert "ABR did not take the results" in page and "ABR_PASSWORD" not in page.split('id="abr-no-login"')[0]


def test_a_slow_abr_within_the_budget_is_fine(app, client, event, abr):
    abr.mode, abr.delay = "slow", 0.5
    _send(client, event)
    sender.send_due(app)
    assert _rows(event)[0].state == "sent"


def test_a_refused_login_fails_in_words_without_showing_it_and_sending_again_retries(
        app, client, event, caplog):
    caplog.set_level(logging.DEBUG)
    secret = "s3cret-abr-password"
    with StandIn(password="right-one") as standin:
        app.config.update(ABR_URL=standin.url, ABR_USER=USER, ABR_PASSWORD=secret)
        _send(client, event)
        sender.send_due(app)
        [row] = _rows(event)
        assert row.state == "failed" and "did not accept this server's login" in row.last_error
        page = _dashboard(client, event)
        assert "ABR did not take the results" in page and "Send again" in page and secret not in page
        assert "download the NRTM file and give it to your event&#39;s Conclude form on ABR" in page
        assert secret not in caplog.text and secret not in row.last_error
        app.config["ABR_PASSWORD"] = "right-one"
        _send(client, event)  # the same file: its row goes back in the queue
        [row] = _rows(event)
        assert row.state == "queued" and row.attempts == 0
        sender.send_due(app)
        assert _rows(event)[0].state == "sent"
        assert standin.received[0]["headers"]["Authorization"].startswith("Basic ")


def test_an_upload_queued_before_the_login_was_removed_is_refused_without_one(app, client, event, abr):
    _send(client, event)
    app.config["ABR_PASSWORD"] = ""  # the server's admin took the login away meanwhile
    sender.send_due(app)
    [row] = _rows(event)
    assert row.state == "failed" and "this server has none" in row.last_error and abr.received == []


def test_the_sender_thread_sends_a_queued_upload_by_itself(app, client, event, abr):
    thread = sender.start(app)
    try:
        _send(client, event)
        deadline = time.monotonic() + 20
        while _rows(event)[0].state != "sent" and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _rows(event)[0].state == "sent" and len(abr.received) == 1
    finally:
        sender.stop(app)
    assert not thread.is_alive()


def test_a_scorekeeper_sees_no_button_and_cannot_send(app, client, make_user, make_tournament, login, abr):
    from app.models import Staff
    owner = make_user()
    t = make_tournament(owner, planned_rounds=1)
    a, b = add_players(t, ["Ann", "Ben"])
    add_round(t, 1, [(a, b, "corp")])
    scorer = make_user("score@example.com")
    db.session.add(Staff(tournament_id=t.id, user_id=scorer.id, role="scorekeeper"))
    db.session.commit()
    login("score@example.com")
    assert 'id="abr"' not in _dashboard(client, t)
    assert client.post(f"/tournaments/{t.id}/abr").status_code == 403
    assert _rows(t) == []


def test_a_server_starts_its_sender_with_its_first_request(app, client):
    before = set(threading.enumerate())  # another test's app in this process may run a sender of its own

    def senders():
        return [t for t in threading.enumerate() if t.name == "abr-sender" and t not in before]

    app.testing = False  # as served by gunicorn: the first request of the process starts the thread
    try:
        client.get("/login")
        threads = senders()
        assert len(threads) == 1 and threads[0].is_alive()
        client.get("/login")
        assert senders() == threads
    finally:
        sender.stop(app)
        app.testing = True
    assert not threads[0].is_alive()
    app.config["ABR_SENDER"] = False
    client.get("/login")
    assert not senders()


@pytest.mark.slow
def test_deleting_the_event_takes_its_uploads_with_it(app, client, event, abr):
    _send(client, event)
    sender.send_due(app)
    _rename(event, "Ann", "Anne")  # a second version, a new file beside the first
    _send(client, event)
    assert [r.replaces_id for r in _rows(event)] == [None, _rows(event)[0].id]
    response = client.post(f"/tournaments/{event.id}/delete", data={"confirm": "y"})
    assert response.status_code == 302
    assert db.session.scalar(sa.select(sa.func.count()).select_from(AbrUpload)) == 0


def test_no_test_app_points_at_the_real_abr(app):
    assert app.config["ABR_URL"] == "http://127.0.0.1:9"  # tests/conftest.py: the stand-in or nothing

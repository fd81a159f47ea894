"""Results to AlwaysBeRunning (app/services/abr/, app/web/views/abr.py) against a stand-in of ABR on 127.0.0.1
(tests/abr_standin.py): queued by the TO's click, sent by the sender, never twice for one version of the file,
and every answer (refusal, no connection, timeout, error page, captive portal, huge body, hang) a clear state on
the dashboard, with nothing lost."""
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
from abr_standin import StandIn
from cut_helpers import add_players, add_round

from app import create_app
from app.extensions import db
from app.models import AbrUpload, Player, utcnow
from app.services.abr import contract, sender, uploads
from app.services.abr.client import post


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
    with StandIn(events={1234}) as standin:
        app.config.update(ABR_URL=standin.url, ABR_TIMEOUT_SECONDS=2)
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


@pytest.mark.parametrize("status, body, outcome, words", [
    (200, b'{"code": 123456, "status": "JSON successfully stored."}', "sent", ""),
    (200, b'{"url": "https://alwaysberunning.net/tournaments/7/x", "code": 42, "status": "ok"}', "sent", ""),
    (200, b'{"code": 654321, "error": "Tournament with ID 9 not found."}', "sent", "not found"),
    (200, b'{"error": ["Player \'A\' has no corp identity."]}', "refused", "has no corp identity"),
    (200, b'{"error": "File upload failed."}', "refused", "File upload failed"),
    (200, b'{}', "refused", "without a conclusion code"),
    (200, b'<html>Wi-Fi</html>', "retry", "not ABR's"),
    (200, b'[1, 2]', "retry", "another shape"),
    (500, b'<html>Whoops</html>', "retry", "HTTP 500"),
    (503, b'', "retry", "HTTP 503"),
    (302, b'', "retry", "Wi-Fi login page"),
    (401, b'Unauthorized.', "refused", "ABR_PASSWORD"),
    (404, b'', "refused", "HTTP 404"),
])
def test_each_answer_of_abr_means_one_thing(status, body, outcome, words):
    answer = contract.interpret(status, body)
    assert answer.outcome == outcome and words in answer.words
    if outcome == "sent":
        assert answer.code.isdigit()


def test_the_back_off_grows_to_a_cap():
    waits = [contract.backoff(n) for n in range(1, 12)]
    assert waits == sorted(waits) and waits[0] == 5 and max(waits) == 90


def test_the_stand_in_refuses_a_bad_file_as_abr_does():
    with StandIn(events={7}) as standin:
        bad = json.dumps({"abrTournamentId": 7, "players": [{"name": "Ann"}]}).encode()
        answer = post(standin.url, bad, 5, 65536)
        assert answer.outcome == "refused" and "'Ann' has no corp identity" in answer.words
        assert post(standin.url, b"not json", 5, 65536).outcome == "retry"  # ABR's error page
        missing = post(standin.url, json.dumps({"abrTournamentId": 8, "players": []}).encode(), 5, 65536)
        assert missing.outcome == "sent" and len(missing.code) == 6 and "8 not found" in missing.words


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

def test_an_event_not_over_cannot_be_sent(app, client, make_user, make_tournament, login, abr):
    t = make_tournament(make_user(), planned_rounds=3)
    a, b = add_players(t, ["Ann", "Ben"])
    add_round(t, 1, [(a, b, "corp")])
    login()
    assert "The button appears once the event is over" in _dashboard(client, t)
    _send(client, t)
    assert "not over yet" in _dashboard(client, t) and _rows(t) == []


def test_the_click_queues_and_the_sender_sends_once(app, client, event, abr):
    page = _dashboard(client, event)
    assert 'data-state="not-sent"' in page and 'id="abr-send"' in page
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
    page = _dashboard(client, event)
    assert 'data-state="sent"' in page and f'value="{row.code}"' in page and 'data-copy=' in page
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


def test_a_correction_is_sent_again_and_says_what_it_replaces(app, client, event, abr):
    _send(client, event)
    sender.send_due(app)
    [first] = _rows(event)
    player = db.session.scalar(sa.select(Player).filter_by(tournament_id=event.id, name="Ann"))
    player.name = "Anne"  # the TO corrects a name
    db.session.commit()
    page = _dashboard(client, event)
    assert "Send the corrected results" in page and f"(code {first.code})" in page
    _send(client, event)
    first_row, second = _rows(event)
    assert second.state == "queued" and second.replaces_id == first.id and second.digest != first.digest
    assert "It will replace the upload of" in _dashboard(client, event)
    sender.send_due(app)
    first_row, second = _rows(event)
    assert second.state == "sent" and first_row.state == "sent" and len(abr.received) == 2
    page = _dashboard(client, event)
    assert "It replaced the upload of" in page and f"(code {first.code})" in page


def test_a_newer_version_supersedes_one_still_waiting(app, client, event):
    app.config["ABR_URL"] = _dead_url()
    _send(client, event)
    sender.send_due(app)
    event.abr_id = 99  # a setting that changes the file
    db.session.commit()
    _send(client, event)
    old, new = _rows(event)
    assert old.state == "superseded" and new.state == "queued" and new.abr_id == 99


def test_with_the_abr_event_given_abr_concludes_it(app, client, event, abr):
    event.abr_id = 1234
    db.session.commit()
    _send(client, event)
    sender.send_due(app)
    [row] = _rows(event)
    assert abr.received[0]["file"]["abrTournamentId"] == 1234
    assert row.state == "sent" and row.code == "42" and row.abr_url.endswith("/tournaments/1234/concluded")
    assert "ABR concluded the event itself" in _dashboard(client, event)


def test_an_abr_event_abr_does_not_know_still_gives_a_code(app, client, event, abr):
    event.abr_id = 555
    db.session.commit()
    _send(client, event)
    sender.send_due(app)
    [row] = _rows(event)
    assert row.state == "sent" and len(row.code) == 6 and "555 not found" in row.note
    page = _dashboard(client, event)
    assert "conclude the event on ABR with the code" in page and f'value="{row.code}"' in page


# --- offline, and everything that may answer instead of ABR -------------------------------------------------------

def test_offline_it_waits_then_sends_by_itself_once_abr_answers_even_after_a_restart(
        app, client, event, database_uri):
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
    with StandIn() as standin:
        restarted = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri, "ABR_URL": standin.url})
        _due_now(event)
        assert sender.send_due(restarted) == 1
        [row] = _rows(event)
        assert row.state == "sent" and row.attempts == 3 and len(standin.received) == 1
        assert sender.send_due(restarted) == 0 and len(standin.received) == 1


@pytest.mark.parametrize("mode, words", [
    ("500", "HTTP 500"), ("html", "not ABR's"), ("huge", "far longer than ABR's"), ("hang", "did not answer within"),
    ("drip", "did not answer within"), ("redirect", "Wi-Fi login page")])
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


def test_a_slow_abr_within_the_budget_is_fine(app, client, event, abr):
    abr.mode, abr.delay = "slow", 0.5
    _send(client, event)
    sender.send_due(app)
    assert _rows(event)[0].state == "sent"


def test_a_refused_credential_fails_in_words_without_showing_it_and_sending_again_retries(
        app, client, event, caplog):
    caplog.set_level(logging.DEBUG)
    secret = "s3cret-abr-password"
    with StandIn(password="right-one") as standin:
        app.config.update(ABR_URL=standin.url, ABR_PASSWORD=secret)
        _send(client, event)
        sender.send_due(app)
        [row] = _rows(event)
        assert row.state == "failed" and "ABR_PASSWORD" in row.last_error
        page = _dashboard(client, event)
        assert "ABR did not take the results" in page and "Send again" in page and secret not in page
        assert secret not in caplog.text and secret not in row.last_error
        app.config["ABR_PASSWORD"] = "right-one"
        _send(client, event)  # the same file: its row goes back in the queue
        [row] = _rows(event)
        assert row.state == "queued" and row.attempts == 0
        sender.send_due(app)
        assert _rows(event)[0].state == "sent"
        assert standin.received[0]["headers"]["Authorization"].startswith("Basic ")


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


def test_deleting_the_event_takes_its_uploads_with_it(app, client, event, abr):
    _send(client, event)
    sender.send_due(app)
    event.abr_id = 77  # a second version, which replaces the first
    db.session.commit()
    _send(client, event)
    assert [r.replaces_id for r in _rows(event)] == [None, _rows(event)[0].id]
    response = client.post(f"/tournaments/{event.id}/delete", data={"confirm": "y"})
    assert response.status_code == 302
    assert db.session.scalar(sa.select(sa.func.count()).select_from(AbrUpload)) == 0


def test_no_test_app_points_at_the_real_abr(app):
    assert app.config["ABR_URL"] == "http://127.0.0.1:9"  # tests/conftest.py: the stand-in or nothing

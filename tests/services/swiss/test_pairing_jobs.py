"""Pairing in the background (services/swiss/pairing_jobs.py, views/pairing_jobs.py): the POST answers at once, the TO's
page follows the job to the new round, a second click follows the same job, a failure shows the engine's message
with nothing written, and a job whose worker died can be started again."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from flask import current_app

from app.extensions import db
from app.models import PairingJob, Round, Seat, utcnow
from tests.web.views.test_rounds import count, matches, pair, report_all, setup_event


@pytest.fixture(autouse=True)
def always_in_background(app):
    app.config["PAIRING_BACKGROUND_FROM"] = 0  # every field pairs in the background here


def follow(client, t, number, timeout=60.0):
    """GET the job page until it stops asking to be refreshed; returns the last response."""
    deadline = time.monotonic() + timeout
    while True:
        r = client.get(f"/tournaments/{t.id}/rounds/{number}/pairing")
        if r.status_code != 200 or "Refresh" not in r.headers or time.monotonic() > deadline:
            return r
        assert r.headers["Refresh"] == "2" and r.headers["Cache-Control"] == "no-store"
        time.sleep(0.05)


def test_the_post_starts_a_job_and_the_page_follows_it_to_the_round(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=9)
    r = pair(client, t, 1)
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/tournaments/{t.id}/rounds/1/pairing")
    done = follow(client, t, 1)
    assert done.status_code == 303 and done.headers["Location"].endswith(f"/tournaments/{t.id}/rounds/1")
    page = client.get(done.headers["Location"]).get_data(as_text=True)
    assert "Round 1 is paired" in page and "The engine's pairing: certified optimal." in page
    assert count(Seat, tournament_id=t.id) == 9 and count(PairingJob, tournament_id=t.id, state="done") == 1
    db.session.expire_all()
    assert db.session.query(Round).filter_by(tournament_id=t.id).one().certified is True


def test_a_second_click_follows_the_running_job(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=8)
    db.session.add(PairingJob(tournament_id=t.id, number=1, state="running", progress="Pairing round 1: 8 players."))
    db.session.commit()
    for _ in range(2):
        r = pair(client, t, 1)
        assert r.status_code == 303 and r.headers["Location"].endswith("/rounds/1/pairing")
    page = client.get(r.headers["Location"])
    assert page.status_code == 200 and page.headers["Refresh"] == "2"
    assert "Pairing round 1: 8 players." in page.get_data(as_text=True)
    assert count(PairingJob, tournament_id=t.id) == 1 and count(Round, tournament_id=t.id) == 0


def test_a_job_whose_worker_died_can_be_started_again(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=8)
    long_ago = utcnow() - timedelta(minutes=10)
    db.session.add(PairingJob(tournament_id=t.id, number=1, state="running", progress="Pairing round 1.",
                              started_at=long_ago, updated_at=long_ago))
    db.session.commit()
    page = client.get(f"/tournaments/{t.id}/rounds/1/pairing")
    assert "Refresh" not in page.headers and "its worker went away" in page.get_data(as_text=True)
    assert pair(client, t, 1).status_code == 303
    assert follow(client, t, 1).status_code == 303
    assert count(Round, tournament_id=t.id) == 1 and count(PairingJob, tournament_id=t.id) == 1


def test_a_failed_pairing_shows_the_engines_message_and_writes_nothing(make_user, make_tournament, login):
    """Double-sided swiss forbids rematches: two players who met cannot be paired again."""
    client, t, (a, b) = setup_event(make_user, make_tournament, login, n=2, fmt="double")
    assert pair(client, t, 1).status_code == 303 and follow(client, t, 1).status_code == 303
    report_all(client, t, 1, "6-0")
    assert pair(client, t, 2).status_code == 303
    failed = follow(client, t, 2)
    page = failed.get_data(as_text=True)
    assert failed.status_code == 200 and "Refresh" not in failed.headers
    assert "Round 2 was not paired" in page and "cannot be paired" in page and "Ann" in page and "Ben" in page
    assert "Try pairing round 2 again" in page
    assert count(Round, tournament_id=t.id) == 1 and count(Seat, tournament_id=t.id) == 2
    # trying again runs the engine again (a new job), with the same honest answer
    assert pair(client, t, 2).status_code == 303
    assert "Round 2 was not paired" in follow(client, t, 2).get_data(as_text=True)
    assert count(PairingJob, tournament_id=t.id, number=2) == 1


def test_small_fields_still_pair_in_the_request(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=8)
    current_app.config["PAIRING_BACKGROUND_FROM"] = 500
    r = pair(client, t, 1)
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/tournaments/{t.id}/rounds/1")
    assert count(PairingJob, tournament_id=t.id) == 0


def test_an_uncertified_round_says_how_far_from_optimal_it_may_be(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=8)
    current_app.config["PAIRING_BACKGROUND_FROM"] = 500
    pair(client, t, 1)
    rnd = db.session.query(Round).filter_by(tournament_id=t.id).one()
    rnd.certified, rnd.gap = False, "11/3"
    db.session.commit()
    page = client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert "The engine's pairing: within 3.67 of optimal" in page
    rnd.gap = "4"
    db.session.commit()
    assert "within 4 of optimal" in client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)


def test_a_hand_edit_ends_the_engines_claim(make_user, make_tournament, login):
    """The proof was about the engine's pairing: after a swap by hand the round page no longer quotes it."""
    client, t, players = setup_event(make_user, make_tournament, login, n=8)
    current_app.config["PAIRING_BACKGROUND_FROM"] = 500
    pair(client, t, 1)
    assert "certified optimal" in client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    (first, _), (second, _) = [(m, s) for m, s in matches(t, 1)][:2]
    a, b = first.seats[0].player_id, second.seats[0].player_id
    r = client.post(f"/tournaments/{t.id}/rounds/1/edit", data={"action": "swap", "first": a, "second": b})
    assert r.status_code == 303
    page = client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert "The engine's pairing" not in page
    db.session.expire_all()
    assert db.session.query(Round).filter_by(tournament_id=t.id).one().certified is None

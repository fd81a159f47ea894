"""`flask push-send`: the push sender as a process of its own (deploy/systemd/sass-push.service) finds what a
worker's publish queued without being woken, sends it, and stops on SIGTERM; with push off it says so and ends."""
from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from push_standin import PushStandIn
from py_vapid import Vapid02

from app.extensions import db
from app.models import Player
from app.services.players import player_links
from app.services.push import sender


@pytest.fixture
def standin():
    service = PushStandIn()
    yield service
    service.close()


def _push_on(app, standin) -> None:
    key = Vapid02()
    key.generate_keys()
    app.config.update(PUSH="on", PUSH_SERVICES=(standin.origin,), VAPID_PRIVATE_KEY=key.private_pem().decode())


def test_push_send_finds_a_queued_round_by_looking_and_stops_on_sigterm(app, standin, make_user, make_tournament,
                                                                        login):
    _push_on(app, standin)
    owner = make_user()
    t = make_tournament(owner)
    players = [Player(tournament_id=t.id, name=name) for name in ("Ana", "Bo", "Cy", "Di")]
    db.session.add_all(players)
    db.session.commit()
    client = login()
    subs = [standin.subscribe() for _ in players]
    for p, sub in zip(players, subs, strict=True):
        assert app.test_client().post(f"/t/{t.slug}/p/{player_links.token(p)}/push", json=sub).status_code == 201
    assert client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1}).status_code == 303
    assert client.post(f"/tournaments/{t.id}/rounds/1/publish").status_code == 303
    assert standin.texts() == [] and sender.running(app) is None  # queued; no thread, and nothing wakes this one

    def stop_when_delivered():
        end = time.monotonic() + 30
        while len(standin.texts()) < len(players) and time.monotonic() < end:
            time.sleep(0.02)
        os.kill(os.getpid(), signal.SIGTERM)

    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    watcher = threading.Thread(target=stop_when_delivered, daemon=True)
    watcher.start()
    try:
        result = app.test_cli_runner().invoke(args=["push-send", "--poll-seconds", "0.2"])
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    watcher.join()
    assert result.exit_code == 0, result.output
    assert "looking every 0.2 s" in result.output
    assert sorted(m["body"].split(":")[0] for m in standin.texts()) == ["Round 1"] * len(players)


def test_push_send_with_push_off_says_so_and_ends(app):
    app.config.update(PUSH="off")
    result = app.test_cli_runner().invoke(args=["push-send"])
    assert result.exit_code == 0 and "push is off on this server" in result.output

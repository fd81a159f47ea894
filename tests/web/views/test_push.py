"""The push routes (app/web/views/push.py): the page's CSRF token, the service worker, the manifest, and the page
when push is off at a venue."""
from __future__ import annotations

import json

from app.extensions import db
from app.models import Player
from tests.services.push.conftest import (event, page, push_app, standin, subscribe,  # noqa: F401 (fixtures)
                                          vapid_key)


def test_subscribing_needs_the_pages_csrf_token(csrf_app, standin, vapid_key, make_user, make_tournament):
    csrf_app.config.update(PUSH="on", PUSH_SERVICES=(standin.origin,), VAPID_PRIVATE_KEY=vapid_key)
    owner = make_user()
    t = make_tournament(owner)
    player = Player(tournament_id=t.id, name="Ana")
    db.session.add(player)
    db.session.commit()
    phone = csrf_app.test_client()
    html = phone.get(page(t, player)).get_data(as_text=True)
    token = html.split('data-csrf="', 1)[1].split('"', 1)[0]
    sub = standin.subscribe()
    assert phone.post(page(t, player) + "/push", json=sub).status_code == 400
    assert phone.post(page(t, player) + "/push", json=sub, headers={"X-CSRFToken": token}).status_code == 201


def test_the_worker_and_manifest_are_served(push_app, make_user, make_tournament, login):
    _client, t, players = event(make_user, make_tournament, login)
    phone = push_app.test_client()
    worker = phone.get("/push-worker.js")
    assert worker.status_code == 200 and worker.headers["Service-Worker-Allowed"] == "/"
    assert "showNotification" in worker.get_data(as_text=True)
    manifest = phone.get(page(t, players[0]) + "/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    data = json.loads(manifest.get_data(as_text=True))
    assert data["start_url"] == page(t, players[0]) and data["display"] == "standalone"


def test_push_is_off_at_a_venue_and_the_page_says_so(app, make_user, make_tournament, login):
    _client, t, players = event(make_user, make_tournament, login)
    app.config.update(PUSH="auto", PUBLIC_URL="http://192.168.1.20:5000")
    phone = app.test_client()
    answer = subscribe(phone, t, players[0], {"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": {}})
    assert answer.status_code == 409 and "keep this page open" in answer.get_json()["error"]
    html = phone.get(page(t, players[0])).get_data(as_text=True)
    assert 'id="push-off"' in html and "Notify me" not in html

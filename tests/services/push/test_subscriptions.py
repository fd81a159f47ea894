"""A player's subscriptions (app/services/push/subscriptions.py): checked, allowed services only, their own."""
from __future__ import annotations

import sqlalchemy as sa

from app.extensions import db
from app.models import PushSubscription
from tests.services.push.conftest import event, page, subscribe


def test_subscriptions_are_checked_and_belong_to_their_player(push_app, standin, make_user, make_tournament,
                                                              login):
    _client, t, players = event(make_user, make_tournament, login)
    phone = push_app.test_client()
    good = standin.subscribe()
    elsewhere = dict(good, endpoint="http://10.0.0.1:8080/internal")
    answer = subscribe(phone, t, players[0], elsewhere)
    assert answer.status_code == 422 and "not one this server sends to" in answer.get_json()["error"]
    for bad in ({"endpoint": good["endpoint"]}, dict(good, keys={"p256dh": "AAAA", "auth": good["keys"]["auth"]}),
                [1, 2], "text"):
        assert subscribe(phone, t, players[0], bad).status_code == 422
    assert db.session.scalar(sa.select(sa.func.count()).select_from(PushSubscription)) == 0
    assert subscribe(phone, t, players[0], good).status_code == 201
    assert subscribe(phone, t, players[0], good).get_json() == {"subscribed": 1}  # the same device again
    assert phone.post(f"/t/{t.slug}/p/{players[1].id}.{'0' * 32}/push", json=good).status_code == 404
    # another player cannot stop it
    assert phone.post(page(t, players[1]) + "/push/stop", json={"endpoint": good["endpoint"]}
                      ).get_json()["stopped"] is False
    stopped = phone.post(page(t, players[0]) + "/push/stop", json={"endpoint": good["endpoint"]}).get_json()
    assert stopped == {"stopped": True, "subscribed": 0}

"""The stand-in push service's counting mode (a benchmark's hall): every message taken and counted, every Nth
decrypted and its VAPID signature checked, and a request without a VAPID header of the right form still refused."""
from __future__ import annotations

import json

import requests
from push_standin import PushStandIn

from app.services.push import outbox, sender


def test_every_message_is_counted_and_every_nth_is_read(push_app, vapid_key):
    standin = PushStandIn(verify_every=2)
    try:
        push_app.config["PUSH_SERVICES"] = (standin.origin,)
        subs = [standin.subscribe() for _ in range(4)]
        for k, sub in enumerate(subs):
            message = outbox.Outgoing(k, sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"],
                                      json.dumps({"title": "E", "body": f"Round 1: table {k + 1}.", "url": "/"}),
                                      "round", 600, 0)
            assert sender.send_one(push_app, message)[1] == 201
        assert [sid for sid, _ in standin.accepted] == [s["endpoint"].rsplit("/", 1)[1] for s in subs]
        assert [m["body"] for m in standin.texts()] == ["Round 1: table 2.", "Round 1: table 4."]
        forged = requests.post(subs[0]["endpoint"], data=b"x" * 200, timeout=5,
                               headers={"TTL": "60", "Content-Encoding": "aes128gcm", "Authorization": "WebPush x"})
        assert forged.status_code == 403 and len(standin.accepted) == 4
    finally:
        standin.close()

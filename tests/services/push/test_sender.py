"""One message's send (app/services/push/sender.py send_one): what the push service answered, and never a post to
an address off the allowed services."""
from __future__ import annotations

import base64
import json

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app.services.push import outbox, sender


def _message(subscription: dict, topic="round") -> outbox.Outgoing:
    return outbox.Outgoing(1, subscription["endpoint"], subscription["keys"]["p256dh"], subscription["keys"]["auth"],
                           json.dumps({"title": "E", "body": "Round 1: table 2, Corp against Ana.", "url": "/"}),
                           topic, 600, 0)


def test_each_answer_is_read_as_the_rfc_says(push_app, standin):
    sub = standin.subscribe()
    _, status, _ = sender.send_one(push_app, _message(sub))
    assert status == 201 and standin.texts(sub["endpoint"])[-1]["body"] == "Round 1: table 2, Corp against Ana."
    standin.answer_next(sub["endpoint"], 429, 500, 410)
    answers = [sender.send_one(push_app, _message(sub))[1:] for _ in range(3)]
    assert answers == [(429, 1.0), (500, None), (410, None)]
    assert [outbox.outcome(s) for s, _ in answers] == [outbox.RETRY, outbox.RETRY, outbox.GONE]


def test_nothing_is_posted_off_the_allowed_services(push_app, standin):
    sub = standin.subscribe()
    push_app.config["PUSH_SERVICES"] = ("https://fcm.googleapis.com",)  # narrowed since it subscribed
    before = len(standin.received) + len(standin.refused)
    assert sender.send_one(push_app, _message(sub))[1] == 400
    assert len(standin.received) + len(standin.refused) == before


def test_no_answer_is_tried_again(push_app):
    push_app.config["PUSH_SERVICES"] = ("http://127.0.0.1:9",)
    push_app.config["PUSH_TIMEOUT_SECONDS"] = 2
    message = outbox.Outgoing(1, "http://127.0.0.1:9/push/x", _valid_key(), "A" * 22, "{}", "round", 60, 0)
    assert sender.send_one(push_app, message)[1] is None
    assert outbox.outcome(None) == outbox.RETRY


def _valid_key() -> str:
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()

"""What a push message says, and where a subscription may make the server post (app/core/push_messages.py)."""
from __future__ import annotations

import pytest

from app.core import push_messages as words

SERVICES = ("https://fcm.googleapis.com", "https://updates.push.services.mozilla.com", "https://web.push.apple.com",
            "https://*.notify.windows.com", "http://127.0.0.1:8123")


@pytest.mark.parametrize("endpoint", [
    "https://fcm.googleapis.com/fcm/send/abc:APA91b",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
    "https://web.push.apple.com/QGuQyavXutnMWgsaxnfbW",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
    "https://FCM.googleapis.com./fcm/send/x",
    "http://127.0.0.1:8123/push/x",
])
def test_the_browsers_push_services_are_allowed(endpoint):
    assert words.allowed_endpoint(endpoint, SERVICES)


@pytest.mark.parametrize("endpoint", [
    "https://fcm.googleapis.com.evil.example/x",  # a look-alike host
    "https://evil.example/fcm.googleapis.com",
    "http://fcm.googleapis.com/fcm/send/x",  # not https
    "https://fcm.googleapis.com:8443/x",  # another port
    "https://user:pw@fcm.googleapis.com/x",
    "https://notify.windows.com/x",  # the wildcard needs a subdomain
    "https://10.0.0.1/x", "http://127.0.0.1:8124/push/x", "http://localhost:8123/push/x",
    "file:///etc/passwd", "javascript:alert(1)", "", "https://[::1", "not a url",
])
def test_anything_else_is_refused(endpoint):
    assert not words.allowed_endpoint(endpoint, SERVICES)


def test_a_round_in_the_players_words():
    m = words.round_published("Store Champs", 3, 12, "Corp", "Ana", 65)
    assert m.body == "Round 3: table 12, Corp against Ana." and m.title == "Store Champs"
    assert m.ttl == 65 * 60 and m.topic == "round"
    assert words.round_published("X", 2, 4, None, "Bo", None).body == "Round 2: table 4 against Bo."
    assert words.round_published("X", 2, None, None, None, 50).body == "Round 2: you have a bye."


def test_each_kind_has_a_short_topic_and_a_bounded_life():
    made = [words.round_published("E", 1, 1, "Runner", "A", 65), words.report_waiting("E", 1, "A"),
            words.time_called("E", 1), words.judge_on_the_way("E", "Jo", 5), words.place_freed("E"),
            words.cut_published("E", 2, 8, 3, "A")]
    assert len({m.topic for m in made}) == len(made)
    for m in made:
        assert len(m.topic) <= 32 and m.topic.isalnum()  # RFC 8030: URL-safe base64 alphabet
        assert 0 < m.ttl <= 12 * 3600 and len(m.body) <= 120
    assert words.cut_published("E", 2, 8, 3, "Ana").body == "You made the top 8, seed 2. First game: table 3 against Ana."
    assert words.judge_on_the_way("E", None, None).body == "A judge is on the way."

"""Every poll that answers 304 compares If-None-Match weakly (RFC 9110 13.1.2, app/web/conditional.py): the tag
it sent, the same tag made weak (nginx weakens an ETag when it gzips: deploy/nginx-sass.conf), a list naming it
and `*` are all a 304; another tag, strong or weak, is the full answer."""
from __future__ import annotations

import pytest
from tests.services.results.test_participation import link, published_round, table
from tests.web.views.test_rounds import setup_event


@pytest.fixture
def polls(make_user, make_tournament, login, app):
    """The TO's client, a player's phone, and the six polls' addresses with the client that asks each."""
    to, t, _ = setup_event(make_user, make_tournament, login, n=4)
    published_round(to, t)
    _, corp, _ = table(t)
    phone = app.test_client()
    assert phone.get(link(t, corp)).status_code == 200
    return [(to, f"/tournaments/{t.id}/rounds/1/live"), (to, f"/tournaments/{t.id}/rounds/1/live?edit=results"),
            (to, f"/tournaments/{t.id}/players/live"), (to, f"/tournaments/{t.id}/judge-calls/live"),
            (phone, f"{link(t, corp)}/live"), (phone, f"{link(t, corp)}/judge")]


def test_every_poll_compares_its_etag_weakly(polls):
    for client, url in polls:
        first = client.get(url)
        assert first.status_code == 200, url
        tag = first.headers["ETag"]
        assert tag.startswith('"'), url  # the app's tags are strong; nginx may weaken them on the way
        for sent in (tag, f"W/{tag}", f'"something-else", W/{tag}', "*"):
            answer = client.get(url, headers={"If-None-Match": sent})
            assert answer.status_code == 304 and answer.headers["ETag"] == tag, (url, sent)
            assert not answer.get_data(), (url, sent)
        for sent in ('"something-else"', 'W/"something-else"', f'"{tag[1:-1]}x"'):
            assert client.get(url, headers={"If-None-Match": sent}).status_code == 200, (url, sent)

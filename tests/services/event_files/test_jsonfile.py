"""JSON from outside is bounded before it is parsed (app/services/event_files/jsonfile.py `loads`, `check_bounds`):
a deeply nested or oversized answer of NetrunnerDB (sign-in, deck fetch), of AlwaysBeRunning, or an uploaded file
is a clear message and changes nothing, never a RecursionError (a 500)."""
from __future__ import annotations

import html
import io
from urllib.parse import urlsplit

import pytest
import requests
import sqlalchemy as sa

from app.extensions import db
from app.models import NrdbAccount, Tournament
from app.services.abr import contract
from app.services.event_files import jsonfile
from app.services.nrdb import decks
from app.web import nrdb_oauth
from nrdb_standin import PUBLIC, Standin, running

CLIENT_ID, SECRET = "sass-test-client", "s3cret-of-the-client"
DEEP = b"[" * 100_000 + b"]" * 100_000  # Python's parser gives up near a thousand levels (RecursionError)
DEEP_OBJECT = b'{"data":' * 5_000 + b"1" + b"}" * 5_000


def test_depth_counts_structure_not_strings():
    assert jsonfile.depth(b'{"a": [1, {"b": "[[[[{{"}], "c": "]]]"}') == 3
    assert jsonfile.depth('["\\"[", "\\\\", ["]"]]') == 2
    assert jsonfile.depth(DEEP) == 100_000
    assert jsonfile.depth(b"") == jsonfile.depth(b'"x"') == 0
    assert jsonfile.loads(b'{"a": [[["x"]]]}', 100) == {"a": [[["x"]]]}
    for data, most in ((DEEP, len(DEEP)), (DEEP_OBJECT, len(DEEP_OBJECT)), (b'["' + b"x" * 100 + b'"]', 50)):
        with pytest.raises(jsonfile.TooLarge):
            jsonfile.loads(data, most)
    just = b"[" * jsonfile.MAX_DEPTH + b"]" * jsonfile.MAX_DEPTH
    assert jsonfile.loads(just, len(just)) is not None
    with pytest.raises(jsonfile.TooLarge):
        jsonfile.loads(b"[" + just + b"]", len(just) + 2)


def test_an_uploaded_file_too_deep_is_a_clear_message():
    for data in (DEEP, DEEP_OBJECT):
        with pytest.raises(jsonfile.FileError, match="nested more than 64 deep"):
            jsonfile.parse(data)


def test_abr_answer_too_deep_is_tried_again():
    answer = contract.interpret(200, DEEP_OBJECT)
    assert answer.outcome == contract.RETRY and "nested" in answer.words


@pytest.fixture
def nrdb(app):
    standin = Standin(CLIENT_ID, SECRET, f"{PUBLIC}/nrdb/callback")
    with running(standin) as url:
        app.config.update(NRDB_URL=url, NRDB_CLIENT_ID=CLIENT_ID, NRDB_CLIENT_SECRET=SECRET, PUBLIC_URL=PUBLIC)
        standin.url = url
        yield standin


def _sign_in(client):
    start = client.get("/nrdb/sign-in?next=/")
    consent = requests.get(start.location, allow_redirects=False, timeout=10)
    parts = urlsplit(consent.headers["Location"])
    return client.get(f"{parts.path}?{parts.query}", follow_redirects=True)


@pytest.mark.parametrize("path", ["/oauth/v2/token", "/api/2.0/private/account/info"])
@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT, b'{"x": "' + b"y" * 200_000 + b'"}'],
                         ids=["deep-list", "deep-object", "huge"])
def test_a_deep_or_huge_netrunnerdb_answer_signs_nobody_in(app, client, nrdb, path, body):
    nrdb.raw[path] = body
    response = _sign_in(client)
    assert response.status_code == 200
    assert "not one SASS can read" in html.unescape(response.get_data(as_text=True))
    with client.session_transaction() as s:
        assert nrdb_oauth.SIGNED_IN not in s and nrdb_oauth.TOKEN not in s
    assert db.session.scalar(sa.select(sa.func.count(NrdbAccount.id))) == 0


def test_a_deep_deck_answer_is_a_fetch_error(app, nrdb):
    nrdb.raw["/api/2.0/public/decklist/1"] = DEEP
    with pytest.raises(decks.FetchError, match="nested more than 64 deep"):
        decks.get_json(nrdb.url + "/api/2.0/public/decklist/1")


def test_a_deep_backup_is_a_400_and_creates_nothing(client, make_user, login):
    make_user()
    login()
    response = client.post("/tournaments/restore", data={"file": (io.BytesIO(DEEP_OBJECT), "backup.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "nested more than 64 deep" in html.unescape(response.get_data(as_text=True))
    assert db.session.scalar(sa.select(sa.func.count(Tournament.id))) == 0

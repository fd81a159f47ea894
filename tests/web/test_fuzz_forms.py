"""Hostile bodies to every POST route of the app (walked from app.url_map, so a new route is fuzzed when it is
written), as the event's owner with a valid CSRF token, on the richest event the authorization walk builds
(tests/web/test_authz.py `_victim`): JSON bodies of numbers, objects and nested lists; 20-digit numbers, other
scripts' digits, very long text and NUL bytes in every field any form of the app has; 20-digit ids in the address.
None may answer 5xx (or raise). What a request changed is put back before the next, so every route meets the
event whole. On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set."""
from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
import sqlalchemy as sa
from werkzeug.routing import IntegerConverter
from wtforms.fields.core import UnboundField

import app.web.forms as forms_package
from app.extensions import db
from app.models import User
from tests.web.test_authz import PAYLOAD, Rows, _snapshot, _url, _victim

pytestmark = pytest.mark.slow

HUGE = "9" * 20
LONG = "x" * 20_000


def _field_names() -> set[str]:
    """Every field name of every form of the app, and the authorization walk's payload keys."""
    names = set(PAYLOAD)
    for info in pkgutil.iter_modules(forms_package.__path__):
        module = importlib.import_module(f"app.web.forms.{info.name}")
        for cls in vars(module).values():
            if isinstance(cls, type):
                names |= {n for n in dir(cls) if isinstance(getattr(cls, n, None), UnboundField)}
    names.discard("csrf_token")
    return names


def _bodies(fields: set[str]) -> list[tuple[str, dict]]:
    """(what, keyword arguments of client.post) for each hostile body."""
    every = sorted(fields)
    return [
        ("json numbers", {"json": {f: 10**20 for f in every}}),
        ("json objects and lists", {"json": {f: ({"a": [1, {"b": None}]} if i % 2 else [[[[1]]], 2.5, True])
                                             for i, f in enumerate(every)}}),
        ("json nested", {"json": [[[[[[{"name": [1]}]]]]]]}),
        ("20 digits", {"data": {f: HUGE for f in every}}),
        ("-20 digits", {"data": {f: "-" + HUGE for f in every}}),
        ("unicode digits", {"data": {f: ("٣" if i % 2 else "³") for i, f in enumerate(every)}}),
        ("long text", {"data": {f: LONG for f in every}}),
        ("NUL", {"data": {f: "1\x00" for f in every}}),
    ]


def _post_rules(app):
    return sorted((r for r in app.url_map.iter_rules() if "POST" in r.methods and r.endpoint != "static"),
                  key=lambda r: r.rule)


def _huge_ids(rule, ids: dict) -> dict:
    return {**ids, **{name: int(HUGE) for name, c in rule._converters.items() if isinstance(c, IntegerConverter)}}


def _owner_client(csrf_app, ids):
    owner = db.session.scalars(sa.select(User).filter_by(email="victim@example.com")).one()
    client = csrf_app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = owner.get_id()
        session["_fresh"] = True
    page = client.get(f"/tournaments/{ids['tid']}/players").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"', page)
    return client, token.group(1) or token.group(2)


def _send(client, url, token, kwargs) -> str | None:
    """The failure, if any: a 5xx, or an exception the app let through."""
    if "data" in kwargs:
        kwargs = {"data": {**kwargs["data"], "csrf_token": token}}
    try:
        response = client.post(url, headers={"X-CSRFToken": token}, **kwargs)
    except Exception as e:  # noqa: BLE001 (TESTING propagates a view's exception: that is the 500)
        return f"raised {type(e).__name__}: {str(e)[:120]}"
    return f"answered {response.status_code}" if response.status_code >= 500 else None


@pytest.mark.both_backends  # NUL bytes and 20-digit numbers meet each database's own types
def test_no_post_route_answers_5xx_to_hostile_bodies(csrf_app, make_user, make_tournament):
    csrf_app.config.update(NRDB_URL="http://127.0.0.1:9", NRDB_CLIENT_ID="fuzz", NRDB_CLIENT_SECRET="fuzz",
                           PUBLIC_URL="https://sass.example.org",
                           RATELIMIT_ENABLED=False)
    ids = _victim(make_user, make_tournament)
    client, token = _owner_client(csrf_app, ids)
    bodies = _bodies(_field_names())
    rules = _post_rules(csrf_app)
    assert len(rules) > 50
    failures = []
    with Rows() as rows:
        for rule in rules:
            url = _url(rule, ids)
            sends = [(what, url, kwargs) for what, kwargs in bodies]
            sends.append(("20-digit ids", _url(rule, _huge_ids(rule, ids)), {"data": PAYLOAD}))
            for what, target, kwargs in sends:
                failure = _send(client, target, token, kwargs)
                if failure:
                    failures.append(f"POST {target[:90]} ({rule.endpoint}) with {what}: {failure}")
                if rows.changed():
                    rows.put_back()
    assert not failures, "\n".join(failures)


def test_a_json_body_is_refused_whole(csrf_app, make_user, make_tournament):
    """A JSON body is no form: 415 and nothing changed, even with a valid token and valid values."""
    ids = _victim(make_user, make_tournament)
    client, token = _owner_client(csrf_app, ids)
    before = _snapshot()
    response = client.post(f"/tournaments/{ids['tid']}/players", headers={"X-CSRFToken": token},
                           json={"name": "Dee", "csrf_token": token})
    assert response.status_code == 415 and "takes a form, not JSON" in response.get_data(as_text=True)
    assert _snapshot() == before

"""Shared answers (app/web/shared_answers.py): every public address a proxy may keep answers the same bytes to
every visitor, whoever they are, and nothing of anyone's own; a device's own parts come from its private
answer (public.me)."""
from __future__ import annotations

import gzip
import re
from datetime import datetime, timezone

import pytest
from flask import session

from app.services.players import player_links
from app.web import shared_answers
from tests.web.views.test_public import live  # noqa: F401  (fixture)

SHARED = "public, max-age=1, stale-while-revalidate=2"
GZ = {"Accept-Encoding": "gzip"}


def addresses(slug: str) -> list[str]:
    return [f"/t/{slug}/pairings", f"/t/{slug}/pairings?q=an", f"/t/{slug}/rounds/1", f"/t/{slug}/rounds/2",
            f"/t/{slug}/standings", f"/t/{slug}/status.json", f"/api/tournaments/{slug}",
            f"/api/tournaments/{slug}/rounds", f"/api/tournaments/{slug}/rounds/1",
            f"/api/tournaments/{slug}/standings", f"/api/tournaments/{slug}/bracket", f"/t/{slug}/stream.json"]


def body(response) -> str:
    data = response.data
    return (gzip.decompress(data) if response.headers.get("Content-Encoding") == "gzip" else data).decode()


@pytest.fixture
def frozen(monkeypatch):
    """One moment for every request: the round's clock draws the same bytes for everyone."""
    moment = datetime(2026, 11, 26, 12, 0, 0, tzinfo=timezone.utc)
    from app.services.swiss import timer
    from app.web import template_helpers
    monkeypatch.setattr(template_helpers, "utcnow", lambda: moment)
    monkeypatch.setattr(timer, "utcnow", lambda: moment)
    return moment


def test_every_shared_answer_is_the_anonymous_one(live, app, frozen):
    """With a player's session and with an organizer's (each holding a flashed message), every public address
    answers public bytes identical to the anonymous answer: no player link, no form token, no menu, no message,
    no cookie set, no Vary: Cookie."""
    to, anon, t, players = live
    to.post(f"/tournaments/{t.id}/rounds/2/publish")
    assert to.post(f"/tournaments/{t.id}/rounds/2/timer/start", data={"minutes": 50}).status_code in (302, 303)
    dashboard = to.get(f"/tournaments/{t.id}").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', dashboard).group(1)
    phone = app.test_client()
    token = player_links.token(players[0])
    assert phone.get(f"/t/{t.slug}/p/{token}").status_code == 200
    for who in (phone, to):
        with who.session_transaction() as s:
            s["_flashes"] = [("success", "A message for this device only")]
    secrets = [token, csrf, "csrf_token", "Log out", "My tournaments", "A message for this device only", "you-banner",
               'class="me"', to.application.config["SECRET_KEY"]]
    for address in addresses(t.slug):
        for headers in ({}, GZ):
            base = anon.get(address, headers=headers)
            assert base.status_code == 200 and base.headers["Cache-Control"] == SHARED, address
            for who in (phone, to):
                r = who.get(address, headers=headers)
                assert r.headers["Cache-Control"] == SHARED, address
                assert r.data == base.data and r.headers["ETag"] == base.headers["ETag"], address
                assert "Set-Cookie" not in r.headers and "Cookie" not in r.headers.get("Vary", ""), address
                assert "Accept-Encoding" in r.headers.get("Vary", "") or address.endswith("status.json")
                text = body(r)
                assert not [s for s in secrets if s in text], address
    # the flashed messages were left for the device's own answer, which shows them once
    for who in (phone, to):
        answer = who.get(f"/t/{t.slug}/me.json?page=pairings")
        assert answer.headers["Cache-Control"] == "private, no-store"
        assert "A message for this device only" in answer.get_json()["flashes"]
        assert "flashes" not in who.get(f"/t/{t.slug}/me.json?page=pairings").get_json()
    assert token in phone.get(f"/t/{t.slug}/me.json?page=pairings").get_json()["you"]
    assert token not in str(to.get(f"/t/{t.slug}/me.json?page=pairings").get_json())
    assert csrf in to.get(f"/t/{t.slug}/me.json?page=pairings").get_json()["nav"]


@pytest.mark.own_app
def test_a_shared_answer_that_writes_the_session_turns_private(app):
    """Should anything write the session while a shared answer is made, the answer is this device's after all:
    private, with its cookie, and not kept by the proxy."""
    @app.get("/_writes-the-session")
    def writes():
        session["seen"] = True
        response = app.response_class("same for all?")
        response.headers["Cache-Control"] = shared_answers.SHARED
        return response

    r = app.test_client().get("/_writes-the-session", headers={"X-Proxy-Time": "1795000000.5"})
    assert r.headers["Cache-Control"] == "private, no-cache" and "Set-Cookie" in r.headers
    assert "X-Accel-Expires" not in r.headers


def test_behind_the_shipped_proxy_a_shared_answer_is_kept_until_the_proxys_second_ends(live, app):
    """nginx sends its clock (X-Proxy-Time, $msec); every shared answer, 304s included, tells it to keep its copy
    until that second ends, after Cache-Control (nginx reads its stale-while-revalidate only then). Without the
    header, or on a private answer, nothing is added."""
    to, anon, t, players = live
    to.post(f"/tournaments/{t.id}/rounds/2/publish")
    proxy = {"X-Proxy-Time": "1795000000.987"}
    for address in addresses(t.slug):
        r = anon.get(address, headers=proxy)
        names = [name.lower() for name, _ in r.headers]
        assert r.headers["X-Accel-Expires"] == "@1795000000", address
        assert names.index("cache-control") < names.index("x-accel-expires"), address
        again = anon.get(address, headers={**proxy, "If-None-Match": r.headers["ETag"]})
        assert again.status_code == 304 and again.headers["X-Accel-Expires"] == "@1795000000", address
        assert "X-Accel-Expires" not in anon.get(address).headers
        for nonsense in ("soon", "inf", "nan", "1e400"):
            answer = anon.get(address, headers={"X-Proxy-Time": nonsense})
            assert answer.status_code == 200 and "X-Accel-Expires" not in answer.headers, (address, nonsense)
    own = anon.get(f"/t/{t.slug}/me.json?page=pairings", headers=proxy)
    assert own.headers["Cache-Control"] == "private, no-store" and "X-Accel-Expires" not in own.headers
    token = player_links.token(players[0])
    assert "X-Accel-Expires" not in app.test_client().get(f"/t/{t.slug}/p/{token}/live", headers=proxy).headers


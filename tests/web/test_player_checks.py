"""A player's revalidated check is answered before Flask's request handling (app/web/player_checks.py): the same
304 the view gave, without opening the phone's session; everything else still reaches the view."""
from __future__ import annotations

import secrets

import sqlalchemy as sa

from tests.services.results.test_participation import link, published_round, table
from tests.web.views.test_rounds import setup_event

from app.extensions import db
from app.models import Player
from app.services.players import player_links, player_page
from app.web.headers import HEADERS


def _event(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    published_round(client, t)
    _, corp, runner = table(t)
    return client, t, runner


def _sessions_opened(app, monkeypatch) -> list:
    opened, real = [], app.session_interface.open_session
    monkeypatch.setattr(app.session_interface, "open_session",
                        lambda *args: opened.append(1) or real(*args))
    return opened


def test_a_revalidated_check_is_a_304_without_the_session(app, make_user, make_tournament, login, monkeypatch):
    _, t, runner = _event(app, make_user, make_tournament, login)
    phone = app.test_client()
    assert phone.get(link(t, runner)).status_code == 200  # the page: the phone holds its session cookie
    first = phone.get(f"{link(t, runner)}/live")
    assert first.status_code == 200 and phone.get_cookie("session") is not None
    etag = first.headers["ETag"]
    opened = _sessions_opened(app, monkeypatch)
    for sent in (etag, f"W/{etag}", f'"other", {etag}'):  # weakly, and in a list (RFC 9110)
        answer = phone.get(f"{link(t, runner)}/live", headers={"If-None-Match": sent})
        assert answer.status_code == 304 and answer.headers["ETag"] == etag
        assert answer.headers["Cache-Control"] == "private, no-cache"
        assert all(answer.headers[name] == value for name, value in HEADERS.items())
        assert "Set-Cookie" not in answer.headers and "Vary" not in answer.headers
    assert opened == []


def test_a_changed_check_reaches_the_view_with_the_facts_read_once(app, make_user, make_tournament, login,
                                                                   monkeypatch):
    _, t, runner = _event(app, make_user, make_tournament, login)
    phone = app.test_client()
    opened = _sessions_opened(app, monkeypatch)
    calls, real = [], player_page.version
    monkeypatch.setattr(player_page, "version", lambda *args: calls.append(1) or real(*args))
    answer = phone.get(f"{link(t, runner)}/live", headers={"If-None-Match": '"me-0-stale"'})
    assert answer.status_code == 200 and "me-card" in answer.get_json()["fragments"]
    assert len(calls) == 1 and opened == [1]  # read before Flask, used by the view


def test_a_changed_check_is_answered_on_the_connection_its_facts_were_read_on(app, make_user, make_tournament,
                                                                             login):
    """After a publish every phone's check is a changed one: the view goes on in the early read's app context and
    connection, rather than taking a second of each."""
    _, t, runner = _event(app, make_user, make_tournament, login)
    phone = app.test_client()
    db.session.remove()
    checkouts = []
    listen = lambda *args: checkouts.append(1)  # noqa: E731
    sa.event.listen(db.engine, "checkout", listen)
    try:
        answer = phone.get(f"{link(t, runner)}/live", headers={"If-None-Match": '"me-0-stale"'})
    finally:
        sa.event.remove(db.engine, "checkout", listen)
    assert answer.status_code == 200 and "me-card" in answer.get_json()["fragments"]
    assert checkouts == [1]


def test_only_a_current_link_gets_the_early_304(app, make_user, make_tournament, login, monkeypatch):
    """A bad or reissued link is the view's to refuse; a moved link's 304 comes from the view."""
    _, t, runner = _event(app, make_user, make_tournament, login)
    phone = app.test_client()
    old = link(t, runner)
    etag = phone.get(f"{old}/live").headers["ETag"]
    pid, mac = player_links.token(runner).split(".")
    forged = f"/t/{t.slug}/p/{pid}.{'0' * len(mac)}"
    assert phone.get(f"{forged}/live", headers={"If-None-Match": etag}).status_code == 404
    assert phone.get(f"/t/other-{t.slug}/p/{pid}.{mac}/live", headers={"If-None-Match": etag}).status_code == 404

    player = db.session.get(Player, runner.id)
    player.moved_link = player_links.digest(player_links.token(player))  # the link printed before a move
    player.link_key = secrets.token_hex(16)
    db.session.commit()
    opened = _sessions_opened(app, monkeypatch)
    assert phone.get(f"{old}/live", headers={"If-None-Match": etag}).status_code == 304 and opened  # the view's
    player = db.session.get(Player, runner.id)  # the request's read_only closed the test's session (shared here)
    player_links.reissue(player)
    db.session.commit()
    assert phone.get(f"{old}/live", headers={"If-None-Match": etag}).status_code == 404


def test_other_requests_are_the_apps(app, make_user, make_tournament, login):
    client, t, runner = _event(app, make_user, make_tournament, login)
    phone = app.test_client()
    status = phone.get(f"/t/{t.slug}/status.json")
    again = phone.get(f"/t/{t.slug}/status.json", headers={"If-None-Match": status.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] != "private, no-cache"
    etag = phone.get(f"{link(t, runner)}/live").headers["ETag"]
    assert phone.post(f"{link(t, runner)}/live", headers={"If-None-Match": etag}).status_code == 405
    assert phone.get(f"{link(t, runner)}/nothing", headers={"If-None-Match": etag}).status_code == 404

"""Sessions end when they should: log-out and a password change end every session and remembered login of the
account (a copied cookie is worthless afterwards); a login costs the same for a known and an unknown address."""
from __future__ import annotations

import pytest
import werkzeug.security

from app.extensions import db
from app.models import User

PASSWORD = "correct horse"


def _remember_cookie(client) -> str:
    cookie = client.get_cookie("remember_token")
    assert cookie is not None, "the login did not set a remember cookie"
    return cookie.value


def _logged_in(client) -> bool:
    response = client.get("/tournaments")
    assert response.status_code in (200, 302)
    return response.status_code == 200


def _copy_of(app, client, name):
    """A second browser holding a copy of one of `client`'s cookies (a stolen cookie)."""
    thief = app.test_client()
    thief.set_cookie(name, client.get_cookie(name).value)
    return thief


def test_copied_remember_cookie_dies_at_logout(app, client, make_user):
    make_user()
    client.post("/login", data={"email": "to@example.com", "password": PASSWORD, "remember": "y"})
    token = _remember_cookie(client)
    thief = app.test_client()
    thief.set_cookie("remember_token", token)
    assert _logged_in(thief)  # the copy works while the session lives (control)
    thief = app.test_client()
    thief.set_cookie("remember_token", token)
    client.post("/logout")
    assert not _logged_in(thief)
    assert not _logged_in(client)


def test_copied_session_cookie_dies_at_logout(app, client, make_user, login):
    make_user()
    login()
    thief = _copy_of(app, client, "session")
    assert _logged_in(thief)
    client.post("/logout")
    assert not _logged_in(thief)


def test_logout_ends_the_accounts_sessions_on_every_device(app, make_user, login):
    make_user()
    make_user("other@example.com")
    laptop, phone, colleague = login(c=app.test_client()), login(c=app.test_client()), app.test_client()
    login("other@example.com", c=colleague)
    assert _logged_in(phone)
    laptop.post("/logout")
    assert not _logged_in(phone) and not _logged_in(laptop)
    assert _logged_in(colleague)  # another account is untouched
    login(c=phone)  # logging in again works
    assert _logged_in(phone)


def test_cookie_with_a_bare_user_id_is_not_a_session(client, make_user):
    """Cookies from before session tokens (and forged ones naming an id) log nobody in."""
    user = make_user()
    with client.session_transaction() as session:
        session["_user_id"] = str(user.id)
        session["_fresh"] = True
    assert not _logged_in(client)


def test_change_password_ends_other_sessions_and_keeps_this_one(app, client, make_user, login):
    make_user()
    client.post("/login", data={"email": "to@example.com", "password": PASSWORD, "remember": "y"})
    other = login(c=app.test_client())
    stolen_remember = _remember_cookie(client)
    assert client.get("/account/password").status_code == 200
    response = client.post("/account/password", data={"current": PASSWORD, "password": "new battery staple",
                                                       "confirm": "new battery staple"})
    assert response.status_code == 302
    assert _logged_in(client)
    assert _remember_cookie(client) != stolen_remember  # this device keeps "keep me logged in", renewed
    assert not _logged_in(other)
    thief = app.test_client()
    thief.set_cookie("remember_token", stolen_remember)
    assert not _logged_in(thief)
    assert app.test_client().post("/login", data={"email": "to@example.com",
                                                  "password": PASSWORD}).status_code == 422
    login(password="new battery staple", c=app.test_client())


@pytest.mark.parametrize("data, message", [
    ({"current": "wrong horse", "password": "new battery staple", "confirm": "new battery staple"},
     "not your current password"),
    ({"current": PASSWORD, "password": "short", "confirm": "short"}, "at least 8"),
    ({"current": PASSWORD, "password": "new battery staple", "confirm": "new battery"}, "The passwords differ."),
])
def test_change_password_errors_change_nothing(app, client, make_user, login, data, message):
    user = make_user()
    login()
    other = login(c=app.test_client())
    before = (user.password_hash, user.session_token)
    response = client.post("/account/password", data=data)
    assert response.status_code == 422 and message in response.get_data(as_text=True)
    db.session.refresh(user)
    assert (user.password_hash, user.session_token) == before
    assert _logged_in(client) and _logged_in(other)


def test_change_password_needs_a_login(client):
    response = client.get("/account/password")
    assert response.status_code == 302 and "/login" in response.location


def test_admin_command_password_reset_ends_sessions(app, client, make_user, login):
    make_user()
    login()
    result = app.test_cli_runner().invoke(args=["create-admin", "--email", "to@example.com",
                                                "--password", "reset by the admin"])
    assert result.exit_code == 0, result.output
    assert not _logged_in(client)


@pytest.fixture
def hashing(monkeypatch):
    """The hash methods werkzeug runs (each is the whole cost of a password check)."""
    calls = []
    real = werkzeug.security._hash_internal

    def spy(method, salt, password):
        calls.append(method)
        return real(method, salt, password)

    monkeypatch.setattr(werkzeug.security, "_hash_internal", spy)
    return calls


def test_unknown_address_costs_one_hash_like_a_known_one(client, make_user, hashing):
    """Timing does not tell which addresses have accounts: each login attempt runs exactly one hash, with
    the same method and cost parameters (e.g. scrypt:32768:8:1), known address or not."""
    make_user()
    client.post("/login", data={"email": "warm-up@example.com", "password": "wrong horse"})  # one-time setup
    hashing.clear()
    client.post("/login", data={"email": "to@example.com", "password": "wrong horse"})
    known = list(hashing)
    hashing.clear()
    client.post("/login", data={"email": "nobody@example.com", "password": "wrong horse"})
    unknown = list(hashing)
    assert len(known) == 1 and unknown == known
    assert db.session.query(User).count() == 1

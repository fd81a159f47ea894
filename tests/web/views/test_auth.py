"""Organizer accounts: sign up, log in, log out, safe redirects, hashed passwords, the admin command."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import User


def _users() -> list[User]:
    return db.session.scalars(sa.select(User)).all()


def test_signup_creates_a_hashed_account_and_logs_in(client):
    response = client.post("/signup", data={"email": " Ada@Example.com ", "password": "analytical",
                                            "confirm": "analytical"})
    assert response.status_code == 302 and response.location.endswith("/tournaments")
    (user,) = _users()
    assert user.email == "ada@example.com"
    assert "analytical" not in user.password_hash and user.check_password("analytical")
    assert not user.is_admin
    assert client.get("/tournaments").status_code == 200


@pytest.mark.parametrize("data, message", [
    ({"email": "ada@example.com", "password": "short", "confirm": "short"}, "at least 8"),
    ({"email": "ada@example.com", "password": "long enough", "confirm": "long enougH"}, "The passwords differ."),
    ({"email": "ada", "password": "long enough", "confirm": "long enough"}, "Enter an email address."),
    ({"email": "", "password": "", "confirm": ""}, "This field is required."),
])
def test_signup_errors(client, data, message):
    response = client.post("/signup", data=data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert _users() == []


def test_signup_with_a_taken_email_ignores_case(client, make_user):
    make_user("ada@example.com")
    response = client.post("/signup", data={"email": "ADA@example.com", "password": "long enough",
                                            "confirm": "long enough"})
    assert response.status_code == 422
    assert "already exists" in response.get_data(as_text=True)
    assert len(_users()) == 1


def test_login_and_logout(client, make_user):
    make_user()
    assert client.get("/tournaments").status_code == 302
    response = client.post("/login", data={"email": "TO@example.com", "password": "correct horse"})
    assert response.status_code == 302 and response.location.endswith("/tournaments")
    assert client.get("/tournaments").status_code == 200
    assert client.get("/logout").status_code == 405  # logging out is a POST
    assert client.get("/tournaments").status_code == 200
    response = client.post("/logout")
    assert response.status_code == 302 and "/login" in response.location
    assert client.get("/tournaments").status_code == 302


def test_wrong_password_is_one_vague_error(client, make_user):
    make_user()
    for email, password in (("to@example.com", "wrong horse"), ("nobody@example.com", "correct horse")):
        response = client.post("/login", data={"email": email, "password": password})
        assert response.status_code == 422
        assert "Wrong email or password." in response.get_data(as_text=True)
    assert client.get("/tournaments").status_code == 302


def test_protected_page_sends_to_login_and_back(client, make_user):
    make_user()
    response = client.get("/tournaments/new")
    assert response.status_code == 302
    assert "/login?next=" in response.location
    response = client.post(response.location, data={"email": "to@example.com", "password": "correct horse"})
    assert response.status_code == 302 and response.location == "/tournaments/new"


def test_next_never_leaves_the_site(client, make_user):
    make_user()
    for target in ("https://evil.example/", "//evil.example/x", "/\\evil.example", "\\\\evil.example",
                   "javascript:alert(1)", "http:/evil.example", " //evil.example", ""):
        response = client.post("/login", query_string={"next": target},
                               data={"email": "to@example.com", "password": "correct horse"})
        assert response.status_code == 302 and response.location == "/tournaments", target
        client.post("/logout")


def test_login_page_when_logged_in_redirects(client, make_user, login):
    make_user()
    login()
    assert client.get("/login").status_code == 302
    assert client.get("/signup").status_code == 302


def test_pages_render_for_visitors(client):
    for url in ("/login", "/signup"):
        page = client.get(url).get_data(as_text=True)
        assert 'name="email"' in page and 'name="password"' in page


def test_create_admin_command_makes_an_admin_who_sees_everything(app, client, make_user, make_tournament, login):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["create-admin", "--email", "Boss@Example.com", "--password", "big boss pw"])
    assert result.exit_code == 0, result.output
    admin = db.session.scalars(sa.select(User).filter_by(email="boss@example.com")).one()
    assert admin.is_admin
    make_tournament(make_user("someone@example.com"), name="Someone's Cup")
    login("boss@example.com", "big boss pw")
    page = client.get("/tournaments").get_data(as_text=True)
    assert "Someone&#39;s Cup" in page and "someone@example.com" in page


def test_user_loader_ignores_a_bad_session(client, make_user):
    with client.session_transaction() as session:
        session["_user_id"] = "not a number"
    assert client.get("/tournaments").status_code == 302

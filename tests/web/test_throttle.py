"""Log-in and sign-up are throttled (Flask-Limiter): per account and per client address, with a clear 429.

The test apps run with the production limits (config.py); a test lowers one through app.config, which the
limits read on every request."""
from __future__ import annotations

import socket

import pytest

from app import create_app

PASSWORD = "correct horse"


def _login(client, email="to@example.com", password="wrong horse", **kw):
    return client.post("/login", data={"email": email, "password": password}, **kw)


def test_guessing_one_accounts_password_is_stopped(app, client, make_user):
    """The audit's attack: many wrong passwords, then the right one. After 10 failures in a minute, even the
    right password is refused with a 429 that says what happened."""
    make_user()
    for _ in range(10):
        assert _login(client).status_code == 422
    response = _login(client, password=PASSWORD)
    assert response.status_code == 429
    page = response.get_data(as_text=True)
    assert "Too many attempts" in page and "10 per 1 minute" in page
    assert int(response.headers["Retry-After"]) > 0
    assert client.get("/tournaments").status_code == 302  # not logged in


def test_the_account_limit_follows_the_address_not_the_client(app, make_user):
    """Spreading the guesses over many client addresses does not help."""
    make_user()
    for i in range(10):
        assert _login(app.test_client(), environ_base={"REMOTE_ADDR": f"10.0.0.{i}"}).status_code == 422
    assert _login(app.test_client(), password=PASSWORD,
                  environ_base={"REMOTE_ADDR": "10.0.1.1"}).status_code == 429


def test_successful_logins_do_not_use_up_the_account_limit(app, client, make_user, login):
    make_user()
    make_user("other@example.com")
    for _ in range(12):
        login()
        client.post("/logout")
    for _ in range(10):  # another account's failures do not lock this one
        assert _login(client, email="other@example.com").status_code == 422
    login()


def test_one_address_trying_many_accounts_is_stopped(app, client, make_user):
    make_user()
    app.config["LOGIN_LIMIT_PER_IP"] = "5/minute"
    for i in range(5):
        assert _login(client, email=f"guess{i}@example.com").status_code == 422
    assert _login(client, password=PASSWORD).status_code == 429
    elsewhere = app.test_client()  # another address is not affected
    assert _login(elsewhere, password=PASSWORD, environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 302


def test_signup_is_throttled_per_address(app, client):
    app.config["SIGNUP_LIMIT_PER_IP"] = "3/hour"
    for i in range(3):
        response = app.test_client().post("/signup", data={"email": f"new{i}@example.com", "password": "long enough",
                                                           "confirm": "long enough"})
        assert response.status_code == 302
    response = client.post("/signup", data={"email": "new9@example.com", "password": "long enough",
                                            "confirm": "long enough"})
    assert response.status_code == 429 and "3 per 1 hour" in response.get_data(as_text=True)
    assert client.get("/signup").status_code == 200  # only attempts count, not the page


def test_wrong_current_password_guesses_are_throttled(app, client, make_user, login):
    make_user()
    login()
    data = {"current": "guess", "password": "new battery staple", "confirm": "new battery staple"}
    for _ in range(10):
        assert client.post("/account/password", data=data).status_code == 422
    assert client.post("/account/password", data={**data, "current": PASSWORD}).status_code == 429


def _bare_app(**config):
    """An app without a database: a malformed address is refused by the form, which is enough to count."""
    return create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": "sqlite://",
                       **config})


def _malformed(client, **kw):
    return client.post("/login", data={"email": "not-an-address", "password": "x"}, **kw).status_code


def test_the_switch_turns_throttling_off_for_tests_only():
    assert _bare_app().config["RATELIMIT_ENABLED"]  # the default is on
    client = _bare_app(RATELIMIT_ENABLED=False).test_client()
    assert {_malformed(client) for _ in range(15)} == {422}
    client = _bare_app().test_client()
    assert [_malformed(client) for _ in range(11)][-1] == 429


@pytest.mark.parametrize("proxies, separate", [(1, True), (0, False)])
def test_client_address_behind_a_proxy(proxies, separate):
    """With TRUSTED_PROXIES the limit is per X-Forwarded-For client; without it the header is ignored (a client
    cannot pick a fresh address per try)."""
    client = _bare_app(TRUSTED_PROXIES=proxies, LOGIN_LIMIT_PER_IP="2/minute").test_client()
    codes = [client.post("/login", data={"email": f"malformed{i}", "password": "x"},
                         headers={"X-Forwarded-For": f"192.0.2.{i}"}).status_code for i in range(4)]
    assert codes == ([422] * 4 if separate else [422, 422, 429, 429])


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when this returns: nothing listens there


@pytest.mark.slow
def test_a_shared_store_that_is_down_never_stops_log_ins(caplog):
    """RATELIMIT_STORAGE_URI on Redis and Redis down: log-in attempts are still answered (never a 500), still
    throttled, each process counting in memory, and the outage is logged."""
    client = _bare_app(RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{_closed_port()}",
                       LOGIN_LIMIT_PER_IP="3/minute").test_client()
    assert [_malformed(client) for _ in range(4)] == [422, 422, 422, 429]
    assert "storage" in caplog.text.lower() or "redis" in caplog.text.lower() or "connect" in caplog.text.lower()


def test_the_fall_back_to_memory_is_logged_once_where_the_host_logs(capfd):
    """Flask-Limiter's own line about counting in memory reaches the worker's stderr (gunicorn's log), once per
    worker, not once per request."""
    client = _bare_app(RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{_closed_port()}").test_client()
    for _ in range(3):
        _malformed(client)
    assert capfd.readouterr().err.count("falling back to in-memory storage") == 1


def test_a_shared_store_that_never_answers_never_holds_a_log_in(caplog):
    """The audit's hung Redis: a listener that accepts connections and never answers. Without socket timeouts
    every log-in waited until gunicorn killed the worker; now each store call gives up after
    RATELIMIT_STORAGE_TIMEOUT_SECONDS, the in-memory fallback counts (logged once), and no attempt is a 500."""
    import threading
    import time

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held, stop = [], threading.Event()

    def accept():
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])  # kept open, never read from nor written to
            except OSError:
                pass
    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        client = _bare_app(RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{listener.getsockname()[1]}",
                           RATELIMIT_STORAGE_TIMEOUT_SECONDS=0.3, LOGIN_LIMIT_PER_IP="3/minute").test_client()
        started = time.monotonic()
        codes = [_malformed(client) for _ in range(4)]
        took = time.monotonic() - started
    finally:
        stop.set()
        thread.join()
        for s in held:
            s.close()
        listener.close()
    assert held  # the store was reached, and hung
    assert codes == [422, 422, 422, 429]  # answered, and still throttled (in memory)
    assert took < 5
    assert caplog.text.count("falling back to in-memory storage") == 1

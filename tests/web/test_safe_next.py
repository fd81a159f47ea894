"""Every redirect target a request names goes through one rule (app/web/safe_next.py): a same-site path, else the
route's safe default. Walked on every route that takes one: log-in, sign-up (both as a visitor and when already
logged in), NetrunnerDB's sign-in (through the stand-in's consent and back at the callback) and sign-out."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest
import requests

from app.web.safe_next import is_safe
from nrdb_standin import PUBLIC, Standin, running

CLIENT_ID, SECRET = "sass-test-client", "s3cret-of-the-client"

# As they appear in the address bar (already percent-encoded): each must fall back to the default.
HOSTILE = [
    "/%09/evil.example/phish",            # a tab: browsers drop it and read //evil.example
    "/%2509/evil.example/phish",          # the same, encoded twice
    "/%0d%0aSet-Cookie:%20x=1",           # CR LF: a split header (a 500 before)
    "/x%0aLocation:%20//evil.example",
    "/%0d/evil.example",
    "/%01/evil.example", "/%7f/evil.example", "/%1f/evil.example",
    "//evil.example/x",
    "/%2F/evil.example", "/%252F/evil.example",
    "/%5Cevil.example",                   # /\evil.example
    "%5C%5Cevil.example",                 # \\evil.example
    "/x%5Cy",
    "http://evil.example/", "https:evil.example", "http:/evil.example",
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,hi",
    "%20//evil.example", "/%20/evil.example", "/x%20y",
    "/%C2%A0/evil.example",               # no-break space
    "/%E2%80%A8/evil.example",            # line separator
    "/%E3%80%80/evil.example",            # ideographic space
    "/%E2%80%8B/evil.example",            # zero-width space
    "/%E2%80%AE/evil.example",            # right-to-left override
    "evil.example", "",
    "/" + "a" * 2000,
]
KEPT = [("/t/store-champs", "/t/store-champs"), ("/tournaments/3%3Fx%3D1%23players", "/tournaments/3?x=1#players"),
        ("/t/%25C3%25A9t%25C3%25A9", "/t/%C3%A9t%C3%A9")]  # (in the address bar, where it leads)


def test_the_rule():
    assert all(is_safe(t) for t in ("/", "/t/x", "/t/x?q=1&r=2#a", "/t/%C3%A9t%C3%A9"))
    assert not any(is_safe(t) for t in (None, 5, b"/x", ["/x"], "/\t/evil", "/\r\n", "/\\x", "\\\\x", "//x",
                                        "/\u2028", "/\x00", "/%00", "/%2500"))


@pytest.fixture
def organizer(make_user):
    return make_user()


def _log_in(client, query: str):
    return client.post(f"/login?next={query}", data={"email": "to@example.com", "password": "correct horse"})


@pytest.mark.parametrize("target", HOSTILE)
def test_log_in_and_sign_up_stay_on_the_site(app, organizer, target):
    c = app.test_client()
    response = _log_in(c, target)
    assert (response.status_code, response.location) == (302, "/tournaments")
    assert (c.get(f"/login?next={target}").location, c.get(f"/signup?next={target}").location) == (
        "/tournaments", "/tournaments")
    other = app.test_client()
    response = other.post(f"/signup?next={target}", data={
        "email": f"new{abs(hash(target))}@example.com", "password": "long enough", "confirm": "long enough"})
    assert (response.status_code, response.location) == (302, "/tournaments")


@pytest.mark.parametrize("query, target", KEPT)
def test_log_in_and_sign_up_go_back_to_a_path_here(app, organizer, query, target):
    c = app.test_client()
    assert _log_in(c, query).location == target
    assert c.get(f"/login?next={query}").location == target
    assert c.get(f"/signup?next={query}").location == target
    response = app.test_client().post(f"/signup?next={query}", data={
        "email": "new@example.com", "password": "long enough", "confirm": "long enough"})
    assert (response.status_code, response.location) == (302, target)


def test_the_login_page_hands_next_to_sign_up(client):
    page = client.get("/login?next=/t/x").get_data(as_text=True)
    assert "/signup?next=/t/x" in page


@pytest.fixture
def nrdb(app):
    standin = Standin(CLIENT_ID, SECRET, f"{PUBLIC}/nrdb/callback")
    with running(standin) as url:
        app.config.update(NRDB_URL=url, NRDB_CLIENT_ID=CLIENT_ID, NRDB_CLIENT_SECRET=SECRET, PUBLIC_URL=PUBLIC)
        yield standin


def _nrdb_sign_in(client, target: str):
    """Start at /nrdb/sign-in?next=<target>, pass the stand-in's consent, and come back to the callback: its answer."""
    start = client.get(f"/nrdb/sign-in?next={target}")
    assert start.status_code == 302
    consent = requests.get(start.location, allow_redirects=False, timeout=10)
    assert consent.status_code == 302, consent.text
    parts = urlsplit(consent.headers["Location"])
    return client.get(f"{parts.path}?{parts.query}")


@pytest.mark.slow
def test_netrunnerdb_sign_in_and_out_stay_on_the_site(app, nrdb):
    failures = []
    for target in HOSTILE:
        c = app.test_client()
        back = _nrdb_sign_in(c, target)
        if (back.status_code, back.location) != (303, "/"):
            failures.append(f"sign-in {target!r}: {back.status_code} {back.location!r}")
        out = c.post("/nrdb/sign-out", data={"next": requests.utils.unquote(target)})
        if (out.status_code, out.location) != (303, "/"):
            failures.append(f"sign-out {target!r}: {out.status_code} {out.location!r}")
    assert not failures, failures


def test_netrunnerdb_sign_in_and_out_go_back_to_a_path_here(app, nrdb):
    for query, target in KEPT:
        c = app.test_client()
        back = _nrdb_sign_in(c, query)
        assert (back.status_code, back.location) == (303, target)
        assert c.post("/nrdb/sign-out", data={"next": target}).location == target


def test_a_session_holding_a_bad_target_falls_back(app, nrdb):
    """What the sign-in kept is judged again at the callback (a session from before the rule, or forged)."""
    c = app.test_client()
    start = c.get("/nrdb/sign-in?next=/t/x")
    with c.session_transaction() as s:
        s["nrdb_next"] = "/\t/evil.example"
    consent = requests.get(start.location, allow_redirects=False, timeout=10)
    parts = urlsplit(consent.headers["Location"])
    assert c.get(f"{parts.path}?{parts.query}").location == "/"

"""Security headers on every response, and templates that live within the Content-Security-Policy."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.web.headers import CONTENT_SECURITY_POLICY

ROOT = Path(__file__).resolve().parent.parent.parent
EXPECTED = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def _policy(header: str) -> dict[str, str]:
    return {d.split()[0]: " ".join(d.split()[1:]) for d in header.split(";") if d.strip()}


def _assert_headers(response):
    for name, value in EXPECTED.items():
        assert response.headers.get(name) == value, name
    policy = _policy(response.headers["Content-Security-Policy"])
    assert policy["script-src"] == "'self'" and policy["frame-ancestors"] == "'none'"
    assert policy["object-src"] == "'none'" and "unsafe" not in response.headers["Content-Security-Policy"]


@pytest.mark.parametrize("url", ["/", "/login", "/signup", "/static/style.css", "/static/app.js", "/no/such/page",
                                 "/tournaments", "/t/nosuchslug"])
def test_visitor_responses_carry_the_headers(client, url):
    _assert_headers(client.get(url))


def test_every_page_a_logged_in_organizer_opens_carries_the_headers(app, client, make_user, make_tournament,
                                                                    login):
    t = make_tournament(make_user())
    login()
    for url in ("/tournaments", f"/tournaments/{t.id}", f"/tournaments/{t.id}/edit", "/account/password", "/account",
                f"/t/{t.slug}"):
        response = client.get(url)
        assert response.status_code == 200, url
        _assert_headers(response)
    _assert_headers(client.post("/logout"))


def test_error_and_refusal_answers_carry_the_headers(client, make_user):
    make_user()
    _assert_headers(client.post("/login", data={"email": "to@example.com", "password": "wrong horse"}))  # 422
    _assert_headers(client.get("/logout"))  # 405


# What the policy forbids in a page, and where it must go instead.
FORBIDDEN = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "inline <script>: move it to static/*.js"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "event-handler attribute (onclick=...): use a data- attribute and a "
                                          "listener in static/app.js"),
    (re.compile(r"\sstyle\s*=", re.I), "style= attribute: use a class in static/style.css"),
    (re.compile(r"<style", re.I), "<style> block: move it to static/style.css"),
    (re.compile(r"javascript:", re.I), "javascript: URL"),
]


def test_templates_need_no_inline_script_or_style():
    """The CSP (app/web/headers.py) blocks these in the browser; this finds them before a browser does."""
    problems = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for pattern, why in FORBIDDEN:
            for match in pattern.finditer(text):
                if pattern.pattern.startswith("<script") and "application/json" in match.group(0):
                    continue  # a data block is never run
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{path.relative_to(ROOT)}:{line}: {why}")
    assert not problems, "\n".join(problems)


def test_the_lint_catches_what_the_policy_blocks():
    """Control: each pattern matches the thing it names and not the allowed form."""
    bad = ['<script>alert(1)</script>', '<form onsubmit="return confirm()">', '<p style="color:red">',
           '<style>p{}</style>', '<a href="javascript:void(0)">']
    good = ['<script src="/static/app.js" defer></script>', '<form data-confirm="Sure?">', '<p class="muted">']
    for snippet in bad:
        assert any(p.search(snippet) for p, _ in FORBIDDEN), snippet
    for snippet in good:
        assert not any(p.search(snippet) for p, _ in FORBIDDEN), snippet


def test_static_scripts_do_not_evaluate_strings():
    for path in (ROOT / "static").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\beval\(|new Function\(|setTimeout\(\s*[\"']", text), path


def test_policy_is_one_string_of_known_directives():
    policy = _policy(CONTENT_SECURITY_POLICY)
    assert policy["default-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["img-src"] == "'self' data:" and policy["form-action"] == "'self'"


def test_cookies_are_secure_and_hsts_is_sent_behind_tls(app, make_user):
    """PUBLIC_URL on https: the session and remember-me cookies carry Secure; a request that came over TLS (here
    through a trusted proxy's X-Forwarded-Proto) gets Strict-Transport-Security, a plain one does not."""
    from app import create_app

    secure = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
                         "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                         "PUBLIC_URL": "https://sass.example.org", "TRUSTED_PROXIES": 1})
    assert secure.config["SESSION_COOKIE_SECURE"] and secure.config["REMEMBER_COOKIE_SECURE"]
    make_user()
    client = secure.test_client()
    response = client.post("/login", data={"email": "to@example.com", "password": "correct horse", "remember": "y"},
                           headers={"X-Forwarded-Proto": "https"})
    cookies = response.headers.getlist("Set-Cookie")
    assert cookies and all("; Secure" in c for c in cookies)
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in client.get("/login").headers
    assert not app.config["SESSION_COOKIE_SECURE"]  # plain http (a venue laptop): cookies must still work
    plain = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "PUBLIC_URL": "https://x.example",
                        "SECURE_COOKIES": False})
    assert not plain.config["SESSION_COOKIE_SECURE"]

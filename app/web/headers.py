"""Security headers on every response: what a browser may load, frame or leak for our pages.

The Content-Security-Policy is the one a page must live with (docs/security.md):
- scripts only from our own files (static/*.js, <script src=...>): no inline <script>, no onclick=/onsubmit=
  attributes, no javascript: URLs, no eval; pass data through data- attributes or a
  <script type="application/json"> block (data, never run);
- styles only from static/*.css: no <style> blocks, no style= attributes (a class in style.css instead;
  setting element.style.x from a script file is fine);
- images from this site or data: URIs (segno QR codes, matplotlib PNGs); no inline SVG from matplotlib
  (it carries style attributes): serve charts as <img>;
- fetch() to this site only; forms post to this site only; no page may be framed (clickjacking).
A view that truly needs something else sets its own header: setdefault keeps it.
"""
from flask import Flask, Response, request

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

HSTS = "max-age=31536000"  # a year; no includeSubDomains: other sites may share the domain

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "X-Content-Type-Options": "nosniff",
    # Player links are secrets in the URL: never send a path of ours to another site.
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def register_security_headers(app: Flask) -> None:
    @app.after_request
    def security_headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if request.is_secure:  # reached over TLS (directly, or a trusted proxy's X-Forwarded-Proto): https only
            response.headers.setdefault("Strict-Transport-Security", HSTS)
        return response

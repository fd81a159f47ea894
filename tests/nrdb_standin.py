"""A local stand-in for NetrunnerDB's OAuth 2 server and account API, built to its public source's behaviour
(FOSOAuthServerBundle on oauth2-php, PrivateApi20Controller::accountInfoAction), on 127.0.0.1 in a thread:

- GET /oauth/v2/auth: an unknown client is `invalid_client` and a redirect URI that does not start with the one
  registered for the client (compared case-insensitively, as FriendsOfSymfony/oauth2-php /lib/OAuth2.php
  `validateRedirectUri` does for NetrunnerDB's OAuth server; a `/../` in its path refused too) is
  `redirect_uri_mismatch`: both answered here, on NetrunnerDB's own site (400, JSON), never redirected, so the
  player stays there. NetrunnerDB's admins register a client's addresses (NetrunnerDB/netrunnerdb
  /src/AppBundle/Command/CreateClientCommand.php `--redirect-uri`). Otherwise the person (`consent`: a username, or
  None for "deny") is sent back to the redirect URI given with `code` and the same `state`, or
  `error=access_denied`.
- POST (or GET) /oauth/v2/token: client id and secret in the body or HTTP basic auth; the code must be unused, the
  same client's, and the redirect URI must start with the one it was issued for (the same prefix check); a code is
  spent on first use (a replay is `invalid_grant`). Answers `{"access_token", "expires_in": 3600, "token_type":
  "bearer", "scope", "refresh_token"}`.
- GET /api/2.0/private/account/info: the bearer token (header or ?access_token=) names the user: `{"version_number":
  "2.0", "data": [{"id", "username", "email", "reputation", "sharing"}], "total": 1, "success": true}`; else 401.
- GET /api/2.0/private/decks (PrivateApi20Controller::decksAction): the bearer token's user's decks (`decks`:
  username -> list of decks shaped as Deck::normalize: id, uuid, date_creation, date_update, name, description,
  mwl_code, cards {code: copies}, tags), in the same envelope, in no particular order; GET
  /api/2.0/private/deck/{id} one of that user's decks (with `history`); anyone else's, or an id nobody has, is a
  500 (an HTML error page), as NetrunnerDB/netrunnerdb /src/AppBundle/Controller/PrivateApi20Controller.php
  `loadDeckByIdAction` passes the null its query found to `loadDeck(Deck $deck)`; a missing, unknown or expired
  token (`expire`) is 401 as FOSOAuthServerBundle answers. The private envelope is `{"version_number": "2.0",
  "data", "total", "success": true}` (that controller's `prepareResponse`). `private_status` forces another
  answer (an NRDB error) on both.
- GET /api/2.0/public/deck/{id} (NetrunnerDB/netrunnerdb /src/AppBundle/Controller/PublicApi20Controller.php
  `deckByIdAction`): any user's deck by id; 404 when none has it; a 302 to `{url}/login` when its owner does not
  share their decks (`sharing`; the controller denies access and /app/config/security.yml's `main` firewall sends
  an anonymous caller to its log-in form); else the public envelope `{"data", "total", "success": true,
  "version_number": "2.0", "last_updated"}` (its `prepareResponse`). GET /api/2.0/public/decklist/{id} answers
  `published` decklists alike; an unknown one is a 200 with `"data": [], "total": 0, "success": false` (its
  `getSingleEntityFromCache`).

Every request is recorded (`requests`: method, path, query, body, headers) so tests can check what SASS sent.
"""
from __future__ import annotations

import base64
import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlencode, urlsplit


PUBLIC = "https://sass.example.org"  # a PUBLIC_URL NetrunnerDB can send players back to (the tests' SASS)


@dataclass
class Standin:
    client_id: str
    client_secret: str
    redirect_uri: str
    users: dict = field(default_factory=lambda: {"ana": 101, "bo": 202})
    consent: str | None = "ana"  # who signs in and allows at the consent page; None: they deny
    codes: dict = field(default_factory=dict)  # code -> (client id, redirect uri, username)
    tokens: dict = field(default_factory=dict)  # access token -> username
    requests: list = field(default_factory=list)
    decks: dict = field(default_factory=dict)  # username -> their private decks (Deck::normalize shape)
    private_status: int | None = None  # answer the private deck routes with this status instead (e.g. 500)
    failing: set = field(default_factory=set)  # deck ids whose private deck route fails (500) though they are theirs
    raw: dict = field(default_factory=dict)  # path -> bytes answered (200, JSON) instead, after recording the request
    sharing: dict = field(default_factory=dict)  # username -> whether they share their decks (NetrunnerDB: no)
    published: dict = field(default_factory=dict)  # decklist id (str) -> a published decklist (normalize shape)
    url: str = ""

    def issued_tokens(self) -> list[str]:
        return list(self.tokens)

    def expire(self) -> None:
        """Every token issued so far expires (NetrunnerDB's last an hour)."""
        self.tokens.clear()


def _handler(standin: Standin):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # quiet
            pass

        def _answer(self, status: int, body: dict | None = None, location: str | None = None):
            data = json.dumps(body or {}).encode()
            self.send_response(status)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _record(self, body: str) -> tuple[str, dict]:
            parts = urlsplit(self.path)
            standin.requests.append({"method": self.command, "path": parts.path, "query": parts.query, "body": body,
                                     "headers": dict(self.headers)})
            return parts.path, {k: v[0] for k, v in parse_qs(parts.query).items()}

        def _raw(self, path) -> bool:
            if path not in standin.raw:
                return False
            data = standin.raw[path]
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return True

        def do_GET(self):
            path, query = self._record("")
            if self._raw(path):
                return
            if path == "/oauth/v2/auth":
                return self._authorize(query)
            if path == "/oauth/v2/token":
                return self._token(query)
            if path == "/api/2.0/private/account/info":
                return self._account_info(query)
            if path == "/api/2.0/private/decks" or path.startswith("/api/2.0/private/deck/"):
                return self._decks(path, query)
            if path.startswith("/api/2.0/public/deck/"):
                return self._public_deck(path.rsplit("/", 1)[1])
            if path.startswith("/api/2.0/public/decklist/"):
                return self._public_decklist(path.rsplit("/", 1)[1])
            self._answer(404, {"error": "not found"})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode()
            path, query = self._record(body)
            if self._raw(path):
                return
            if path == "/oauth/v2/token":
                return self._token({**query, **{k: v[0] for k, v in parse_qs(body).items()}})
            self._answer(404, {"error": "not found"})

        def _authorize(self, q):
            if q.get("client_id") != standin.client_id:
                return self._answer(400, {"error": "invalid_client", "error_description": "Unknown client"})
            if not _starts_with(q.get("redirect_uri", ""), standin.redirect_uri):
                return self._answer(400, {"error": "redirect_uri_mismatch", "error_description":
                                          "The redirect URI provided does not match registered URI(s)."})
            if q.get("response_type") != "code":
                return self._answer(400, {"error": "unsupported_response_type"})
            back = {"state": q["state"]} if "state" in q else {}
            if standin.consent is None:
                back = {"error": "access_denied", "error_description": "The user denied access to your application",
                        **back}
            else:
                code = secrets.token_urlsafe(16)
                standin.codes[code] = (q["client_id"], q["redirect_uri"], standin.consent)
                back = {"code": code, **back}
            self._answer(302, location=f"{q['redirect_uri']}?{urlencode(back)}")

        def _token(self, q):
            auth = self.headers.get("Authorization", "")
            if auth.startswith("Basic "):
                cid, _, secret = base64.b64decode(auth[6:]).decode().partition(":")
            else:
                cid, secret = q.get("client_id"), q.get("client_secret")
            if cid != standin.client_id or secret != standin.client_secret:
                return self._answer(400, {"error": "invalid_client", "error_description": "The client credentials are invalid"})
            if q.get("grant_type") != "authorization_code":
                return self._answer(400, {"error": "invalid_request", "error_description": "Invalid grant_type parameter or parameter missing"})
            issued = standin.codes.pop(q.get("code", ""), None)  # spent on first use
            if issued is None or issued[0] != cid:
                return self._answer(400, {"error": "invalid_grant", "error_description": "Code doesn't exist or is invalid for the client"})
            if not _starts_with(q.get("redirect_uri", ""), issued[1]):
                return self._answer(400, {"error": "redirect_uri_mismatch", "error_description": "The redirect URI is missing or do not match"})
            token = secrets.token_urlsafe(24)
            standin.tokens[token] = issued[2]
            self._answer(200, {"access_token": token, "expires_in": 3600, "token_type": "bearer", "scope": None,
                               "refresh_token": secrets.token_urlsafe(24)})

        def _user(self, q):
            auth = self.headers.get("Authorization", "")
            token = auth[7:] if auth.startswith("Bearer ") else q.get("access_token", "")
            return standin.tokens.get(token)

        def _refuse_token(self):
            self._answer(401, {"error": "invalid_grant", "error_description": "The access token provided is invalid."})

        def _decks(self, path, q):
            user = self._user(q)
            if user is None:
                return self._refuse_token()
            if standin.private_status is not None:
                return self._answer(standin.private_status, {"error": "server error"})
            mine = standin.decks.get(user, [])
            if path == "/api/2.0/private/decks":
                return self._answer(200, {"version_number": "2.0", "data": mine, "total": len(mine),
                                          "success": True})
            wanted = path.rsplit("/", 1)[1]
            deck = next((d for d in mine if str(d["id"]) == wanted or d.get("uuid") == wanted), None)
            if deck is None or deck["id"] in standin.failing:  # another's or none: NetrunnerDB's TypeError
                return self._page(500, b"<html><body>Oops! An Error Occurred</body></html>")
            self._answer(200, {"version_number": "2.0", "data": [{**deck, "history": []}], "total": 1,
                               "success": True})

        def _page(self, status: int, body: bytes, location: str | None = None):
            self.send_response(status)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Type", "text/html; charset=UTF-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _public(self, found: list):
            self._answer(200, {"data": found, "total": len(found), "success": bool(found), "version_number": "2.0",
                               "last_updated": found[0]["date_update"] if found else "2025-01-01T00:00:00+00:00"})

        def _public_deck(self, wanted):
            owner, deck = next(((user, d) for user, decks in standin.decks.items() for d in decks
                                if str(d["id"]) == wanted or d.get("uuid") == wanted), (None, None))
            if deck is None:
                return self._page(404, b"<html><body>Not Found</body></html>")
            if not standin.sharing.get(owner, False):
                return self._page(302, b"", location=f"{standin.url}/login")
            self._public([deck])

        def _public_decklist(self, wanted):
            found = standin.published.get(wanted)
            self._public([found] if found else [])

        def _account_info(self, q):
            user = self._user(q)
            if user is None:
                return self._refuse_token()
            self._answer(200, {"version_number": "2.0", "data": [
                {"id": standin.users[user], "username": user, "email": f"{user}@example.com", "reputation": 7,
                 "sharing": True}], "total": 1, "success": True})

    return Handler


def _starts_with(given: str, registered: str) -> bool:
    """oauth2-php's redirect check: the given address starts with the registered one (case-insensitively), and its
    path climbs no folder."""
    path = urlsplit(given).path
    if re.search(r"/\.\.?(/|$)", unquote(path)):
        return False
    return bool(given) and given[:len(registered)].lower() == registered.lower()


def normalized_deck(deck_id: int, updated: str, codes: dict, name: str) -> dict:
    """A deck as NetrunnerDB's Deck::normalize writes one (for `Standin.decks`)."""
    return {"id": deck_id, "uuid": f"5e1f0000-0000-4000-8000-{deck_id:012d}",
            "date_creation": "2024-01-01T00:00:00+00:00", "date_update": updated, "name": name,
            "description": "My **notes**", "mwl_code": None, "cards": codes, "tags": ""}


def codes_of(text: str, side: str) -> dict:
    """A pasted list as NetrunnerDB's deck holds it: {card code: copies}, the identity among them."""
    from app.core import cards, decklists

    checked = decklists.check(text, side, decklists.rules("standard"))
    return {cards.card(cid)["codes"][-1]: n for cid, n in [(checked.identity, 1), *checked.cards]}


class running:
    """`with running(standin) as url:` serves the stand-in on 127.0.0.1 (a port the OS chooses) for the block."""

    def __init__(self, standin: Standin):
        self.standin = standin
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(standin))

    def __enter__(self) -> str:
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        self.standin.url = f"http://127.0.0.1:{self.server.server_port}"
        return self.standin.url

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

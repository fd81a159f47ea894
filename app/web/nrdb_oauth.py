"""Signing in with NetrunnerDB: its OAuth 2 authorization-code flow through Authlib's Flask client, and what this
browser's session keeps of it.

NetrunnerDB's contract (its public source): `{NRDB_URL}/oauth/v2/auth` asks the person's consent and sends them back
to the exact redirect URI registered for this server's client with `code` and our `state` (or `error=access_denied`);
`/oauth/v2/token` trades the code, once, for a bearer token (an hour's life, `expires_in`); the code is then spent
and a second use is refused (`invalid_grant`); `/api/2.0/private/account/info` with that token answers
`{"data": [{"id": ..., "username": ..., ...}], "success": true}`.

What we promise (docs/security.md): the state is random per sign-in and checked by Authlib against this session
(a callback whose state this browser did not start is refused); the redirect URI is one fixed address
(PUBLIC_URL + /nrdb/callback); the client secret travels only in the token request's body; the access token is
never written to the database nor logged, and is kept only in this browser's session, encrypted with a key derived
from SECRET_KEY, until it expires (for `access_token`, e.g. a later "pick one of my decks"). The session says who is
signed in for NRDB_SIGN_IN_HOURS at most.
"""
from __future__ import annotations

import base64
import hashlib
import logging
import time
from dataclasses import dataclass

import requests
from authlib.integrations.flask_client import OAuth, OAuthError
from cryptography.fernet import Fernet, InvalidToken
from flask import abort, current_app, session, url_for

from ..core import nrdb_sign_in
from ..services.event_files import jsonfile

log = logging.getLogger(__name__)

ACCOUNT_INFO = "api/2.0/private/account/info"
SIGNED_IN = "nrdb"  # session key: who is signed in
TOKEN = "nrdb_token"  # session key: the access token, encrypted, and when it expires
MAX_ANSWER = 64 * 1024  # NetrunnerDB's token and account answers are a few hundred bytes
SIGN_IN_HOURS = 12  # a sign-in lasts this long in one browser (a venue's shared phone forgets it by the next day)


class SignInFailed(Exception):
    """Why a sign-in did not complete, in words for the player (never the token, the code or the secret)."""


_UNREADABLE = "NetrunnerDB's answer was not one SASS can read (far too large or too deeply nested). Start again."


@dataclass(frozen=True)
class NrdbIdentity:
    """Who NetrunnerDB said signed in: its user id and username."""

    nrdb_id: int
    username: str


def configured(app=None) -> bool:
    """Whether this server has a NetrunnerDB client (both id and secret set)."""
    config = (app or current_app).config
    return bool(config.get("NRDB_CLIENT_ID") and config.get("NRDB_CLIENT_SECRET"))


def enabled(app=None) -> bool:
    """Whether players may sign in with NetrunnerDB here: a client, and a PUBLIC_URL NetrunnerDB can send them back
    to (app/core/nrdb_sign_in.py decides). Otherwise every NetrunnerDB route answers 404 and no page offers the
    sign-in (the templates' `nrdb_sign_in_on()` asks this too)."""
    app = app or current_app
    return configured(app) and nrdb_sign_in.possible(app.config.get("PUBLIC_URL") or "")


OFF_HERE = ("Signing in with NetrunnerDB is not offered at this address: NetrunnerDB sends players back only to the "
            "public address its admins registered for this server. Everything else here works without it.")


def hidden_unless_enabled() -> None:
    """A blueprint's before_request: 404 on every NetrunnerDB sign-in route unless the sign-in can work here
    (`enabled`); a server with a client at an address NetrunnerDB cannot send players back to says why."""
    if not enabled():
        abort(404, OFF_HERE if configured() else None)


def off_reason(app=None) -> str | None:
    """For the organizers: why this server has a NetrunnerDB client and still offers no sign-in, and what to do;
    None when the sign-in is offered, or when no client is set (nothing of it shows then)."""
    app = app or current_app
    if not configured(app):
        return None
    why = nrdb_sign_in.why_not(app.config.get("PUBLIC_URL") or "")
    if why is None:
        return None
    return (f"Players cannot sign in with NetrunnerDB on this server: NetrunnerDB sends them back only to the "
            f"address its admins registered for this server. {why} {nrdb_sign_in.WHAT_TO_DO}")


def _client():
    """Authlib's client for this app's settings, made once per settings (tests change NRDB_URL per stand-in)."""
    app = current_app._get_current_object()
    c = app.config
    key = (c["NRDB_URL"], c["NRDB_CLIENT_ID"], c["NRDB_CLIENT_SECRET"], c.get("NRDB_TIMEOUT", 10))
    clients = app.extensions.setdefault("sass.nrdb_oauth", {})
    if key not in clients:
        oauth = OAuth(app)
        clients[key] = oauth.register(
            "nrdb", client_id=c["NRDB_CLIENT_ID"], client_secret=c["NRDB_CLIENT_SECRET"],
            authorize_url=f"{c['NRDB_URL']}/oauth/v2/auth", access_token_url=f"{c['NRDB_URL']}/oauth/v2/token",
            api_base_url=f"{c['NRDB_URL']}/",
            # NetrunnerDB's token endpoint reads the client's credentials from the request body, as its own
            # explorer sends them.
            client_kwargs={"token_endpoint_auth_method": "client_secret_post", "default_timeout": key[3]},
            compliance_fix=_bounded_answers)
    return clients[key]


def _bounded_answers(oauth_session) -> None:
    """Every answer of NetrunnerDB to this client (the token, the account) is read at most MAX_ANSWER bytes and
    nested at most jsonfile.MAX_DEPTH deep before anything parses it: jsonfile.TooLarge otherwise (a flood or a
    deeply nested answer would cost memory, or a RecursionError, a 500)."""
    oauth_session.hooks["response"].append(_read_bounded)


def _read_bounded(response, *args, **kwargs):
    """A requests response hook: it runs before requests reads the body."""
    try:
        body = response.raw.read(MAX_ANSWER + 1, decode_content=True)
    finally:
        response.close()
    jsonfile.check_bounds(body, MAX_ANSWER)
    response._content, response._content_consumed = body, True
    return response


def redirect_uri() -> str:
    """The one callback address: NetrunnerDB compares it with the client's registered URI."""
    return url_for("nrdb.callback", _external=True)


def start():
    """The redirect to NetrunnerDB's consent page; Authlib keeps a fresh random state in this session."""
    return _client().authorize_redirect(redirect_uri())


def finish() -> NrdbIdentity:
    """Check the callback (state, error), trade the code for a token, ask NetrunnerDB who it is, and keep the token
    in this session. SignInFailed says why not."""
    client = _client()
    try:
        token = client.authorize_access_token()
    except OAuthError as e:
        if e.error == "access_denied":
            raise SignInFailed("You did not allow the sign-in at NetrunnerDB; nothing changed.") from None
        if e.error == "mismatching_state":
            raise SignInFailed("This sign-in was not started in this browser, or it was finished already. "
                               "Start again.") from None
        log.warning("NetrunnerDB sign-in refused: %s", e.error)
        raise SignInFailed("NetrunnerDB refused the sign-in. Start again.") from None
    except jsonfile.TooLarge as e:
        log.warning("NetrunnerDB token answer unreadable: %s", e)
        raise SignInFailed(_UNREADABLE) from None
    except requests.RequestException as e:
        log.warning("NetrunnerDB token endpoint unreachable: %s", type(e).__name__)
        raise SignInFailed("NetrunnerDB could not be reached. Try again when this server is online.") from None
    try:
        answer = client.get(ACCOUNT_INFO, token=token)
        info = answer.json()["data"][0] if answer.ok else None
        identity = NrdbIdentity(int(info["id"]), str(info.get("username") or ""))
    except jsonfile.TooLarge as e:
        log.warning("NetrunnerDB account info unreadable: %s", e)
        raise SignInFailed(_UNREADABLE) from None
    except requests.RequestException as e:
        log.warning("NetrunnerDB account info unreachable: %s", type(e).__name__)
        raise SignInFailed("NetrunnerDB could not be reached. Try again when this server is online.") from None
    except (ValueError, KeyError, IndexError, TypeError):
        log.warning("NetrunnerDB account info unusable (HTTP %s)", getattr(answer, "status_code", "?"))
        raise SignInFailed("NetrunnerDB did not say who you are. Start again.") from None
    _keep_token(token)
    return identity


def remember(account_id: int, identity: NrdbIdentity) -> None:
    """This browser is signed in as that account (our row id), for SIGN_IN_HOURS."""
    session[SIGNED_IN] = {"account": account_id, "nrdb_id": identity.nrdb_id, "username": identity.username,
                          "until": int(time.time()) + SIGN_IN_HOURS * 3600}


def signed_in() -> dict | None:
    """{"account": our NrdbAccount id, "nrdb_id", "username"} of this browser's sign-in, while it lasts."""
    if not enabled():
        return None
    who = session.get(SIGNED_IN)
    if not isinstance(who, dict) or not isinstance(who.get("until"), int) or who["until"] < time.time():
        return None
    return who


def username() -> str | None:
    """The signed-in account's NetrunnerDB username (a registration form starts with it as the name)."""
    who = signed_in()
    return who["username"] if who else None


def signed_in_account() -> int | None:
    who = signed_in()
    return who["account"] if who else None


def sign_out() -> None:
    session.pop(SIGNED_IN, None)
    session.pop(TOKEN, None)


def forget_token() -> None:
    """NetrunnerDB refused the token (expired or revoked): the session stops offering it, and the next call on the
    player's behalf asks them to sign in again first. Who is signed in stays."""
    session.pop(TOKEN, None)


def _fernet() -> Fernet:
    key = hashlib.sha256(b"sass nrdb token|" + current_app.config["SECRET_KEY"].encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def _keep_token(token: dict) -> None:
    expires_at = int(token.get("expires_at") or time.time() + int(token.get("expires_in") or 3600))
    session[TOKEN] = {"sealed": _fernet().encrypt(str(token["access_token"]).encode()).decode(),
                      "expires_at": expires_at}


def access_token() -> str | None:
    """The NetrunnerDB access token of this browser's sign-in, for a call to NetrunnerDB's private API on the
    player's behalf (`Authorization: Bearer <token>`, e.g. `/api/2.0/private/decks`); None when nobody is signed
    in, the token expired (NetrunnerDB's last an hour: sign in again), or the server's key changed. Never log it,
    store it or send it to the page."""
    kept = session.get(TOKEN)
    if signed_in() is None or not isinstance(kept, dict) or int(kept.get("expires_at", 0)) <= time.time():
        return None
    try:
        return _fernet().decrypt(kept["sealed"].encode()).decode()
    except (InvalidToken, KeyError, AttributeError):
        return None

"""Decks fetched from NetrunnerDB's public API and stored as the player's list: the deck is written out as a list
(app/core/nrdb_decks.py) and submitted as if pasted (app/services/decklists.py `submit`), so one set of rules judges
both. The fetch is short (NRDB_DECK_TIMEOUT, NRDB_DECK_MAX_BYTES in config.py), goes only to NRDB_URL, follows no
redirect, and any failure (offline, slow, refused, not found, not a deck) is a FetchError in words with nothing
changed.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
import urllib3
from flask import current_app

from ...core import nrdb_decks
from ...core.decklists import Checked
from ...models import Decklist, Player, Tournament
from .. import decklists
from ..event_files import jsonfile

PUBLIC_URL = "https://netrunnerdb.com"  # the address a stored list names its deck by (what players open)


class FetchError(ValueError):
    """The deck could not be fetched or read, with the reason in words for the page; nothing was changed."""


class SignInExpired(FetchError):
    """NetrunnerDB refused the player's token (expired after its hour, or revoked): they sign in again."""


class ServerError(FetchError):
    """NetrunnerDB answered an error of its own (5xx); `status` says which. Its private API answers 500 for a deck
    id that is not the player's (app/services/nrdb/picker.py tells the two apart)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


PRIVATE_DECK = ("That deck is private on NetrunnerDB (it sent SASS to its log-in page instead): publish it as a "
                "decklist, or share your decks (NetrunnerDB's account settings), then try again; or paste the list "
                "itself.")


@dataclass(frozen=True)
class FetchedList:
    text: str  # the deck as a list SASS reads like a paste
    name: str  # the deck's name on NetrunnerDB ("" if none)
    page: str  # its page on NetrunnerDB


def fetch(address: str) -> FetchedList:
    """The deck a pasted address or id names, from NetrunnerDB. An address on another site is refused before any
    fetch; a bare id is a published decklist, else a deck its owner shares. FetchError for every failure."""
    base = current_app.config["NRDB_URL"]
    try:
        ref = nrdb_decks.reference(address, base)
        try:
            found = nrdb_decks.read_answer(get_json(base + ref.api_path))
        except nrdb_decks.NotFound:
            if not ref.bare:
                raise
            ref = nrdb_decks.DeckRef("deck", ref.id)
            found = nrdb_decks.read_answer(get_json(base + ref.api_path))
    except nrdb_decks.NotFound:
        raise FetchError(f"NetrunnerDB has no {'published decklist' if ref.kind == 'decklist' else 'deck'} "
                         f"{ref.id}{' (nor a shared deck)' if ref.bare else ''}: check the address.") from None
    except nrdb_decks.NotADeck as e:
        raise FetchError(str(e)) from None
    page = ref.page(PUBLIC_URL)
    return FetchedList(nrdb_decks.as_text(found, page), found.name, page)


def get_json(url: str, token: str | None = None, most: int | None = None):
    """NetrunnerDB's JSON answer for `url` (under NRDB_URL), read within the time limit and `most` bytes
    (NRDB_DECK_MAX_BYTES unless given); FetchError otherwise (NotFound for a 404, read as 'no such deck').
    With `token` (the player's, for the private API) it goes in the Authorization header only, and a 401 or 403
    is SignInExpired; the token is never logged nor put in a message."""
    limit = current_app.config["NRDB_DECK_TIMEOUT"]
    most = most or current_app.config["NRDB_DECK_MAX_BYTES"]
    headers = {"Accept": "application/json", "User-Agent": "SASS (tournament software)"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    deadline = time.monotonic() + limit
    offline = (f"SASS could not reach NetrunnerDB ({current_app.config['NRDB_URL']}): this server may be offline. "
               "Paste the list itself instead (NetrunnerDB's plain-text, Markdown or bbCode export).")
    slow = f"NetrunnerDB did not answer within {limit:g} seconds. Try again later, or paste the list itself."
    try:
        with requests.get(url, timeout=(min(limit, 3.0), limit), stream=True, allow_redirects=False,
                          headers=headers) as r:
            if r.status_code == 404:
                raise nrdb_decks.NotFound("no such deck")
            if r.status_code in (401, 403) and token is not None:
                raise SignInExpired("NetrunnerDB no longer accepts your sign-in here (it lasts an hour): sign in "
                                    "with NetrunnerDB again.")
            if r.status_code in (401, 403):
                raise FetchError(PRIVATE_DECK)
            if r.is_redirect:
                # An unshared deck on the public API: NetrunnerDB's firewall sends an anonymous caller to its log-in
                # page (/src/AppBundle/Controller/PublicApi20Controller.php `deckByIdAction` denies access,
                # /app/config/security.yml's form_login answers with the redirect). SASS follows no redirect.
                if token is None and _to_log_in(r.headers.get("Location", "")):
                    raise FetchError(PRIVATE_DECK)
                raise FetchError(f"NetrunnerDB answered {r.status_code} (a redirect, which SASS does not follow) "
                                 "instead of the deck. Check the address, or paste the list itself.")
            if r.status_code >= 500:
                raise ServerError(f"NetrunnerDB answered {r.status_code} ({r.reason or 'an error'}): an error on its "
                                  "side instead of the deck. Try again later, or paste the list itself.",
                                  r.status_code)
            if r.status_code != 200:
                raise FetchError(f"NetrunnerDB answered {r.status_code} ({r.reason or 'an error'}) instead of the "
                                 "deck. Try again later, or paste the list itself.")
            body = bytearray()
            while True:
                if time.monotonic() > deadline:
                    raise FetchError(slow)
                chunk = r.raw.read1(16 * 1024, decode_content=True)
                if not chunk:
                    break
                body += chunk
                if len(body) > most:
                    raise FetchError("NetrunnerDB's answer was far larger than a deck; nothing was read.")
    except (requests.Timeout, urllib3.exceptions.TimeoutError):
        raise FetchError(slow) from None
    except (requests.RequestException, urllib3.exceptions.HTTPError, OSError):  # refused, unreachable, cut short
        raise FetchError(offline) from None
    try:
        return jsonfile.loads(bytes(body), most)
    except jsonfile.TooLarge as e:
        raise FetchError(f"NetrunnerDB's answer was not a deck SASS can read ({e}). Try again later, or paste the "
                         "list itself.") from None
    except (UnicodeDecodeError, ValueError):
        raise FetchError("NetrunnerDB's answer was not a deck (not the JSON its API gives). Try again later, or paste "
                         "the list itself.") from None


def _to_log_in(location: str) -> bool:
    """Whether a redirect's Location is NetrunnerDB's log-in page (`/login`, whatever host or locale prefix)."""
    path = urlsplit(location).path.rstrip("/")
    return path == "/login" or path.endswith("/login")


def submit(t: Tournament, player: Player, side: str, address: str, actor: str) \
        -> tuple[Decklist, Checked, FetchedList]:
    """Fetch the deck and store it as the player's list for `side`, exactly as a pasted list
    (app/services/decklists.py `submit`: its checks, its lock, its judgement). What a player may not submit is
    refused before anything is fetched. FetchError or decklists.DecklistError: nothing changed."""
    if actor == "player":
        player_may_submit(t, player, side)
    fetched = fetch(address)
    deck, checked = decklists.submit(t, player, side, fetched.text, actor)
    return deck, checked, fetched


def player_may_submit(t: Tournament, player: Player, side: str) -> None:
    """Refuse (DecklistError) what the player could not submit anyway, before NetrunnerDB is asked anything; the
    submit itself checks again under the event's lock (app/services/decklists.py)."""
    over = decklists.closed_to_player(t, player)
    if over:
        raise decklists.DecklistError(over)
    if not t.decklists:
        raise decklists.DecklistError("This event does not collect decklists.")
    if not decklists.may_change(t, decklists.lists_of(t, player).get(side)):
        raise decklists.DecklistError("Decklists are locked: round 1 has been paired. Ask the organizer if your "
                                      "list must change.")

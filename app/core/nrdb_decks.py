"""A NetrunnerDB deck named by what a player pastes (a decklist's or a deck's address, or a bare id), and NetrunnerDB's
answer for it read into a list SASS judges exactly as a paste (app/core/decklist_text.py, app/core/decklists.py).

NetrunnerDB's public API (its PublicApi20Controller): `/api/2.0/public/decklist/{id}` for a published decklist and
`/api/2.0/public/deck/{id}` for a deck its owner shares, each id a number or a UUID. Either answers
`{"success": true, "data": [{"name": ..., "cards": {"01050": 3, ...}, ...}], ...}`, the cards by NetrunnerDB code
with the identity among them; an unknown decklist answers `success: false` with no data, an unknown deck 404, a
deck its owner does not share a 302 to its log-in page (the controller denies access; the site's firewall sends an
anonymous caller to log in). Its private API (PrivateApi20Controller), with the signed-in player's bearer token:
`/api/2.0/private/decks` answers every deck of theirs in that same envelope (each deck `id`, `uuid`, `name`,
`cards`, `date_creation`, `date_update` as ISO 8601, `description`, `tags`, `mwl_code`), in no promised order, and
`/api/2.0/private/deck/{id}` one of them (a 500 for an id that is not theirs: it hands the null it found to a
method that wants a deck); a missing, expired or revoked token is a 401.
Fetching is app/services/nrdb/; here nothing touches the network.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from urllib.parse import urlsplit

from . import cards

PUBLIC_HOSTS = ("netrunnerdb.com", "www.netrunnerdb.com")
_ID = r"(\d{1,10}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
_BARE = re.compile(rf"^{_ID}$", re.IGNORECASE)
# /en/decklist/<id>/<slug>, /decklist/<id>, /en/deck/view/<id>, /en/deck/edit/<id>, /api/2.0/public/deck(list)/<id>
_PATH = re.compile(rf"^/(?:[a-z]{{2}}(?:-[a-z]{{2}})?/|api/2\.0/public/)?(decklist|deck)/(?:(?:view|edit)/)?{_ID}"
                   r"(?:/[^/]*)?/?$", re.IGNORECASE)
MAX_COPIES = 99  # no card allows more; a larger number is no deck
MAX_CARDS = 300  # different cards in one answer: a deck has about 30
OWN_DECKS_PATH = "/api/2.0/private/decks"


class NotADeck(ValueError):
    """What was pasted names no NetrunnerDB deck, or NetrunnerDB's answer holds none; the reason in words."""


class NotNetrunnerDB(NotADeck):
    """An address on another site: refused before anything is fetched."""


class NotFound(NotADeck):
    """NetrunnerDB has no such deck (or answers that it has none)."""


@dataclass(frozen=True)
class DeckRef:
    kind: str  # "decklist" (published) or "deck" (a private deck its owner shares)
    id: str  # a number or a UUID
    bare: bool = False  # pasted as an id alone: a decklist, else a shared deck of that id

    @property
    def api_path(self) -> str:
        return f"/api/2.0/public/{self.kind}/{self.id}"

    def page(self, base_url: str) -> str:
        """The deck's page on NetrunnerDB, for people."""
        return f"{base_url}/en/decklist/{self.id}" if self.kind == "decklist" else f"{base_url}/en/deck/view/{self.id}"


@dataclass(frozen=True)
class Fetched:
    name: str
    cards: tuple[tuple[str, int], ...]  # (NetrunnerDB code, copies), the identity among them


def reference(text: str, base_url: str) -> DeckRef:
    """The deck a paste names. NotNetrunnerDB for an address on any host but NetrunnerDB's (its public site, or
    `base_url`, the one SASS fetches from); NotADeck for anything else that is no deck's address or id."""
    text = (text or "").strip()
    if not text:
        raise NotADeck("Paste the address of a NetrunnerDB deck or decklist, or its id.")
    if _BARE.match(text):
        return DeckRef("decklist", text.lower(), bare=True)
    url = text if re.match(r"^[a-z][a-z0-9+.-]*://", text, re.IGNORECASE) else "https://" + text
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        own = urlsplit(base_url).hostname or ""
        port_ok = parts.port is None or (host == own.lower() and parts.port == urlsplit(base_url).port)
    except ValueError:
        raise NotADeck("That is not a web address NetrunnerDB gives a deck.") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise NotADeck("That is not a web address NetrunnerDB gives a deck.")
    if host not in {*PUBLIC_HOSTS, own.lower()} or not port_ok:
        raise NotNetrunnerDB(f"That address is not NetrunnerDB's ({host or 'no site'}): SASS fetches decks only from "
                             "NetrunnerDB. Paste the deck's NetrunnerDB address, or paste the list itself.")
    m = _PATH.match(parts.path)
    if not m:
        raise NotADeck("That NetrunnerDB address names no deck or decklist: open the deck on NetrunnerDB and copy "
                       "the address of its page.")
    return DeckRef(m.group(1).lower(), m.group(2).lower())


def read_answer(doc) -> Fetched:
    """The deck in NetrunnerDB's answer (parsed JSON). NotADeck when it holds none: an unknown decklist's
    `success: false`, or anything not shaped as NetrunnerDB answers."""
    if not isinstance(doc, dict):
        raise NotADeck("NetrunnerDB's answer was not a deck.")
    data = doc.get("data")
    if doc.get("success") is False or data == []:
        raise NotFound("NetrunnerDB has no such deck.")
    if not isinstance(data, list) or not data or not isinstance(data[0], dict):
        raise NotADeck("NetrunnerDB's answer was not a deck.")
    return _read_deck(data[0])


def _read_deck(deck: dict) -> Fetched:
    """One deck of an answer (NetrunnerDB's Deck or Decklist `normalize()`): its name and cards by code."""
    found = deck.get("cards")
    if not isinstance(found, dict) or not found or len(found) > MAX_CARDS:
        raise NotADeck("NetrunnerDB's answer holds no cards.")
    rows = []
    for code, copies in found.items():
        if not isinstance(code, str) or not re.fullmatch(r"\d{5}", code) or isinstance(copies, bool) \
                or not isinstance(copies, int) or not 0 <= copies <= MAX_COPIES:
            raise NotADeck("NetrunnerDB's answer lists its cards in a way SASS cannot read.")
        if copies:
            rows.append((code, copies))
    raw = deck.get("name")
    name = raw if isinstance(raw, str) else ""
    return Fetched(" ".join(name.split())[:120], tuple(sorted(rows)))


def own_deck_ref(deck_id: int) -> DeckRef:
    """A deck of the signed-in player's own, by its NetrunnerDB id: its page names the stored list."""
    return DeckRef("deck", str(deck_id))


def own_deck_path(deck_id: int) -> str:
    return f"/api/2.0/private/deck/{int(deck_id)}"


@dataclass(frozen=True)
class OwnDeck:
    """One of the signed-in player's decks, as the picker lists it."""

    id: int
    name: str
    side: str | None  # "corp" or "runner", its identity card's side; None when the card data knows no identity in it
    identity: str  # the identity's title ("" if none known)
    updated: datetime | None  # NetrunnerDB's date_update (UTC), the newest first
    cards: int  # copies besides the identity


@dataclass(frozen=True)
class OwnDecks:
    decks: tuple[OwnDeck, ...]  # newest change first
    unreadable: int  # decks in the answer SASS could not read (no cards, bad codes): left out


def read_own_decks(doc) -> OwnDecks:
    """The decks of NetrunnerDB's `/api/2.0/private/decks` answer (parsed JSON), newest change first (then the
    highest id); a deck that cannot be read is counted and left out, never guessed. NotADeck when the answer is
    not shaped as NetrunnerDB answers."""
    if not isinstance(doc, dict) or doc.get("success") is False or not isinstance(doc.get("data"), list):
        raise NotADeck("NetrunnerDB's answer was not a list of decks.")
    decks, unreadable = [], 0
    for deck in doc["data"]:
        deck_id = deck.get("id") if isinstance(deck, dict) else None
        if isinstance(deck_id, bool) or not isinstance(deck_id, int) or not 0 < deck_id < 2**63:
            unreadable += 1
            continue
        try:
            fetched = _read_deck(deck)
        except NotADeck:
            unreadable += 1
            continue
        side, identity, size = _identity(fetched)
        decks.append(OwnDeck(deck_id, fetched.name, side, identity, _when(deck.get("date_update")), size))
    oldest = datetime.min.replace(tzinfo=timezone.utc)
    decks.sort(key=lambda d: (d.updated or oldest, d.id), reverse=True)
    return OwnDecks(tuple(decks), unreadable)


def _identity(fetched: Fetched) -> tuple[str | None, str, int]:
    """(side, identity title, copies besides the identity) by the card data; the first identity by code."""
    codes = cards.by_code()
    side, title, size = None, "", 0
    for code, copies in fetched.cards:
        cid = codes.get(code)
        c = cards.card(cid) if cid else None
        if c is not None and c["type"] in cards.IDENTITY_TYPES:
            if side is None:
                side, title = cards.IDENTITY_TYPES[c["type"]], c["title"]
        else:
            size += copies
    return side, title, size


def _when(value) -> datetime | None:
    """NetrunnerDB's ISO 8601 date ('2025-05-02T10:00:00+00:00'), in UTC; None if it is not one."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when.astimezone(timezone.utc) if when.tzinfo else when.replace(tzinfo=timezone.utc)


def as_text(fetched: Fetched, source: str) -> str:
    """The deck as a list SASS reads like any paste: a first line saying where it came from (read as a summary
    line, never a card), the identity, then each card by its title ("3x Hedge Fund"); a code the card data does
    not know is written so that the list says so ("1x NetrunnerDB card 99001")."""
    named = [f"From NetrunnerDB: {source}" + (f" ({fetched.name})" if fetched.name else "")]
    identities, rows = [], []
    codes = cards.by_code()
    for code, copies in fetched.cards:
        cid = codes.get(code)
        c = cards.card(cid) if cid else None
        if c is None:
            rows.append((1, f"NetrunnerDB card {code}", f"{copies}x NetrunnerDB card {code}"))
        elif c["type"] in cards.IDENTITY_TYPES:
            identities.append(f"Identity: {c['title']}")
        else:
            rows.append((0, c["title"].casefold(), f"{copies}x {c['title']}"))
    return "\n".join(named + identities + [line for *_, line in sorted(rows)]) + "\n"

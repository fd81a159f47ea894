"""A pasted decklist read into cards: the shapes players paste (NetrunnerDB's plain-text, Markdown and bbCode exports
with their section headers, identity line, influence dots, set names and summary lines; "3x Card Name", "3 Card
Name", "Card Name x3"; jinteki.net's export; markdown links), card names matched ignoring case, accents and punctuation,
and a "did you
mean" for a typo. What the cards make of a deck is app/core/decklists.py; the rules are docs/domain.md section 12.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from . import cards

# A real list is a few kilobytes and 30-60 lines; these refuse a paste that cannot be one before any work.
MAX_CHARS = 50_000
MAX_LINES = 1_000


class TooLong(ValueError):
    """The paste is larger than any decklist: nothing is read."""


@dataclass(frozen=True)
class Entry:
    card_id: str
    count: int
    line: int  # 1-based line of the paste


@dataclass(frozen=True)
class Unknown:
    line: int
    name: str  # as written
    suggestions: tuple[str, ...]  # card titles close to it ("did you mean")
    identity: bool = False  # written as the identity ("Identity: ...", or a line close to an identity's title)
    count: int = 0  # the copies the line gives (they still count toward the deck's size)


@dataclass(frozen=True)
class Parsed:
    identities: tuple[tuple[int, str], ...]  # (line, card id) of every identity named; one is right
    entries: tuple[Entry, ...]  # cards with a count, in the order written
    unknown: tuple[Unknown, ...]  # names that are no card
    uncounted: tuple[tuple[int, str], ...]  # (line, card id): a card named without a count
    ignored: tuple[tuple[int, str], ...]  # (line, text): lines that name nothing (a deck's title, say)


_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "×": "x", "\u00a0": " "})
_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
_DOTS = re.compile(r"[\s●•○◦·∙⦁★☆*]+$")
_SET = re.compile(r"\s*\([^()]*\)\s*$")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)]*)\)")
# bbCode as NetrunnerDB exports it: [url=...]Card[/url], [b]Header[/b], [i](Set)[/i], [color=#...]●●[/color]
_BB_LINK = re.compile(r"\[url=([^\]]*)\](.*?)\[/url\]", re.IGNORECASE)
_BB_TAG = re.compile(r"\[/?(?:b|i|u|s|url|color|size)(?:=[^\]]*)?\]", re.IGNORECASE)
# Markdown as NetrunnerDB exports it: "## Deck name", "###Agenda (3)", "_(Set)_", "**bold**"
_MD_HEADING = re.compile(r"^\s*#+\s*")
_MD_EMPHASIS = re.compile(r"(?<![0-9A-Za-z])(\*{1,2}|_{1,2})(?=\S)(.+?)(?<=\S)\1(?![0-9A-Za-z])")
_CARD_CODE = re.compile(r"/card/(\d{5})\b")
_BULLET = re.compile(r"^\s*(?:[-*+•]\s+)")
_COUNT_FIRST = re.compile(r"^(\d{1,6})\s*(?:x\s+|x(?=[^0-9a-z])|\s+)(.+)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(.+?)\s+x\s*(\d{1,6})$", re.IGNORECASE)
_IDENTITY = re.compile(r"^(?:identity|id)\s*:\s*(.+)$", re.IGNORECASE)
# Section headers: "Agenda (10)", "Icebreaker (4)", "Runner", "Cards:"; summary lines of NetrunnerDB's export.
_HEADER = re.compile(r"^([a-z][a-z &/-]{0,30}\s*\(\d+\)|corp|runner|cards|deck|decklist|identity|agendas?|assets?"
                     r"|operations?|ice|upgrades?|events?|hardware|resources?|programs?|icebreakers?)\s*:?$",
                     re.IGNORECASE)
_SUMMARY = re.compile(r"^(\d+\s+(influence|agenda points?|cards?)\b|cards up to\b|deck (built|published|created)\b"
                      r"|decklist (built|published)\b|from netrunnerdb\b"
                      r"|total\b|influence\b|agenda points?\b|(corp|runner) deck\b)", re.IGNORECASE)


def key(name: str) -> str:
    """A name as SASS compares card names: case, accents, quotes and punctuation do not count ("Ryō “Phoenix”
    Ōno" is "ryophoenixono")."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name.translate(_QUOTES)) if not unicodedata.combining(c))
    return _NOT_ALNUM.sub("", bare.casefold())


def _spaced(name: str) -> str:
    bare = "".join(c for c in unicodedata.normalize("NFKD", name.translate(_QUOTES)) if not unicodedata.combining(c))
    return " ".join(_NOT_ALNUM.sub(" ", bare.casefold()).split())


@lru_cache(maxsize=1)
def _index() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """key -> card id; spaced name -> title (for suggestions), and for identities alone."""
    by_key: dict[str, str] = {}
    spaced: dict[str, str] = {}
    ids: dict[str, str] = {}
    for cid, c in sorted(cards.data()["cards"].items()):
        by_key.setdefault(key(c["title"]), cid)
        spaced[_spaced(c["title"])] = c["title"]
        if c["type"] in cards.IDENTITY_TYPES:
            ids[_spaced(c["title"])] = c["title"]
    return by_key, spaced, ids


@lru_cache(maxsize=1)
def _short_identities() -> dict[str, str]:
    """An identity's name before its colon ("Noise", "Jinteki") -> its id, where only one identity has it."""
    seen: dict[str, list] = {}
    for cid, c in cards.identity_cards():
        if ":" in c["title"]:
            seen.setdefault(key(c["title"].split(":")[0]), []).append(cid)
    return {k: ids[0] for k, ids in seen.items() if len(ids) == 1 and k}


def find_identity(name: str) -> str | None:
    """An identity by its full title, or by its short name where that names one identity only ("Noise")."""
    cid = find(name)
    if cid is not None and cards.known(cid)["type"] in cards.IDENTITY_TYPES:
        return cid
    return _short_identities().get(key(_DOTS.sub("", name)))


def find(name: str) -> str | None:
    """The card id a written name means: the title as written, else without trailing influence dots, else without
    a trailing "(Set Name)"; None when none is a card."""
    by_key = _index()[0]
    for candidate in _candidates(name):
        cid = by_key.get(key(candidate))
        if cid is not None:
            return cid
    return None


def _candidates(name: str):
    yield name
    name = _DOTS.sub("", name)
    yield name
    stripped = _SET.sub("", name)
    if stripped != name:
        yield _DOTS.sub("", stripped)


def suggestions(name: str, identities_only: bool = False) -> tuple[str, ...]:
    """Up to three titles close to a name that is no card."""
    pool = _index()[2 if identities_only else 1]
    wanted = _spaced(_SET.sub("", _DOTS.sub("", name)))
    return tuple(pool[m] for m in difflib.get_close_matches(wanted, list(pool), n=3, cutoff=0.72))


def check_size(text: str) -> None:
    """TooLong for a paste no decklist could be (too many characters or lines)."""
    lines = text.count("\n") + (not text.endswith("\n"))
    if lines > MAX_LINES:
        raise TooLong(f"That is {lines:,} lines; a decklist is 30 to 60. Paste only the list "
                      f"(at most {MAX_LINES:,} lines).")
    if len(text) > MAX_CHARS:
        raise TooLong(f"That is {len(text):,} characters; a decklist is a few thousand. Paste only the list "
                      f"(at most {MAX_CHARS:,} characters).")


def parse(text: str) -> Parsed:
    """The cards a paste names. TooLong first for a paste no decklist could be; otherwise every line is read,
    nothing refused: what is wrong with the deck is app/core/decklists.py's to say."""
    check_size(text)
    identities: list[tuple[int, str]] = []
    entries: list[Entry] = []
    unknown: list[Unknown] = []
    uncounted: list[tuple[int, str]] = []
    ignored: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line, coded = _plain(raw)
        if not line:
            continue
        named = _IDENTITY.match(line)
        if named:
            cid = find_identity(named.group(1))
            if cid is not None:
                identities.append((number, cid))
            else:
                unknown.append(Unknown(number, named.group(1).strip(), suggestions(named.group(1), True), True))
            continue
        cid = find(line) or _short_identities().get(key(line))
        if cid is None and coded is not None and _counted(line)[0] is None:
            cid = coded  # a linked name without a count: NetrunnerDB's identity line
        if cid is not None:  # a name alone: the identity, or a card without a count
            (identities if _is_identity(cid) else uncounted).append((number, cid))
            continue
        if _SUMMARY.match(line):
            continue
        count, name = _counted(line)
        if count is None:
            if not _HEADER.match(line):
                ignored.append((number, line[:200]))
            continue
        cid = find(name) or coded
        if cid is None:
            unknown.append(Unknown(number, name[:200], suggestions(name), count=count))
        elif _is_identity(cid):
            identities.append((number, cid))
        else:
            entries.append(Entry(cid, count, number))
    if not identities and not any(u.identity for u in unknown):
        unknown, ignored = _misspelt_identity(unknown, ignored)
    return Parsed(tuple(identities), tuple(entries), tuple(unknown), tuple(uncounted), tuple(ignored))


def _plain(raw: str) -> tuple[str, str | None]:
    """A line without its list bullet, Markdown (headings, links, emphasis) and bbCode (links, tags), and the card a
    NetrunnerDB card address on it names (by code), if any: NetrunnerDB's three exports read as one."""
    line = raw.translate(_QUOTES)
    code = _CARD_CODE.search(line)
    line = _BB_TAG.sub("", _BB_LINK.sub(r"\2", line))
    line = _LINK.sub(r"\1", _BULLET.sub("", _MD_HEADING.sub("", line)))
    line = _MD_EMPHASIS.sub(r"\2", line).strip()
    return line, cards.by_code().get(code.group(1)) if code else None


def _misspelt_identity(unknown: list, ignored: list) -> tuple[list, list]:
    """A list naming no identity: the first ignored line close to an identity's title is that identity misspelt
    (NetrunnerDB's export writes it bare, with no count), reported once with its "did you mean"."""
    for i, (number, text) in enumerate(ignored):
        line = _plain(text)[0]
        close = suggestions(line, identities_only=True)
        if close:
            return (sorted([*unknown, Unknown(number, line[:200], close, True)], key=lambda u: u.line),
                    ignored[:i] + ignored[i + 1:])
    return unknown, ignored


def _is_identity(cid: str) -> bool:
    return cards.known(cid)["type"] in cards.IDENTITY_TYPES


def _counted(line: str) -> tuple[int | None, str]:
    m = _COUNT_FIRST.match(line)
    if m:
        return int(m.group(1)), m.group(2).strip()
    m = _COUNT_LAST.match(_DOTS.sub("", line))
    if m:
        return int(m.group(2)), m.group(1).strip()
    return None, line

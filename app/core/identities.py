"""Corp and Runner identity names, from the card data (app/core/cards.py: every identity NetrunnerDB lists,
current and rotated): suggestions for the identity fields (identities stay free text), their factions, and the
one canonical spelling of a name.

ABR matches identities by name, as Cobra writes them: NetrunnerDB's titles with straight quotes (NetrunnerDB's
own data now has typographic ones, Ryō “Phoenix” Ōno; real Cobra files have Hiram "0mission" Svensson). `canonical` is
applied on
the way out (NRTM export) and on the way in (NRTM import), so a name typed or pasted with curly quotes
(Rielle “Kit” Peddler) still names the identity.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from . import cards, factions
from .names import name_key

SIDES = ("corp", "runner")

# Typographic quotes and apostrophes as their ASCII forms; spaces collapsed.
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "″": '"', "«": '"', "»": '"',
                         "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'", "`": "'"})
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=1)
def identities() -> dict[str, tuple[str, ...]]:
    """{'corp': (...), 'runner': (...)}, sorted for the <datalist>."""
    return {side: tuple(sorted((_straight(c["title"]) for _, c in cards.identity_cards() if c["side"] == side),
                               key=str.casefold))
            for side in SIDES}


def data_date() -> str:
    """The date of the card data the suggestions and factions come from, for the pages to show."""
    return cards.data_date()


@lru_cache(maxsize=1)
def _by_key() -> dict[str, tuple[str, str, str]]:
    """A name's lookup key -> (canonical name, side, faction id)."""
    return {_key(c["title"]): (_straight(c["title"]), c["side"], c["faction"]) for _, c in cards.identity_cards()}


def _key(name: str) -> str:
    return name_key(_straight(name))


def _straight(name: str) -> str:
    return _SPACES.sub(" ", name.translate(_QUOTES)).strip()


def canonical(name: Optional[str]) -> str:
    """The identity's name as NetrunnerDB spells it when SASS knows it (quotes, accents, case and spacing do not
    matter: "rielle “kit” peddler: transhuman" gives Rielle "Kit" Peddler: Transhuman); otherwise the name with
    straight quotes and single spaces. Empty stays empty."""
    if not name:
        return ""
    known = _by_key().get(_key(name))
    return known[0] if known else _straight(name)


def faction(name: Optional[str], side: Optional[str] = None) -> Optional[str]:
    """The NetrunnerDB faction id of a known identity (haas_bioroid, shaper, sunny_lebeau ...; an NRTM file
    spells it cards.nrtm_faction), None for a name SASS does not know (or one of the other side when `side` is
    given)."""
    if not name:
        return None
    known = _by_key().get(_key(name))
    if known is None or (side is not None and known[1] != side):
        return None
    return known[2]


def file_faction(name: Optional[str], side: str, code) -> Optional[str]:
    """What a player keeps of the faction a file gives an identity (a code in either spelling, or its display
    name as the NRTM app writes it: factions.read): nothing when SASS knows the identity (the card data says its
    faction), nor for a code that names no faction of that side; else the faction, so an identity newer than
    the card data keeps the file's faction."""
    fid = factions.read(code, side)
    if not name or fid is None or cards.data()["factions"][fid]["side"] != side or faction(name) is not None:
        return None
    return fid


def player_faction(name: Optional[str], side: str, kept: Optional[str] = None) -> Optional[str]:
    """A player's faction on one side: the card data's for an identity SASS knows, else the one a file gave an
    identity SASS does not know (`kept`, Player.corp_faction / runner_faction), else None."""
    return faction(name, side) or (file_faction(name, side, kept) if kept else None)

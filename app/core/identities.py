"""Corp and Runner identity names shipped with the app (app/core/data/identities.json): suggestions for the identity
fields (identities stay free text), their NetrunnerDB faction codes, and the one canonical spelling of a name.

ABR matches identities by name, as NetrunnerDB and Cobra spell them (straight quotes): `canonical` is applied on
the way out (NRTM export) and on the way in (NRTM import), so a name typed or pasted with curly quotes
(Rielle “Kit” Peddler) still names the identity.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Optional

from .names import name_key

PATH = Path(__file__).resolve().parent / "data" / "identities.json"
SIDES = ("corp", "runner")

# Typographic quotes and apostrophes as their ASCII forms; spaces collapsed.
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "″": '"', "«": '"', "»": '"',
                         "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'", "`": "'"})
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=1)
def _data() -> dict:
    return json.loads(PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def identities() -> dict[str, tuple[str, ...]]:
    """{'corp': (...), 'runner': (...)}, sorted for the <datalist>."""
    data = _data()
    return {side: tuple(sorted((n for names in data[side].values() for n in names), key=str.casefold))
            for side in SIDES}


@lru_cache(maxsize=1)
def _by_key() -> dict[str, tuple[str, str, str]]:
    """A name's lookup key -> (canonical name, side, faction code)."""
    return {_key(name): (name, side, faction)
            for side in SIDES for faction, names in _data()[side].items() for name in names}


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
    """The NetrunnerDB faction code of a known identity (haas_bioroid, shaper, sunny_lebeau ...), None for a name
    SASS does not know (or one of the other side when `side` is given)."""
    if not name:
        return None
    known = _by_key().get(_key(name))
    if known is None or (side is not None and known[1] != side):
        return None
    return known[2]

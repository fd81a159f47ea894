"""Player names as people search and compare them: case, accents and spacing ignored ("Kovač" is "kovac")."""
from __future__ import annotations

import unicodedata


def name_key(name: str) -> str:
    """The form under which two names count as the same player's."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())

"""A download's Content-Disposition: the file name as the event is named (any script), for browsers that read
RFC 5987's `filename*`, with an ASCII spelling for those that do not. Nothing in a name can break the header."""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote


def attachment(name: str) -> str:
    """`attachment; filename="Worlds-games.csv"; filename*=UTF-8''W%C3%B6rlds-games.csv` (the ASCII name alone when
    the name is ASCII already)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    plain = re.sub(r"[^A-Za-z0-9._]+", "-", plain.replace("-", " ")).strip("-.") or "download"
    if plain == name:
        return f'attachment; filename="{plain}"'
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"

"""Corp and Runner identity names shipped with the app, offered as suggestions (identities stay free text)."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

PATH = Path(__file__).resolve().parent / "data" / "identities.json"


@lru_cache(maxsize=1)
def identities() -> dict[str, tuple[str, ...]]:
    """{'corp': (...), 'runner': (...)}, sorted for the <datalist>."""
    data = json.loads(PATH.read_text(encoding="utf-8"))
    return {side: tuple(sorted(data[side], key=str.casefold)) for side in ("corp", "runner")}

"""Reading uploaded JSON files that nobody vouches for: every value is checked, every error names its place."""
from __future__ import annotations

import json
import re
import zlib
from datetime import date, datetime, timezone

CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# A \uD800-\uDFFF escape: half of a UTF-16 pair. JSON lets a file write one alone, which is no character: Python
# keeps it in the string and it breaks the first time the text is encoded (the database, the page). Only a file
# with such an escape is searched for a lone one; a whole pair (an emoji written as two escapes) is fine.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
PAIR_OR_LONE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
                          r"|(\\u[dD][89a-fA-F][0-9a-fA-F]{2})")


class FileError(ValueError):
    """The uploaded file is not what it claims to be; nothing was written."""


GZIP = b"\x1f\x8b"
# What a gzip upload may unpack to. The largest backup SASS restores, a 10,000-player 10-round event, is about 13 MB
# (docs/api.md); a file that unpacks further is refused before it is read.
MAX_UNPACKED = 32 * 1024 * 1024


def unpack(data: bytes) -> bytes:
    """The file itself: a gzip file unpacked (at most MAX_UNPACKED), anything else as it came."""
    if not data.startswith(GZIP):
        return data
    unzip = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = unzip.decompress(data, MAX_UNPACKED)
    except zlib.error as e:
        raise FileError(f"the file is not a valid gzip file ({e})") from None
    if unzip.unconsumed_tail:
        raise FileError(f"the file unpacks to more than {MAX_UNPACKED // 2**20} MB")
    if not unzip.eof or unzip.unused_data:
        raise FileError("the gzip file is cut short or holds more than one file")
    return out


def parse(data: bytes) -> object:
    """JSON from an upload, gzipped or not."""
    data = unpack(data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileError("the file is not valid JSON: it is not text at all (is it the .json or .json.gz file "
                        "the export saved?)") from None
    if not text.strip():
        raise FileError("the file is not valid JSON: it is empty") from None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        where = "ends too soon" if e.pos >= len(text.rstrip()) else f"breaks at line {e.lineno}, column {e.colno}"
        raise FileError(f"the file is not valid JSON: it {where}, so it is damaged or incomplete "
                        "(a download cut short, or an edit gone wrong); take the file as it was saved") from None
    except RecursionError:
        raise FileError("the file is not valid JSON SASS can read: its lists are nested too deeply") from None
    except ValueError as e:  # NaN, Infinity (_no_constant)
        raise FileError(f"the file is not valid JSON: {e}") from None
    if SURROGATE_ESCAPE.search(text):
        _no_lone_surrogate(text, value)
    return value


def _no_lone_surrogate(text: str, value: object) -> None:
    """FileError naming the line of the first lone surrogate escape, if the parsed file holds one."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        lone = next((m for m in PAIR_OR_LONE.finditer(text) if m.group(1)), None)
        at = f" at line {text.count(chr(10), 0, lone.start()) + 1} ({lone.group(1)})" if lone else ""
        raise FileError(f"the file holds a broken character{at}: half of a UTF-16 pair, written alone. The file "
                        "was damaged or edited by hand, so take the file as it was saved") from None


def _no_constant(name):
    raise ValueError(f"{name} is not a number")


def obj(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise FileError(f"{where} should be an object")
    return value


def array(value, where: str) -> list:
    if not isinstance(value, list):
        raise FileError(f"{where} should be a list")
    return value


def integer(value, where: str, minimum: int | None = None, maximum: int | None = None, null: bool = False):
    if value is None and null:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise FileError(f"{where} should be a whole number, not {json.dumps(value)[:40]}")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        bounds = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise FileError(f"{where} should be {bounds}, not {value}")
    return value


def text(value, where: str, max_len: int, null: bool = False, empty: bool = True):
    if value is None and null:
        return None
    if not isinstance(value, str):
        raise FileError(f"{where} should be text")
    value = value.strip()
    if CONTROL.search(value):
        raise FileError(f"{where} contains control characters (tabs, line breaks, NUL...)")
    if not value and not empty:
        raise FileError(f"{where} is empty")
    if len(value) > max_len:
        raise FileError(f"{where} is longer than {max_len} characters")
    return value


def boolean(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise FileError(f"{where} should be true or false")
    return value


def iso_date(value, where: str) -> date:
    if not isinstance(value, str):
        raise FileError(f"{where} should be a date like 2026-05-30")
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        raise FileError(f"{where} should be a date like 2026-05-30, not {value[:20]!r}") from None


def iso_time(value, where: str) -> datetime:
    """A moment with its offset (2026-05-30T14:05:00+00:00), as UTC."""
    example = "a time like 2026-05-30T14:05:00+00:00"
    if not isinstance(value, str) or len(value) > 40:
        raise FileError(f"{where} should be {example}")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise FileError(f"{where} should be {example}, not {value!r}") from None
    if moment.tzinfo is None:
        raise FileError(f"{where} should say its offset from UTC, like {example}")
    return moment.astimezone(timezone.utc)


def choice(value, where: str, options: tuple, null: bool = False):
    if value is None and null:
        return None
    if value not in options:
        raise FileError(f"{where} should be one of {', '.join(map(str, options))}")
    return value


def player_id(value, where: str):
    """A player's id as event files write it: a non-empty string or an integer."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    return integer(value, where)


def brief(value) -> str:
    """A value as a message names it: whatever a hostile file put there, briefly."""
    return str(value) if isinstance(value, int) else json.dumps(value)[:20]

"""Reading JSON that nobody vouches for (uploaded files, NetrunnerDB's and AlwaysBeRunning's answers): its size and
depth bounded before it is parsed (`loads`, `check_bounds`), every value checked, every error naming its place."""
from __future__ import annotations

import json
import re
import zlib
from datetime import date, datetime, timezone
from array import array as _signed_bytes_array
from itertools import accumulate

CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# A \uD800-\uDFFF escape: half of a UTF-16 pair. JSON lets a file write one alone, which is no character: Python
# keeps it in the string and it breaks the first time the text is encoded (the database, the page). Only a file
# with such an escape is searched for a lone one; a whole pair (an emoji written as two escapes) is fine.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
PAIR_OR_LONE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
                          r"|(\\u[dD][89a-fA-F][0-9a-fA-F]{2})")


class FileError(ValueError):
    """The uploaded file is not what it claims to be; nothing was written."""


# JSON from outside is nested at most this deep. SASS's own files and NetrunnerDB's and ABR's answers go about six
# levels deep; Python's parser recurses once per level and fails (RecursionError, a 500) near a thousand, and so
# would any code walking what it returned.
MAX_DEPTH = 64
# Only the structure is kept to measure the depth: escapes that hide a quote go first, then all but brackets, quotes
# and the separators (which keep two strings apart), then empty strings, then strings holding a bracket. All in C
# (bytes methods, one regular expression on what is left): about a tenth of parsing the same text.
_STRUCTURE = bytes(sorted(set(range(256)) - set(b'[]{}",:')))
_STRING = re.compile(rb'"[^"]*"')
_STEP = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 and -1 as signed bytes


class TooLarge(ValueError):
    """JSON from outside is larger or nested deeper than SASS reads; nothing was parsed."""


def depth(data: bytes | str) -> int:
    """How deep the lists and objects of JSON text nest (brackets inside strings do not count)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    kept = bytes(data).replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _STRUCTURE).replace(b'""', b"")
    kept = _STRING.sub(b"", kept).translate(None, b'",:')
    return max(accumulate(_signed_bytes_array("b", kept.translate(_STEP))), default=0)


def check_bounds(data: bytes | str, most: int, deepest: int = MAX_DEPTH) -> None:
    """TooLarge when `data` is longer than `most` bytes (characters for text) or its lists and objects nest
    deeper than `deepest`."""
    if len(data) > most:
        raise TooLarge(f"it is larger than {most:,} bytes")
    if depth(data) > deepest:
        raise TooLarge(f"its lists are nested more than {deepest} deep")


def loads(data: bytes | str, most: int, deepest: int = MAX_DEPTH) -> object:
    """JSON from outside (NetrunnerDB, ABR), within `check_bounds`: TooLarge when it is too large or deep, another
    ValueError when it is not JSON (or not UTF-8, or holds NaN or Infinity)."""
    check_bounds(data, most, deepest)
    text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    return json.loads(text, parse_constant=_no_constant)


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
        check_bounds(text, MAX_UNPACKED)
    except TooLarge as e:
        raise FileError(f"the file is not JSON SASS can read: {e}") from None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        where = "ends too soon" if e.pos >= len(text.rstrip()) else f"breaks at line {e.lineno}, column {e.colno}"
        raise FileError(f"the file is not valid JSON: it {where}, so it is damaged or incomplete "
                        "(a download cut short, or an edit gone wrong); take the file as it was saved") from None
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

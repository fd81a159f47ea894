"""Public pages and API answers at GP size: built once per tournament version, kept where every worker sees
them, compressed once.

A 2,000-player event's pairings are 330 KB of HTML; when a round goes up every phone in the hall asks for them
at once. Every change to an event bumps Tournament.version (app/models/: touch), so the event's id, random
seed, creation time and version, with the page's name and a hash of this code, name the bytes exactly. The
first request builds them and writes a file in the instance folder (atomically; other workers wait on a file
lock instead of building the same page again); each worker keeps the latest pages in memory with their gzip.

A page may have slots: what differs per request (the header's account links, flashed messages, "You: table 7",
the running clock, a search) is left out of the shared bytes as `<!--slot:name-->` and filled per request.
Its rows (`<li|tr data-names="...">` between the `rows` and `end-rows` slots) can be marked for the device's
own player or hidden by a search without building the page again. Gzip is stitched: each shared piece is
deflated once, ending on a byte boundary (a sync flush, as pigz does), the few per-request pieces are deflated
alone, and the CRC runs over the whole (zlib.crc32 runs at a GB/s).
"""
from __future__ import annotations

import hashlib
import html
import json
import logging
import os
import re
import struct
import tempfile
import threading
import zlib
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Callable, Optional

from flask import current_app, request
from markupsafe import Markup

from ..core.pairing.history import gc_paused
from .conditional import client_has

try:
    import fcntl
except ImportError:  # not on Windows: two workers may then build the same page at once, harmlessly
    fcntl = None

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent.parent
SLOT = re.compile(r"<!--slot:([\w-]+)-->")
ROW_TAGS = ('<li data-names="', '<tr data-names="')
CHUNK_ROWS = 64  # rows deflated together: marking one row re-deflates its chunk only (~20 KB)
MEMORY_BYTES = 64 * 2**20  # per worker; a 2,000-player standings page holds ~2.4 MB (rows, chunks, gzip)
FILES_KEPT = 400  # in the shared folder, newest first
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # no name, no time, unknown OS
FINAL_BLOCK = b"\x03\x00"  # an empty last block (what a raw deflate stream's Z_FINISH writes on no input)


def slot(name: str) -> Markup:
    """What a shared page holds where a request fills in its own part (templates: {{ slot('you') }})."""
    return Markup(f"<!--slot:{name}-->")


def _deflate(data: bytes, level: int = 6) -> bytes:
    """Raw deflate ending on a byte boundary with no last-block flag: pieces concatenate into one stream."""
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)


class Piece:
    """Shared bytes, deflated when a response first asks for gzip (a staff page's body never is: built_pages)."""
    __slots__ = ("raw", "_packed")

    def __init__(self, raw: bytes):
        self.raw, self._packed = raw, None

    @classmethod
    def of(cls, raw: bytes) -> "Piece":
        return cls(raw)

    @property
    def packed(self) -> bytes:
        if self._packed is None:  # two threads may both deflate it: the same bytes
            self._packed = _deflate(self.raw)
        return self._packed


@dataclass
class Rows:
    """The page's list: its rows by position, deflated in chunks of CHUNK_ROWS."""
    rows: list  # of bytes
    keys: list  # the rows' data-names, unescaped
    chunks: list = field(default_factory=list)  # of Piece

    def __post_init__(self):
        self.chunks = [Piece.of(b"".join(self.rows[i:i + CHUNK_ROWS])) for i in range(0, len(self.rows), CHUNK_ROWS)]


class Page:
    """A shared page in memory: static pieces, slot names and rows, in page order."""

    def __init__(self, key: str, text: str, meta: dict):
        self.key, self.meta = key, meta
        self.mimetype = meta.get("mimetype", "text/html")
        self.parts: list = []  # Piece | str (a slot's name) | Rows
        self.rows: Optional[Rows] = None
        pieces = [text] if meta.get("plain") else SLOT.split(text)  # text, name, text, name, ..., text
        in_rows = False
        for i, piece in enumerate(pieces):
            if i % 2:
                if piece == "rows":
                    in_rows = True
                elif piece == "end-rows":
                    in_rows = False
                else:
                    self.parts.append(piece)
                continue
            if in_rows:
                tag = next((t for t in ROW_TAGS if t in piece), ROW_TAGS[0])
                head, *rows = piece.split(tag)  # names are escaped: `<` starts nothing but tags
                if head:
                    self.parts.append(Piece.of(head.encode()))
                keys = [html.unescape(r[:r.index('"')]) for r in rows]
                self.rows = Rows([(tag + r).encode() for r in rows], keys)
                self.parts.append(self.rows)
            elif piece:
                self.parts.append(Piece.of(piece.encode()))
        self.digest = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
        # what it may hold in memory: its bytes and their deflated copy (at most as long, HTML far shorter)
        self.size = sum(2 * len(p.raw) for p in self.parts if isinstance(p, Piece)) + \
            (sum(3 * len(c.raw) for c in self.rows.chunks) if self.rows else 0)

    def hits(self, query_key: str) -> int:
        return sum(1 for k in self.rows.keys if query_key in k) if self.rows else 0


def _mark(row: bytes, me: bool, hidden: bool) -> bytes:
    """A row's opening tag with class="me" data-server (this device's player) and/or hidden (a search)."""
    head, rest = row.split(b">", 1)
    if me:
        at = head.find(b' class="')
        if at >= 0:
            end = head.index(b'"', at + 8)
            head = head[:end] + b" me" + head[end:]
        else:
            head += b' class="me"'
        head += b" data-server"
    if hidden:
        head += b" hidden"
    return head + b">" + rest


def render(page: Page, slots: dict[str, str], me_row: Optional[int] = None, query_key: str = "",
           gzip: bool = False) -> bytes:
    """The page's bytes for one request: slots filled, rows marked or searched; gzip stitched when asked."""
    out: list[Piece | bytes] = []  # Piece: shared, already deflated; bytes: this request's own
    for part in page.parts:
        if isinstance(part, Piece):
            out.append(part)
        elif isinstance(part, str):
            value = slots.get(part, "")
            if value:
                out.append(value.encode())
        elif query_key:
            out.append(b"".join(_mark(r, i == me_row, query_key not in k)
                                for i, (r, k) in enumerate(zip(part.rows, part.keys, strict=True))))
        else:
            mine = me_row // CHUNK_ROWS if me_row is not None else None
            for n, chunk in enumerate(part.chunks):
                if n != mine:
                    out.append(chunk)
                else:
                    rows = part.rows[n * CHUNK_ROWS:(n + 1) * CHUNK_ROWS]
                    out.append(b"".join(_mark(r, n * CHUNK_ROWS + i == me_row, False) for i, r in enumerate(rows)))
    if not gzip:
        return b"".join(p.raw if isinstance(p, Piece) else p for p in out)
    crc, size, body = 0, 0, [GZIP_HEADER]
    for p in out:
        raw = p.raw if isinstance(p, Piece) else p
        crc, size = zlib.crc32(raw, crc), size + len(raw)
        body.append(p.packed if isinstance(p, Piece) else _deflate(raw, 6 if len(raw) < 65536 else 1))
    body += [FINAL_BLOCK, struct.pack("<II", crc, size & 0xFFFFFFFF)]
    return b"".join(body)


def wants_gzip() -> bool:
    return "gzip" in request.accept_encodings and request.accept_encodings["gzip"] > 0


def respond(page: Page, slots: Optional[dict] = None, me_row: Optional[int] = None, query_key: str = "",
            ticking: tuple = (), vary_on: str = "", cache_control: str = "no-cache"):
    """The response for `page`: an ETag from the shared bytes and this request's own parts, an empty 304 when
    the client has it; gzip when accepted. The `ticking` slots change every second and stay out of the ETag
    (a 304 while the clock only ticks); `vary_on` says what they show that does count (the clock's state)."""
    slots = slots or {}
    own = sorted((k, v) for k, v in slots.items() if k not in ticking)
    tag = hashlib.blake2b("\x00".join([page.digest, repr(own), str(me_row), query_key, vary_on]).encode(),
                          digest_size=12).hexdigest()
    response = current_app.response_class(mimetype=page.mimetype)
    response.set_etag(tag, weak=True)
    response.headers["Cache-Control"] = cache_control
    response.vary.add("Accept-Encoding")
    if client_has(tag):
        response.status_code = 304
        return response
    gzip = wants_gzip()
    response.set_data(render(page, slots, me_row, query_key, gzip))
    if gzip:
        response.headers["Content-Encoding"] = "gzip"
    return response


def json_text(data) -> str:
    """The API's JSON bytes: compact, keys sorted, so equal data are equal bytes (and equal ETags)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def json_document(data) -> Optional[tuple[str, dict]]:
    """A big JSON answer as `get`'s build returns it (None: no such answer, nothing kept)."""
    if data is None:
        return None
    return json_text(data), {"plain": True, "mimetype": "application/json"}


# ---------------------------------------------------------------- the store

_memory: "OrderedDict[str, Page]" = OrderedDict()
_memory_lock = threading.Lock()
_build_id: Optional[str] = None


def build_id() -> str:
    """A hash of this code and its templates: a new release never serves pages an old one built."""
    global _build_id
    if _build_id is None:
        digest = hashlib.blake2b(digest_size=8)
        for folder, pattern in ((ROOT / "app", "*.py"), (ROOT / "templates", "*.html")):
            for path in sorted(folder.rglob(pattern)):
                digest.update(str(path.relative_to(ROOT)).encode() + b"\x00" + path.read_bytes())
        _build_id = digest.hexdigest()
    return _build_id


@dataclass(frozen=True)
class Owner:
    """What a page that is not one event's is kept under (a series' standings): the four facts key_of reads of an
    event. `id` is made of [a-z0-9] and starts with a letter (never an event's number); `seed` and `version` are
    made of [a-z0-9] too, `version` naming everything the page is built from."""
    id: str
    seed: str
    created_at: datetime
    version: str


def key_of(t, name: str) -> tuple[str, str]:
    """(the page, the page at this version): a recreated database (ids and versions counted from 1 again)
    never meets another event's files, as the seed is random. `name` is made of [a-z0-9-]."""
    page = f"{t.id}_{t.seed}_{int(t.created_at.timestamp())}_{name}"
    return page, f"{page}_{t.version}_{build_id()}"


def folder() -> Path:
    path = Path(current_app.config.get("PAGE_CACHE_DIR") or Path(current_app.instance_path) / "page-cache")
    path.mkdir(parents=True, exist_ok=True)
    return path


def get(t, name: str, build: Callable[[], Optional[tuple[str, dict]]]) -> Optional[Page]:
    """Page `name` of `t` at its current version: from this worker's memory, the shared folder, or `build()`
    (which returns the page's text and its meta, or None for a page that does not exist: nothing is kept)."""
    family, key = key_of(t, name)
    with _memory_lock:
        page = _memory.get(key)
        if page is not None:
            _memory.move_to_end(key)
            return page
    try:
        page = _shared(family, key, build)
    except OSError as e:  # the folder is missing, read-only or full: serve the page, built here, and say so
        log.warning("page cache folder unusable, %s built without it: %s", key, e)
        built = _built(build)
        page = None if built is None else Page(key, *built)
    if page is None:
        return None
    with _memory_lock:
        _memory[key] = page
        for old in [k for k in _memory if k != key and k.startswith(family + "_")]:
            del _memory[old]  # an older version of the same page
        while len(_memory) > 1 and sum(p.size for p in _memory.values()) > MEMORY_BYTES:
            _memory.popitem(last=False)
    return page


def _shared(family: str, key: str, build) -> Optional[Page]:
    """The page from the shared folder, built and written there by the first worker that needs it."""
    base = folder()
    path = base / f"{key}.page"
    page = _read(key, path)
    if page is None:
        with _file_lock(base / f"{family}.lock"):
            page = _read(key, path)  # another worker built it while this one waited
            if page is None:
                built = _built(build)
                if built is None:
                    return None
                text, meta = built
                try:
                    _write(base, path, text.encode(), meta)
                    _forget_older(base, family, path)
                except OSError as e:  # a full disk: this page is served all the same
                    log.warning("page cache folder unusable, %s not kept: %s", key, e)
                page = Page(key, text, meta)
    return page


def _built(build) -> Optional[tuple[str, dict]]:
    with gc_paused():  # thousands of rows' objects, all kept until the page is written
        built = build()
    if built is None:
        return None
    text, meta = built
    return text, json.loads(json.dumps(meta))  # as every other worker reads it: keys are strings


def _read(key: str, path: Path) -> Optional[Page]:
    """A file is the meta as one line of JSON, then the text; None if it is missing or not whole."""
    try:
        data = path.read_bytes()
        meta, text = data.split(b"\n", 1)
        meta = json.loads(meta)
        if meta.get("length") != len(text):
            return None
        return Page(key, text.decode(), meta)
    except (FileNotFoundError, ValueError, UnicodeDecodeError):
        return None


def _write(base: Path, path: Path, text: bytes, meta: dict) -> None:
    """Write-then-rename: a reader sees the whole file or none."""
    fd, tmp = tempfile.mkstemp(dir=base, prefix=".page.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(json.dumps({**meta, "length": len(text)}, separators=(",", ":")).encode() + b"\n" + text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _forget_older(base: Path, family: str, keep: Path) -> None:
    """Older versions of this page go at once; beyond FILES_KEPT files, the least recently written go."""
    for path in base.glob(f"{family}_*.page"):
        if path != keep and path.name.count("_") == keep.name.count("_"):
            path.unlink(missing_ok=True)
    files = list(base.glob("*.page"))
    if len(files) > FILES_KEPT:
        def age(p):
            try:
                return p.stat().st_mtime
            except FileNotFoundError:
                return 0
        for path in sorted(files, key=age)[:len(files) - FILES_KEPT]:
            path.unlink(missing_ok=True)


@contextmanager
def _file_lock(path: Path):
    if fcntl is None:
        yield
        return
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


KEPT_FILES = 400  # bytes that never change (a round's slip codes), newest first


def kept(t, name: str, what: str, build: Callable[[], bytes]) -> bytes:
    """Bytes of `t` that never change once made, whatever its version (a page of slips' QR codes: results do not
    change them): `what` says exactly what they are (hashed into the file name with this code's build), so a
    change to them is another file. The first worker that needs them builds them under their own lock; every
    other worker, and every later version of the page, reads the file. At most KEPT_FILES are kept."""
    family, _ = key_of(t, name)
    digest = hashlib.blake2b(f"{build_id()}\x00{what}".encode(), digest_size=16).hexdigest()
    data = None
    try:
        base = folder()
        path = base / f"{family}_{digest}.kept"
        data = _read_kept(path)
        if data is None:
            with _file_lock(path.with_suffix(".kept-lock")):
                data = _read_kept(path)  # another worker made them while this one waited
                if data is None:
                    with gc_paused():
                        data = build()
                    _write_bytes(base, path, data)
                    files = list(base.glob("*.kept"))
                    for old in sorted(files, key=_age)[:max(0, len(files) - KEPT_FILES)]:
                        old.unlink(missing_ok=True)
                        old.with_suffix(".kept-lock").unlink(missing_ok=True)
    except OSError as e:  # the folder is missing, read-only or full: made here all the same, and said
        log.warning("page cache folder unusable, %s not kept: %s", name, e)
    return data if data is not None else build()


def _read_kept(path: Path) -> Optional[bytes]:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _age(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0


def _write_bytes(base: Path, path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=base, prefix=".kept.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def clear_memory() -> None:
    """Tests: forget this process's pages (the files stay)."""
    with _memory_lock:
        _memory.clear()

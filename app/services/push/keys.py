"""The server's VAPID key pair (RFC 8292): it signs every message's request, and its public half is the
`applicationServerKey` the players' browsers subscribe with, so only this server can push to them.

Given as a setting (VAPID_PRIVATE_KEY: the PEM text, or the raw key as base64url) for a cluster of hosts, else made
at first run and kept in the instance folder (every worker and restart reads the same file). A new key would cut
every existing subscription off: it is never replaced by itself.
"""
from __future__ import annotations

import base64
import os
import threading
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from flask import Flask
from py_vapid import Vapid02

FILE_NAME = "vapid_private_key.pem"
_lock = threading.Lock()
_loaded: dict[str, Vapid02] = {}


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def vapid(app: Flask) -> Vapid02:
    """The key pair, read once per process."""
    given = (app.config.get("VAPID_PRIVATE_KEY") or "").strip()
    where = given or str(Path(app.instance_path) / FILE_NAME)
    with _lock:
        if where not in _loaded:
            _loaded[where] = _from_setting(given) if given else _from_file(Path(where))
        return _loaded[where]


def public_key(app: Flask) -> str:
    """The applicationServerKey: the public point, uncompressed (65 bytes), base64url."""
    raw = vapid(app).public_key.public_bytes(serialization.Encoding.X962,
                                             serialization.PublicFormat.UncompressedPoint)
    return _b64url(raw)


def _from_setting(text: str) -> Vapid02:
    if "BEGIN" in text:
        return Vapid02.from_pem(text.encode("ascii"))
    return Vapid02.from_string(text)


def _from_file(path: Path) -> Vapid02:
    """Read the kept key, or make it: written to a temporary file and linked into place, so of two workers
    starting together exactly one key wins and both use it."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        made = Vapid02()
        made.generate_keys()
        temp = path.with_name(f".{path.name}.{os.getpid()}")
        temp.write_bytes(made.private_pem())
        os.chmod(temp, 0o600)
        try:
            os.link(temp, path)
        except FileExistsError:
            pass
        finally:
            temp.unlink(missing_ok=True)
    return Vapid02.from_pem(path.read_bytes())

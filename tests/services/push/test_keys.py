"""The server's VAPID key pair (app/services/push/keys.py): made once and kept, or given; its public half is the
applicationServerKey browsers subscribe with."""
from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02

from app.services.push import keys


def _raw(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_a_key_is_made_at_first_run_and_kept(tmp_path):
    path = tmp_path / "instance" / keys.FILE_NAME
    first = keys._from_file(path)
    assert path.exists() and (path.stat().st_mode & 0o777) == 0o600
    again = keys._from_file(path)  # a second worker, a restart: the same key, never a new one
    pem = serialization.Encoding.PEM
    assert first.private_pem() == again.private_pem()
    assert first.public_key.public_bytes(pem, serialization.PublicFormat.SubjectPublicKeyInfo) == \
        again.public_key.public_bytes(pem, serialization.PublicFormat.SubjectPublicKeyInfo)


def test_a_given_key_is_used_and_its_public_point_is_what_pages_get(app):
    given = Vapid02()
    given.generate_keys()
    app.config["VAPID_PRIVATE_KEY"] = given.private_pem().decode("ascii")
    public = _raw(keys.public_key(app))
    assert len(public) == 65 and public[0] == 4  # an uncompressed P-256 point
    expected = given.public_key.public_bytes(serialization.Encoding.X962,
                                             serialization.PublicFormat.UncompressedPoint)
    assert public == expected

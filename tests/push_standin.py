"""A stand-in push service on 127.0.0.1 that behaves as RFC 8030 (delivery), RFC 8291 (message encryption) and
RFC 8292 (VAPID) say a browser's push service and the browser behind it do: it makes subscriptions the way a browser
does (a P-256 key pair and a 16-byte auth secret per subscription, the public half given to the page), refuses a
request without TTL or with a bad VAPID signature or audience, decrypts each message with the subscription's own
private key (as the browser would) and keeps what it read. A subscription can be told to answer 410 (gone), 429
(with Retry-After) or 500 for its next requests.

`verify_every`: 1 (the tests) decrypts and checks every message; N > 1 (a benchmark's hall, where decrypting every
message would take the cores the benchmark measures) checks every request's TTL, encoding and VAPID header's form,
verifies the signature and decrypts every Nth, and accepts the others counted (`accepted`: subscription, when).
`serve` runs one as a process of its own."""
from __future__ import annotations

import base64
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    subscription: str
    text: str
    headers: dict
    at: float


@dataclass
class Subscription:
    id: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    answers: list = field(default_factory=list)  # statuses to answer next, in order, before 201


class PushStandIn:
    def __init__(self, verify_every: int = 1) -> None:
        self.subscriptions: dict[str, Subscription] = {}
        self.received: list[Received] = []
        self.accepted: list[tuple[str, float]] = []  # every message taken (201), decrypted or counted
        self.verify_every, self._seen = verify_every, 0
        self.refused: list[tuple[str, int, str]] = []
        self.lock = threading.Lock()
        self.delay = 0.0
        standin = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                status, extra = standin._take(self.path, dict(self.headers), body)
                self.send_response(status)
                for k, v in extra.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscribe(self) -> dict:
        """A new subscription, as `PushSubscription.toJSON()` gives it to the page."""
        sid = b64url(__import__("os").urandom(12))
        key = ec.generate_private_key(ec.SECP256R1())
        auth = __import__("os").urandom(16)
        with self.lock:
            self.subscriptions[sid] = Subscription(sid, key, auth)
        public = key.public_key().public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": f"{self.origin}/push/{sid}", "expirationTime": None,
                "keys": {"p256dh": b64url(public), "auth": b64url(auth)}}

    def answer_next(self, endpoint: str, *statuses: int) -> None:
        sid = endpoint.rsplit("/", 1)[1]
        with self.lock:
            self.subscriptions[sid].answers.extend(statuses)

    def texts(self, endpoint: Optional[str] = None) -> list[dict]:
        with self.lock:
            return [json.loads(r.text) for r in self.received
                    if endpoint is None or r.subscription == endpoint.rsplit("/", 1)[1]]

    def _refuse(self, sid: str, status: int, why: str):
        with self.lock:
            self.refused.append((sid, status, why))
        return status, {}

    def _take(self, path: str, headers: dict, body: bytes):
        if self.delay:
            time.sleep(self.delay)
        if not path.startswith("/push/"):
            return 404, {}
        sid = path[len("/push/"):]
        with self.lock:
            sub = self.subscriptions.get(sid)
        if sub is None:
            return self._refuse(sid, 404, "no such subscription")
        headers = {k.lower(): v for k, v in headers.items()}
        if "ttl" not in headers or not headers["ttl"].isdigit():  # RFC 8030 5.2: TTL is required
            return self._refuse(sid, 400, "no TTL")
        if headers.get("content-encoding") != "aes128gcm":
            return self._refuse(sid, 415, "not aes128gcm")
        with self.lock:
            self._seen += 1
            sampled = self._seen % self.verify_every == 0
        if not sampled:
            if not re.fullmatch(r"vapid t=[\w-]+\.[\w-]+\.[\w-]+, ?k=[\w-]+", headers.get("authorization", "")):
                return self._refuse(sid, 403, "no vapid authorization")
            if len(body) < 86 + 17:  # aes128gcm: a 86-byte header with the sender's key, then a tagged record
                return self._refuse(sid, 400, "too short for aes128gcm")
            with self.lock:
                self.accepted.append((sid, time.monotonic()))
            return 201, {}
        why = self._vapid(headers.get("authorization", ""))
        if why:
            return self._refuse(sid, 403, why)
        with self.lock:
            if sub.answers:
                status = sub.answers.pop(0)
                if status == 410:
                    self.subscriptions.pop(sid, None)
                return status, ({"Retry-After": "1"} if status == 429 else {})
        try:
            text = http_ece.decrypt(body, private_key=sub.private_key, auth_secret=sub.auth, version="aes128gcm")
        except Exception as e:  # noqa: BLE001 - anything that does not decrypt is refused, as a browser drops it
            return self._refuse(sid, 400, f"does not decrypt: {e}")
        with self.lock:
            self.received.append(Received(sid, text.decode("utf-8"), headers, time.monotonic()))
            self.accepted.append((sid, self.received[-1].at))
        return 201, {"Location": f"{self.origin}/message/{len(self.received)}"}

    def _vapid(self, authorization: str) -> Optional[str]:
        """Why the VAPID header (RFC 8292: `vapid t=<JWT>, k=<public key>`) is not valid for this service, or None."""
        if not authorization.startswith("vapid "):
            return "no vapid authorization"
        parts = dict(p.strip().split("=", 1) for p in authorization[len("vapid "):].split(","))
        token, key = parts.get("t", ""), parts.get("k", "")
        try:
            head, claims, signature = token.split(".")
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
            raw = unb64url(signature)
            der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            public.verify(der, f"{head}.{claims}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
            header, payload = json.loads(unb64url(head)), json.loads(unb64url(claims))
        except (ValueError, InvalidSignature):
            return "bad vapid signature"
        if header.get("alg") != "ES256":
            return "not ES256"
        if payload.get("aud") != self.origin:
            return "wrong audience"
        if not (time.time() < payload.get("exp", 0) <= time.time() + 24 * 3600):
            return "expired or too long"
        if not str(payload.get("sub", "")).startswith(("mailto:", "https:")):
            return "no contact"
        return None


def serve(conn, subscriptions: int, verify_every: int) -> None:
    """A stand-in in a process of its own (a benchmark's): sends its origin and `subscriptions` new subscriptions
    through `conn`; then answers each "report" with (accepted since the last report, messages decrypted, refused)
    until told None."""
    standin = PushStandIn(verify_every)
    conn.send((standin.origin, [standin.subscribe() for _ in range(subscriptions)]))
    told = 0
    while conn.recv() is not None:
        with standin.lock:
            fresh, told = standin.accepted[told:], len(standin.accepted)
            conn.send((fresh, len(standin.received), list(standin.refused)))
    standin.close()

"""The sender: one daemon thread per worker process turns queued push events into messages and sends them, so no
request waits on a push service (the same shape as the ABR sender, app/services/abr/sender.py); or, where the
deployment runs it (deploy/systemd/sass-push.service: `flask push-send`, PUSH_SENDER=0 for the workers), one process
of its own at a low CPU priority, so encrypting and signing a hall's messages never holds a worker's GIL or a core
the phones' requests want.

It starts with the process's first request (after gunicorn's fork), is woken at once by a commit that queued an
event (outbox.wake_after_commit), and otherwise looks every IDLE_SECONDS, so another worker's or host's queue is
found too. A batch is sent by PUSH_CONCURRENCY threads at once: a push service answers in tens of milliseconds, and
2,000 players' messages leave in seconds (docs/benchmarks.md).
"""
from __future__ import annotations

import email.utils
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Optional

import requests
from flask import Flask
from pywebpush import WebPushException, webpush

from ...core.push_messages import allowed_endpoint
from ...extensions import db
from ..sender_threads import SenderThreads
from . import keys, outbox, settings

IDLE_SECONDS = 30.0
log = logging.getLogger(__name__)

_local = threading.local()  # each sending thread's connection pool
_wired = threading.Event()


def init_app(app: Flask) -> None:
    """Each worker process starts its sender with its first request, after gunicorn's fork, and a commit that
    queued an event wakes it (called by the application factory through app/services/__init__.py)."""
    if not _wired.is_set():  # one listener per process, whatever the number of apps (tests make many)
        _wired.set()
        outbox.wake_after_commit(wake)
    app.before_request(lambda: ensure_started(app))


def ensure_started(app: Flask) -> None:
    """Start this process's sender for `app` unless it runs, push is off, or the app is under test (tests call
    send_due() themselves, or start() on purpose)."""
    if settings.why_off(app) is not None or not app.config.get("PUSH_SENDER", True) or app.testing:
        return
    start(app)


def _session() -> requests.Session:
    """This sending thread's connection pool; redirects are never followed (an allowed push service must not
    send the server's post anywhere else)."""
    session = getattr(_local, "session", None)
    if session is None:
        session = _local.session = requests.Session()
        session.max_redirects = 0
        session.trust_env = False  # no proxy or .netrc from the environment: the post goes where the endpoint says
    return session


def _retry_after(response) -> Optional[float]:
    value = response.headers.get("Retry-After") if response is not None else None
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def send_one(app: Flask, message: outbox.Outgoing) -> tuple[outbox.Outgoing, Optional[int], Optional[float]]:
    """Encrypt and post one message (RFC 8291 aes128gcm, signed with VAPID); its HTTP status (None: no answer)."""
    if not allowed_endpoint(message.endpoint, app.config["PUSH_SERVICES"]):
        return message, 400, None  # PUSH_SERVICES narrowed since it subscribed: dropped, never posted
    try:
        response = webpush({"endpoint": message.endpoint, "keys": {"p256dh": message.p256dh, "auth": message.auth}},
                           data=message.payload, vapid_private_key=keys.vapid(app),
                           vapid_claims={"sub": app.config["PUSH_CONTACT"] or _contact(app)},
                           ttl=message.ttl, timeout=app.config["PUSH_TIMEOUT_SECONDS"],
                           headers={"Topic": message.topic, "Urgency": "high"}, requests_session=_session())
    except WebPushException as e:
        response = e.response
        return message, (response.status_code if response is not None else None), _retry_after(response)
    except requests.TooManyRedirects:
        return message, 400, None
    except (requests.RequestException, OSError):
        return message, None, None
    except Exception:  # noqa: BLE001 - a message that cannot be made (a bad key, a bad setting) is dropped, logged
        log.exception("push: message %s could not be sent", message.id)
        return message, 400, None
    return message, response.status_code, _retry_after(response)


def _contact(app: Flask) -> str:
    public = (app.config.get("PUBLIC_URL") or "").strip()
    return public if public.startswith("https://") else "mailto:push@sass.invalid"


def send_due(app: Flask) -> dict[str, int]:
    """Expand every queued event and send every due message this process can claim; counts by outcome."""
    totals = {outbox.SENT: 0, outbox.GONE: 0, outbox.RETRY: 0, outbox.DROPPED: 0}
    with app.app_context():
        try:
            outbox.expand()
            with ThreadPoolExecutor(max_workers=app.config["PUSH_CONCURRENCY"],
                                    thread_name_prefix="push-send") as pool:
                while True:
                    batch = outbox.claim()
                    if not batch:
                        break
                    counts = outbox.record(pool.map(lambda m: send_one(app, m), batch))
                    for kind, n in counts.items():
                        totals[kind] += n
                    if counts[outbox.SENT] + counts[outbox.GONE] + counts[outbox.DROPPED] == 0:
                        break  # all of it waits for a retry: the loop sleeps until then
                    outbox.expand()
        finally:
            db.session.remove()
    return totals


def serve_forever(app: Flask, poll_seconds: float, stopped: threading.Event) -> None:
    """The sender as a process of its own until `stopped`: no commit in a worker can wake it, so it looks every
    `poll_seconds` (five small statements when nothing is queued), sooner when a retry is due."""
    while not stopped.is_set():
        try:
            send_due(app)
            with app.app_context():
                try:
                    wait = outbox.next_due_in(poll_seconds)
                finally:
                    db.session.remove()
        except Exception:  # noqa: BLE001 - the database away for a moment: the process must live on
            log.exception("push-send: trying again in %s s", poll_seconds)
            wait = poll_seconds
        stopped.wait(max(wait, 0.05))


_threads = SenderThreads("push-sender", send_due, outbox.next_due_in, IDLE_SECONDS, least_wait=0.2)
start, stop, wake, running = _threads.start, _threads.stop, _threads.wake, _threads.running

"""The sender: one daemon thread per worker process sends the uploads that are due, so no request ever waits on
ABR and a laptop that was offline sends by itself once ABR answers again (no extra service to start).

It starts with the process's first request (gunicorn forks its workers: a thread started before the fork would not
exist in them), sleeps until the earliest queued upload is due (at most IDLE_SECONDS, so another host's upload is
found too), and is woken at once when this process queues one. Every worker of every host runs one; the claim in
app/services/abr/uploads.py makes sure exactly one of them sends each upload.
"""
from __future__ import annotations

import logging
import os
import threading
from datetime import timedelta

from flask import Flask

from ...extensions import db
from . import uploads
from .client import post

IDLE_SECONDS = 60.0
log = logging.getLogger(__name__)

_lock = threading.Lock()
# (process, app) -> this process's thread for that app, the event that stops it (tests stop theirs) and the event
# that wakes it: one each, so one thread clearing its wake never swallows another's stop
_started: dict[tuple[int, int], tuple[threading.Thread, threading.Event, threading.Event]] = {}


def init_app(app: Flask) -> None:
    """Each worker process starts its sender with its first request, after gunicorn's fork (called by the
    application factory through app/services/__init__.py)."""
    app.before_request(lambda: ensure_started(app))


def ensure_started(app: Flask) -> None:
    """Start this process's sender for `app` unless it runs, or ABR_SENDER is off, or the app is under test (the
    tests send with send_due() themselves, or start it on purpose with start())."""
    if not app.config.get("ABR_SENDER", True) or app.testing:
        return
    start(app)


def start(app: Flask) -> threading.Thread:
    key = (os.getpid(), id(app))
    with _lock:
        thread = _started[key][0] if key in _started else None
        if thread is None or not thread.is_alive():
            stopped, woken = threading.Event(), threading.Event()
            thread = threading.Thread(target=_run, args=(app, stopped, woken), name="abr-sender", daemon=True)
            _started[key] = (thread, stopped, woken)
            thread.start()
    return thread


def stop(app: Flask) -> None:
    """End this process's sender for `app` (the tests' apps come and go; a server's runs as long as it does)."""
    with _lock:
        thread, stopped, woken = _started.pop((os.getpid(), id(app)), (None, None, None))
    if thread is not None:
        stopped.set()
        woken.set()
        thread.join(timeout=30)


def wake() -> None:
    """Something was queued in this process: look now rather than at the next timed wake."""
    with _lock:
        for _thread, _stopped, woken in _started.values():
            woken.set()


def send_due(app: Flask) -> int:
    """Send every upload due now that this process can claim; how many it sent (whatever ABR answered)."""
    sent = 0
    timeout = app.config["ABR_TIMEOUT_SECONDS"]
    lease = max(uploads.LEASE, timedelta(seconds=4 * timeout))  # a send never outlives its claim
    with app.app_context():
        try:
            for upload_id in uploads.due():
                upload = uploads.claim(upload_id, lease)
                if upload is None:  # another worker or host has it
                    continue
                answer = post(app.config["ABR_URL"], uploads.wire(upload.body).encode("utf-8"), timeout,
                              app.config["ABR_ANSWER_BYTES"],
                              app.config["ABR_USER"], app.config["ABR_PASSWORD"],
                              filename=f"sass-{upload.tournament_id}-{upload.digest[:8]}.json")
                uploads.record(upload_id, answer)
                log.info("ABR upload %s: %s", upload_id, answer.outcome)  # not the code: it concludes the event
                sent += 1
        finally:
            db.session.remove()
    return sent


def _sleep_seconds(app: Flask) -> float:
    with app.app_context():
        try:
            return uploads.next_due_in(IDLE_SECONDS)
        finally:
            db.session.remove()


def _run(app: Flask, stopped: threading.Event, woken: threading.Event) -> None:
    while not stopped.is_set():
        try:
            send_due(app)
            wait = _sleep_seconds(app)
        except Exception:  # noqa: BLE001 - the database away for a moment: the thread must live on
            log.exception("ABR sender: trying again in %s s", IDLE_SECONDS)
            wait = IDLE_SECONDS
        woken.wait(max(wait, 0.5))
        woken.clear()

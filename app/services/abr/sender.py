"""The sender: one daemon thread per worker process sends the uploads that are due (app/services/sender_threads.py),
so no request ever waits on ABR and a laptop that was offline sends by itself once ABR answers again (no extra
service to start); the claim in app/services/abr/uploads.py makes sure exactly one of them sends each upload.
"""
from __future__ import annotations

import logging
from datetime import timedelta

from flask import Flask

from ...extensions import db
from ..sender_threads import SenderThreads
from . import uploads
from .client import post

IDLE_SECONDS = 60.0
log = logging.getLogger(__name__)


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


_threads = SenderThreads("abr-sender", send_due, uploads.next_due_in, IDLE_SECONDS, least_wait=0.5)
start, stop, wake, running = _threads.start, _threads.stop, _threads.wake, _threads.running

"""The senders' thread (app/services/sender_threads.py): one per process and app, woken at once by a queue, alive
through a failing pass, stopped when asked."""
from __future__ import annotations

import threading

from app.services.sender_threads import SenderThreads


def test_one_thread_woken_at_once_and_alive_through_a_failure(app):
    passes, failed = [], threading.Event()

    def send_due(_app):
        passes.append(1)
        if len(passes) == 2:
            failed.set()
            raise RuntimeError("the database away for a moment")

    threads = SenderThreads("test-sender", send_due, lambda idle: idle, idle_seconds=60, least_wait=0.01)
    first = threads.start(app)
    try:
        assert threads.start(app) is first and threads.running(app) is first  # one per process and app
        threads.wake()
        assert failed.wait(5)  # the second pass came at once, not after the 60 s idle wait
        threads.wake()  # the failing pass left the thread alive (it waits its idle time, unless woken)
        for _ in range(500):
            if len(passes) >= 3:
                break
            threading.Event().wait(0.01)
        assert len(passes) >= 3 and first.is_alive()
    finally:
        threads.stop(app)
    assert not first.is_alive() and threads.running(app) is None

"""One daemon thread per worker process and app that sends what a queue in the database holds (the ABR uploads,
the push messages), so no request ever waits on another site.

It starts with the process's first request (gunicorn forks its workers: a thread started before the fork would not
exist in them), sleeps until the earliest queued item is due (at most its idle time, so another host's queue is
found too), and is woken at once when this process queues one. Every worker of every host runs one; each queue's
claim (a conditional UPDATE) makes sure exactly one of them sends each item.
"""
from __future__ import annotations

import logging
import os
import threading
from typing import Callable

from flask import Flask

from ..extensions import db

log = logging.getLogger(__name__)


class SenderThreads:
    def __init__(self, name: str, send_due: Callable[[Flask], object], next_due_in: Callable[[float], float],
                 idle_seconds: float, least_wait: float) -> None:
        self.name, self.send_due, self.next_due_in = name, send_due, next_due_in
        self.idle_seconds, self.least_wait = idle_seconds, least_wait
        self._lock = threading.Lock()
        # (process, app) -> this process's thread for that app, the event that stops it (tests stop theirs) and
        # the event that wakes it: one each, so one thread clearing its wake never swallows another's stop
        self._started: dict[tuple[int, int], tuple[threading.Thread, threading.Event, threading.Event]] = {}

    def start(self, app: Flask) -> threading.Thread:
        key = (os.getpid(), id(app))
        with self._lock:
            thread = self._started[key][0] if key in self._started else None
            if thread is None or not thread.is_alive():
                stopped, woken = threading.Event(), threading.Event()
                thread = threading.Thread(target=self._run, args=(app, stopped, woken), name=self.name, daemon=True)
                self._started[key] = (thread, stopped, woken)
                thread.start()
        return thread

    def running(self, app: Flask) -> threading.Thread | None:
        """This process's thread for `app`, if it was started."""
        with self._lock:
            started = self._started.get((os.getpid(), id(app)))
        return started[0] if started else None

    def stop(self, app: Flask) -> None:
        """End this process's thread for `app` (the tests' apps come and go; a server's runs as long as it does)."""
        with self._lock:
            thread, stopped, woken = self._started.pop((os.getpid(), id(app)), (None, None, None))
        if thread is not None:
            stopped.set()
            woken.set()
            thread.join(timeout=30)

    def wake(self) -> None:
        """Something was queued in this process: look now rather than at the next timed wake."""
        with self._lock:
            for _thread, _stopped, woken in self._started.values():
                woken.set()

    def _sleep_seconds(self, app: Flask) -> float:
        with app.app_context():
            try:
                return self.next_due_in(self.idle_seconds)
            finally:
                db.session.remove()

    def _run(self, app: Flask, stopped: threading.Event, woken: threading.Event) -> None:
        while not stopped.is_set():
            try:
                self.send_due(app)
                wait = self._sleep_seconds(app)
            except Exception:  # noqa: BLE001 - the database away for a moment: the thread must live on
                log.exception("%s: trying again in %s s", self.name, self.idle_seconds)
                wait = self.idle_seconds
            woken.wait(max(wait, self.least_wait))
            woken.clear()

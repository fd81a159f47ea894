"""A bounded memory of answers by key, shared by a process's threads: the least recently used goes first.

What the app keeps this way is keyed by versions (an event's version, a series' versions, the minute), so a kept
answer is never stale, only unused; the bound keeps a long-running worker's memory flat.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

V = TypeVar("V")
_MISSING = object()


class Kept(Generic[V]):
    def __init__(self, size: int):
        self.size = size
        self._answers: "OrderedDict[Hashable, V]" = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The answer kept for `key`, else `make()`'s, kept (made outside the lock: two threads may both make it,
        and the answers are equal)."""
        found = self.find(key, _MISSING)
        if found is not _MISSING:
            return found
        made = make()
        self.keep(key, made)
        return made

    def find(self, key: Hashable, default=None):
        """The answer kept for `key`, else `default` (for a caller that makes its misses together)."""
        with self._lock:
            if key in self._answers:
                self._answers.move_to_end(key)
                return self._answers[key]
        return default

    def keep(self, key: Hashable, answer: V) -> None:
        with self._lock:
            self._answers[key] = answer
            while len(self._answers) > self.size:
                self._answers.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()

    def __len__(self) -> int:
        return len(self._answers)

"""app/core/kept.py: answers kept by key, the least recently used dropped first, made once per key."""
from __future__ import annotations

import threading

from app.core.kept import Kept


def test_an_answer_is_made_once_and_the_least_recently_used_goes_first():
    made = []
    kept: Kept[str] = Kept(2)

    def make(key):
        return lambda: made.append(key) or f"answer {key}"

    assert kept.get("a", make("a")) == "answer a" and kept.get("a", make("a")) == "answer a"
    kept.get("b", make("b"))
    kept.get("a", make("a"))  # a used again: b is now the oldest
    kept.get("c", make("c"))
    assert len(kept) == 2
    kept.get("a", make("a"))
    kept.get("b", make("b"))  # b was dropped: made again
    assert made == ["a", "b", "c", "b"]
    kept.clear()
    assert len(kept) == 0


def test_threads_share_it_and_it_stays_bounded():
    kept: Kept[int] = Kept(16)

    def work(offset):
        for i in range(500):
            assert kept.get((offset + i) % 40, lambda i=i: (offset + i) % 40) == (offset + i) % 40

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(kept) == 16


def test_find_and_keep_let_a_caller_make_its_misses_together():
    kept: Kept[int] = Kept(2)
    assert kept.find("x") is None and kept.find("x", 0) == 0
    kept.keep("x", 1)
    kept.keep("y", 2)
    assert kept.find("x") == 1  # x used: y is now the oldest
    kept.keep("z", 3)
    assert kept.find("y") is None and kept.get("x", lambda: 99) == 1

"""A published round's 64 seats answers (api.seats, app/core/seat_lookup.py) made before the hall's phones ask.

A phone asks for its bucket's answer the moment its status poll names a new round. Made on the first ask, each
bucket's first ask waited on the app (a read of the round, then its bytes) while the app also built the pairings
page, and the proxy held the bucket's other asks behind it. So status.json, before it first names a round's
pairings (a publish, a re-publish, new pairings) in a worker, makes that round's 64 answers in the shared page
cache (app/web/page_cache.py: one read of the round for all 64, the files every worker and host reads): when the
proxy hands the hall that status, every answer it sets off asking for is made, and the app only copies it out.
The answers are kept under the event's version like every shared page, so a result, a withdrawal or new pairings
make them another page: a stale round is never served as current. A small round's are left to its phones' asks.
"""
from __future__ import annotations

import logging
from typing import Optional

from ..core.kept import Kept
from ..core.seat_lookup import BUCKETS
from ..models import Tournament
from ..services.swiss import seat_lookup
from . import page_cache
from .access import public_tournament

log = logging.getLogger(__name__)

# Below this many seats a round's answers cost its phones' asks a few milliseconds, and 64 files an event would crowd
# the page cache's other pages out of its folder (page_cache.FILES_KEPT): they are made on the asks.
AHEAD_SEATS = 500
# slug -> the (round, pairings version) of its status whose answers this process has made ready
_made: Kept[tuple] = Kept(256)


def page(t: Tournament, number: int, bucket: int) -> Optional[page_cache.Page]:
    """Bucket `bucket`'s answer in published round `number` at the event's version; None: no such answer."""
    return page_cache.get(t, f"api-seats-{number}-{bucket}",
                          lambda: page_cache.json_document(seat_lookup.answer(t, number, bucket)))


def make_all(t: Tournament, number: int) -> None:
    """Every bucket's answer of round `number` into the shared page cache (from one read of the round, or read
    from the folder when another worker made them first); a round of fewer than AHEAD_SEATS seats is left to its
    phones' asks."""
    if seat_lookup.seat_count(t, number) < AHEAD_SEATS:
        return
    for bucket in range(BUCKETS):
        if page(t, number, bucket) is None:  # not published (withdrawn meanwhile): nothing to make
            return


def ready(slug: str, status: dict) -> None:
    """Before status.json answers `status`: the seats answers of the round it names, made once per round and
    pairings version in this process. A failure leaves them to be made on the phones' asks, as before (it is not
    tried again on the next status); the status answers all the same."""
    number = status.get("round")
    seen = (number, status.get("version"))  # no round too: round 1 undone, then paired and published again
    if _made.find(slug) == seen:
        return
    try:
        if number:  # status.json found the event: public_tournament finds it too
            make_all(public_tournament(slug), number)
    except Exception:  # noqa: BLE001 - the status is what every phone waits for; the answers can wait
        log.exception("seats answers of %s round %s not made ahead", slug, number)
    _made.keep(slug, seen)  # tried once, failed or not: not again on every status of this round


def forget() -> None:
    """Tests: this process has made nothing ahead."""
    _made.clear()

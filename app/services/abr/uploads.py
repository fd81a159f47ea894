"""The ABR upload queue in the database: what the TO's click queues, what the sender claims and records, and the
state the dashboard shows.

One row per version of the results (the file's SHA-256, unique per event), so a second click, tab or worker never
makes a second upload of the same file, and a sent file is never sent again. A worker claims a due row with one
conditional UPDATE (queued and due -> sending, with a lease): of two workers or hosts, exactly one changes the row
and sends it. A worker that dies mid-send leaves its claim to expire after LEASE, then the row is due again.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import AbrUpload, Tournament, as_utc, utcnow
from .. import next_step
from ..event_files import nrtm_export
from ..locks import lock_tournament
from .contract import REFUSED, SENT, Answer, backoff

# A claim outlives the longest send (ABR_TIMEOUT_SECONDS, 15 s by default) many times over.
LEASE = timedelta(minutes=2)
NOT_SENT, QUEUED, SENDING, DONE, FAILED, SUPERSEDED = "not sent", "queued", "sending", "sent", "failed", "superseded"
WAITING = (QUEUED, SENDING)


class AbrError(Exception):
    """Why the results cannot be queued now, in words for the TO."""


@dataclass(frozen=True)
class Queued:
    upload: AbrUpload
    new: bool  # False: this version was already queued or sent; nothing new was queued


def ready(t: Tournament) -> bool:
    """Results go to ABR once the event is over: the cut decided, or the swiss over when there is no cut."""
    step, facts = next_step.for_tournament(t)
    return step.kind == next_step.FINISHED or (facts.cut is None and next_step.swiss_over(facts))


def build(t: Tournament, url: str, app_name: str) -> str:
    """The NRTM file for ABR, sent or downloaded: the public export (app/services/event_files/nrtm_export.py), never
    with `abrTournamentId`: ABR takes a file naming an event only from a TO logged in to ABR in a browser, and a
    server's upload naming one is refused (HTTP 403) and left on ABR under a code nobody is told (docs/api.md)."""
    return json.dumps(nrtm_export.export(t, url, app_name), ensure_ascii=False, separators=(",", ":"))


def wire(body: str) -> str:
    """The file as it goes out: an upload queued by an older SASS may carry `abrTournamentId`, which ABR would
    refuse from a server (see `build`); it leaves without it."""
    try:
        data = json.loads(body)
    except ValueError:
        return body
    if not isinstance(data, dict) or "abrTournamentId" not in data:
        return body
    data.pop("abrTournamentId")
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def file_name(t: Tournament) -> str:
    """The downloaded file's name, after the event, for ABR's Conclude form."""
    return f"{t.name} {t.date.isoformat()} for ABR.json" if t.date else f"{t.name} for ABR.json"


def event_page(abr_url: str, abr_id: Optional[int]) -> str:
    """The ABR event's page, when the TO gave its id (the id makes this link only; ABR is never sent it)."""
    return f"{abr_url}/tournaments/{abr_id}" if abr_id else ""


NOT_OVER = ("The event is not over yet: the results go to ABR once the top cut is decided (or, with no cut, once "
            "every swiss round is played).")
NO_LOGIN = ("This server has no login for ABR's upload address (ABR_USER and ABR_PASSWORD are not set), so it "
            "sends nothing: download the NRTM file and give it to your event's Conclude form on ABR, logged in "
            "there.")


def queue(t: Tournament, url: str, app_name: str, user_id: Optional[int], login: bool = True) -> Queued:
    """Queue the event's results as they are now. The same file again: the row it already has (a failed or
    superseded one goes back in the queue). A newer file supersedes an older one still waiting. `login`: the
    server has a login for ABR's upload address; without one nothing is queued (ABR would answer 401)."""
    if not login:
        raise AbrError(NO_LOGIN)
    t = lock_tournament(t)  # one click at a time per event: two tabs queue one row
    if not ready(t):
        db.session.rollback()
        raise AbrError(NOT_OVER)
    body = build(t, url, app_name)
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    same = db.session.scalar(sa.select(AbrUpload).filter_by(tournament_id=t.id, digest=digest))
    if same is not None and same.state in (QUEUED, SENDING, DONE):
        same.version = t.version  # the event changed, not its results: this file is still the event as it is
        db.session.commit()
        return Queued(same, False)
    db.session.execute(sa.update(AbrUpload).where(AbrUpload.tournament_id == t.id, AbrUpload.state == QUEUED,
                                                  AbrUpload.digest != digest)
                       .values(state=SUPERSEDED))
    previous = last_sent(t)
    upload = same or AbrUpload(tournament_id=t.id, digest=digest, body=body)
    upload.version, upload.abr_id, upload.queued_by_id = t.version, t.abr_id, user_id
    upload.state, upload.attempts, upload.next_try_at, upload.claimed_until = QUEUED, 0, utcnow(), None
    upload.last_error, upload.queued_at = "", utcnow()
    upload.replaces_id = previous.id if previous is not None else None
    db.session.add(upload)
    try:
        db.session.commit()
    except IntegrityError:  # cannot happen under the lock; a second host without it finds the row next time
        db.session.rollback()
        raise AbrError("These results were queued at the same moment from elsewhere: reload the page.") from None
    return Queued(upload, True)


def last_sent(t: Tournament) -> Optional[AbrUpload]:
    return db.session.scalar(sa.select(AbrUpload).filter_by(tournament_id=t.id, state=DONE)
                             .order_by(AbrUpload.sent_at.desc(), AbrUpload.id.desc()).limit(1))


def history(t: Tournament) -> list[AbrUpload]:
    """Every upload of the event, newest first."""
    return db.session.scalars(sa.select(AbrUpload).filter_by(tournament_id=t.id)
                              .order_by(AbrUpload.queued_at.desc(), AbrUpload.id.desc())
                              .execution_options(populate_existing=True)).all()


@dataclass(frozen=True)
class State:
    """What the dashboard says: the newest upload that counts (waiting, else the last answer), and the last one
    ABR took, which a newer upload replaces."""
    kind: str  # NOT_SENT, QUEUED, SENDING, DONE or FAILED
    upload: Optional[AbrUpload]
    sent: Optional[AbrUpload]  # the last upload ABR took (may be `upload` itself)
    ready: bool  # the event is over: the file for ABR is final (download, send)
    current: bool  # nothing in the event changed since the last sent file was made
    login: bool = False  # the server has a login for ABR's upload address: "Send to ABR" is offered
    event_page: str = ""  # the ABR event's page, when the TO gave its id
    site: str = ""  # ABR's address (ABR_URL), where the TO logs in

    @property
    def can_send(self) -> bool:
        return self.ready and self.login


def state(t: Tournament, abr_url: str = "", login: bool = False) -> State:
    rows = [u for u in history(t) if u.state != SUPERSEDED]
    upload = rows[0] if rows else None
    sent = next((u for u in rows if u.state == DONE), None)
    kind = NOT_SENT if upload is None else upload.state
    if kind == SENDING and stale(upload):
        kind = QUEUED
    return State(kind, upload, sent, ready(t), bool(sent and sent.version == t.version), login,
                 event_page(abr_url, t.abr_id) if abr_url else "", abr_url)


def stale(upload: AbrUpload, now: Optional[datetime] = None) -> bool:
    return upload.state == SENDING and (upload.claimed_until is None
                                        or as_utc(upload.claimed_until) <= (now or utcnow()))


def due(limit: int = 10) -> list[int]:
    """Ids of uploads to send now: queued and due, or claimed by a worker that has not finished in time."""
    now = utcnow()
    return list(db.session.scalars(
        sa.select(AbrUpload.id).where(sa.or_(sa.and_(AbrUpload.state == QUEUED, AbrUpload.next_try_at <= now),
                                             sa.and_(AbrUpload.state == SENDING, AbrUpload.claimed_until <= now)))
        .order_by(AbrUpload.next_try_at, AbrUpload.id).limit(limit)))


def next_due_in(default: float) -> float:
    """Seconds until the earliest queued upload is due (0 if one is), at most `default`."""
    first = db.session.scalar(sa.select(sa.func.min(AbrUpload.next_try_at)).where(AbrUpload.state == QUEUED))
    lease = db.session.scalar(sa.select(sa.func.min(AbrUpload.claimed_until)).where(AbrUpload.state == SENDING))
    times = [as_utc(x) for x in (first, lease) if x is not None]
    if not times:
        return default
    return max(0.0, min(default, (min(times) - utcnow()).total_seconds()))


def claim(upload_id: int, lease: timedelta = LEASE) -> Optional[AbrUpload]:
    """Take the upload for this worker for `lease` (longer than its send may take): one conditional UPDATE, so of
    any number of workers and hosts trying at once exactly one gets it. None: another has it, or it is not due."""
    now = utcnow()
    result = db.session.execute(
        sa.update(AbrUpload).where(AbrUpload.id == upload_id,
                                   sa.or_(sa.and_(AbrUpload.state == QUEUED, AbrUpload.next_try_at <= now),
                                          sa.and_(AbrUpload.state == SENDING, AbrUpload.claimed_until <= now)))
        .values(state=SENDING, claimed_until=now + lease, attempts=AbrUpload.attempts + 1)
        .execution_options(synchronize_session=False))
    db.session.commit()
    if result.rowcount != 1:
        return None
    return db.session.scalar(sa.select(AbrUpload).where(AbrUpload.id == upload_id)
                             .execution_options(populate_existing=True))


def record(upload_id: int, answer: Answer) -> None:
    """Keep ABR's answer on the upload this worker claimed (only while it still holds it)."""
    now = utcnow()
    row = sa.update(AbrUpload).where(AbrUpload.id == upload_id, AbrUpload.state == SENDING)
    if answer.outcome == SENT:
        values = dict(state=DONE, code=answer.code, abr_url=answer.url, note=answer.words, sent_at=now,
                      last_error="", claimed_until=None)
    elif answer.outcome == REFUSED:
        values = dict(state=FAILED, last_error=answer.words, claimed_until=None)
    else:
        attempts = db.session.scalar(sa.select(AbrUpload.attempts).where(AbrUpload.id == upload_id)) or 1
        values = dict(state=QUEUED, last_error=answer.words, claimed_until=None,
                      next_try_at=now + timedelta(seconds=backoff(attempts)))
    db.session.execute(row.values(**values).execution_options(synchronize_session=False))
    db.session.commit()


def wait_seconds(upload: AbrUpload) -> int:
    """Seconds until a queued upload's next try."""
    return max(0, int((as_utc(upload.next_try_at) - utcnow()).total_seconds()))

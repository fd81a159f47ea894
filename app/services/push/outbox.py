"""The push queue in the database.

A service that makes something happen a player should hear about calls `queue` in its own transaction: one INSERT,
and only when someone in the event subscribed, so a publish commits and returns as before. The sender (each worker
process's thread) then `expand`s each event into one message per subscription, claims due messages with one
conditional UPDATE each batch (of two workers or hosts, exactly one sends a message), and `record`s what the push
service answered, as RFC 8030 says: 2xx taken; 404 or 410 the subscription is gone (deleted); 429 and 5xx tried again
later (Retry-After, else back-off); anything else dropped. A message never outlives its time to live, and a newer
message of the same topic replaces an unsent older one, so a stale "round 3" is never sent during round 4.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Iterable, Optional

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session

from ...core import push_messages as words
from ...core.brackets import Bracket, cut_tables
from ...extensions import db
from ...models import (CutEntry, JudgeCall, Player, PushEvent, PushMessage, PushSubscription, Tournament, User,
                       as_utc, utcnow)
from ..players import player_links
from ..swiss import seat_lookup

ROUND, TIME, REPORT, JUDGE, WAITLIST, CUT = "round", "time", "report", "judge", "waitlist", "cut"
KINDS = (ROUND, TIME, REPORT, JUDGE, WAITLIST, CUT)
LEASE = timedelta(minutes=2)  # a batch's sends end long before (each has PUSH_TIMEOUT_SECONDS)
BATCH = 200
MAX_BACKOFF = timedelta(minutes=10)
QUEUED = "sass_push_queued"  # the session's info: something was queued, wake the sender after the commit


def queue(tournament_id: int, kind: str, *, round: Optional[int] = None, player_id: Optional[int] = None,
          ref: Optional[int] = None) -> None:
    """Queue `kind` for the event (for `player_id` alone when given) in the caller's transaction, if anyone it
    concerns subscribed; the caller commits."""
    assert kind in KINDS, kind
    subscribed = sa.select(PushSubscription.id).where(PushSubscription.tournament_id == tournament_id)
    if player_id is not None:
        subscribed = subscribed.where(PushSubscription.player_id == player_id)
    values = sa.select(sa.literal(tournament_id), sa.literal(kind), sa.literal(round, sa.Integer),
                       sa.literal(player_id, sa.Integer), sa.literal(ref, sa.Integer), sa.literal(utcnow())
                       ).where(subscribed.exists())
    done = db.session.execute(sa.insert(PushEvent).from_select(
        ["tournament_id", "kind", "round", "player_id", "ref", "created_at"], values))
    if done.rowcount:
        db.session.info[QUEUED] = True


@dataclass(frozen=True)
class Addressed:
    """A message for one player, before it is copied to each of their subscriptions."""
    player_id: int
    message: words.Message


def expand(limit: int = 50) -> int:
    """Turn queued events into messages (each event by exactly one worker: the DELETE that takes it is the claim);
    how many events were expanded."""
    done = 0
    for event_id in db.session.scalars(sa.select(PushEvent.id).order_by(PushEvent.id).limit(limit)).all():
        event = db.session.get(PushEvent, event_id)
        if event is None:
            continue
        taken = db.session.execute(sa.delete(PushEvent).where(PushEvent.id == event_id),
                                   execution_options={"synchronize_session": False})
        if not taken.rowcount:
            db.session.rollback()
            continue
        t = db.session.get(Tournament, event.tournament_id)
        if t is not None:
            _store(t, _compose(t, event))
        db.session.commit()
        done += 1
    return done


def _compose(t: Tournament, event: PushEvent) -> list[Addressed]:
    if event.kind in (ROUND, TIME):
        return _round(t, event.round, time_called=event.kind == TIME)
    if event.kind == CUT:
        return _cut(t)
    if event.player_id is None:
        return []
    if event.kind == REPORT:
        reporter = db.session.get(Player, event.ref) if event.ref else None
        return [Addressed(event.player_id, words.report_waiting(t.name, event.round or 0,
                                                                reporter.name if reporter else "Your opponent"))]
    if event.kind == JUDGE:
        call = db.session.get(JudgeCall, event.ref) if event.ref else None
        if call is None or call.state != "claimed":
            return []
        judge = db.session.get(User, call.claimed_by_id) if call.claimed_by_id else None
        return [Addressed(event.player_id, words.judge_on_the_way(t.name, judge.display_name if judge else None,
                                                                  call.table))]
    if event.kind == WAITLIST:
        return [Addressed(event.player_id, words.place_freed(t.name))]
    return []


def _round(t: Tournament, number: Optional[int], time_called: bool) -> list[Addressed]:
    """Every subscribed player seated in round `number`: their table, side and opponent (or their bye); for time
    called, only the tables still playing."""
    subscribed = sa.select(PushSubscription.player_id).where(PushSubscription.tournament_id == t.id)
    out = []
    for s in seat_lookup.seated(t, number, subscribed) or ():
        if time_called:
            if s.playing:
                out.append(Addressed(s.player_id, words.time_called(t.name, number)))
        else:
            out.append(Addressed(s.player_id, words.round_published(t.name, number, s.table, s.side, s.opponent,
                                                                    t.round_minutes)))
    return out


def _cut(t: Tournament) -> list[Addressed]:
    """Each subscribed player seeded into the cut just made: their seed and first game (no game is played yet:
    the bracket of the seeds alone, as app/services/cut.py builds it with no results)."""
    seeds = db.session.scalars(sa.select(CutEntry.player_id).where(CutEntry.tournament_id == t.id)
                               .order_by(CutEntry.seed)).all()
    if not seeds or t.cut_kind is None:
        return []
    subscribed = set(db.session.scalars(sa.select(PushSubscription.player_id)
                                        .where(PushSubscription.tournament_id == t.id)))
    bracket = Bracket.from_results(t.cut_kind, list(seeds), [])
    tables = cut_tables(bracket.games)
    names = dict(db.session.execute(sa.select(Player.id, Player.name).where(Player.tournament_id == t.id)).all())
    out = []
    for seed, player_id in enumerate(seeds, 1):
        if player_id not in subscribed:
            continue
        game = next((g for g in bracket.games if g.ready and player_id in g.players), None)
        other = next((p for p in game.players if p != player_id), None) if game else None
        table = tables.get(game.id, game.id) if game else None
        out.append(Addressed(player_id, words.cut_published(t.name, seed, len(seeds), table, names.get(other))))
    return out


def _store(t: Tournament, addressed: Iterable[Addressed]) -> None:
    """One message per subscription of each addressed player; an unsent older one of the same topic goes."""
    addressed = list(addressed)
    if not addressed:
        return
    now = utcnow()
    players = {a.player_id for a in addressed}
    tokens = {p.id: player_links.token(p) for p in db.session.scalars(
        sa.select(Player).where(Player.tournament_id == t.id, Player.id.in_(players)))}
    subs: dict[int, list[int]] = {}
    for sub_id, player_id in db.session.execute(sa.select(PushSubscription.id, PushSubscription.player_id)
                                                .where(PushSubscription.player_id.in_(players))):
        subs.setdefault(player_id, []).append(sub_id)
    topics = {a.message.topic for a in addressed}
    db.session.execute(sa.delete(PushMessage).where(
        PushMessage.subscription_id.in_([s for ids in subs.values() for s in ids]), PushMessage.topic.in_(topics),
        PushMessage.claim.is_(None)), execution_options={"synchronize_session": False})
    rows = []
    for a in addressed:
        if a.player_id not in tokens:
            continue
        body = json.dumps(a.message.payload(page_path(t.slug, tokens[a.player_id])), ensure_ascii=False)
        for sub_id in subs.get(a.player_id, ()):
            rows.append({"subscription_id": sub_id, "payload": body, "topic": a.message.topic,
                         "expires_at": now + timedelta(seconds=a.message.ttl), "due_at": now, "attempts": 0})
    if rows:
        db.session.execute(sa.insert(PushMessage), rows)


def page_path(slug: str, token: str) -> str:
    """The player's own page, where a tap on the message goes (the service worker opens it on its own origin)."""
    return f"/t/{slug}/p/{token}"


@dataclass(frozen=True)
class Outgoing:
    id: int
    endpoint: str
    p256dh: str
    auth: str
    payload: str
    topic: str
    ttl: int  # seconds left to live, for the TTL header
    attempts: int


def claim(limit: int = BATCH) -> list[Outgoing]:
    """Take up to `limit` due messages for this worker (one UPDATE; rows another worker holds are skipped);
    expired ones are deleted first."""
    now = utcnow()
    db.session.execute(sa.delete(PushMessage).where(PushMessage.expires_at <= now),
                       execution_options={"synchronize_session": False})
    ids = db.session.scalars(sa.select(PushMessage.id).where(
        PushMessage.due_at <= now, sa.or_(PushMessage.claimed_until.is_(None), PushMessage.claimed_until < now))
        .order_by(PushMessage.due_at, PushMessage.id).limit(limit)).all()
    if not ids:
        db.session.commit()
        return []
    token = secrets.token_hex(16)
    db.session.execute(sa.update(PushMessage).where(
        PushMessage.id.in_(ids), sa.or_(PushMessage.claimed_until.is_(None), PushMessage.claimed_until < now))
        .values(claim=token, claimed_until=now + LEASE), execution_options={"synchronize_session": False})
    rows = db.session.execute(
        sa.select(PushMessage.id, PushSubscription.endpoint, PushSubscription.p256dh, PushSubscription.auth,
                  PushMessage.payload, PushMessage.topic, PushMessage.expires_at, PushMessage.attempts)
        .join(PushSubscription, PushSubscription.id == PushMessage.subscription_id)
        .where(PushMessage.claim == token)).all()
    db.session.commit()
    return [Outgoing(r[0], r[1], r[2], r[3], r[4], r[5], max(0, int((as_utc(r[6]) - now).total_seconds())), r[7])
            for r in rows]


SENT, GONE, RETRY, DROPPED = "sent", "gone", "retry", "dropped"


def outcome(status: Optional[int]) -> str:
    """What a push service's answer means for the message (None: no answer at all: the network)."""
    if status is not None and 200 <= status < 300:
        return SENT
    if status in (404, 410):
        return GONE
    if status is None or status == 429 or status >= 500:
        return RETRY
    return DROPPED


def backoff(attempts: int, retry_after: Optional[float]) -> timedelta:
    """How long to wait before the next try: the service's Retry-After, else 2, 4, 8... seconds (at most
    MAX_BACKOFF)."""
    if retry_after is not None and retry_after >= 0:
        return min(timedelta(seconds=retry_after), MAX_BACKOFF)
    return min(timedelta(seconds=2 ** max(1, attempts)), MAX_BACKOFF)


def record(results: Iterable[tuple[Outgoing, Optional[int], Optional[float]]]) -> dict[str, int]:
    """Store the answers of one batch: (message, HTTP status or None, Retry-After seconds or None). Counts by
    outcome."""
    now = utcnow()
    counts = {SENT: 0, GONE: 0, RETRY: 0, DROPPED: 0}
    finished, gone_endpoints = [], []
    for message, status, retry_after in results:
        kind = outcome(status)
        counts[kind] += 1
        if kind == RETRY:
            db.session.execute(sa.update(PushMessage).where(PushMessage.id == message.id).values(
                attempts=message.attempts + 1, claim=None, claimed_until=None,
                due_at=now + backoff(message.attempts + 1, retry_after)),
                execution_options={"synchronize_session": False})
        elif kind == GONE:
            gone_endpoints.append(message.endpoint)
        else:
            finished.append(message.id)
    if finished:
        db.session.execute(sa.delete(PushMessage).where(PushMessage.id.in_(finished)),
                           execution_options={"synchronize_session": False})
    if gone_endpoints:  # the subscription and whatever else was waiting for it
        db.session.execute(sa.delete(PushSubscription).where(PushSubscription.endpoint.in_(gone_endpoints)),
                           execution_options={"synchronize_session": False})
    db.session.commit()
    return counts


def next_due_in(idle: float) -> float:
    """Seconds until the earliest message or event is due, at most `idle`."""
    if db.session.scalar(sa.select(PushEvent.id).limit(1)) is not None:
        return 0.0
    due: Optional[datetime] = db.session.scalar(sa.select(sa.func.min(PushMessage.due_at)))
    db.session.rollback()
    if due is None:
        return idle
    return max(0.0, min(idle, (as_utc(due) - utcnow()).total_seconds()))


def wake_after_commit(callback) -> None:
    """Call `callback` after any commit of a session that queued an event (the sender looks at once)."""
    @sa_event.listens_for(Session, "after_commit")
    def _queued(session):
        if session.info.pop(QUEUED, False):
            callback()

    @sa_event.listens_for(Session, "after_rollback")
    def _dropped(session):
        session.info.pop(QUEUED, None)

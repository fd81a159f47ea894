"""Pairing in the background: a round that may take the engine more than a moment is paired by a worker thread,
and the TO's page follows the job instead of waiting on a request a proxy would time out.

The job's state lives in the database (PairingJob, one row per tournament and round number), so whichever host
serves the TO's next page can show it, and a second click, tab or host finds the running job instead of starting
a second pairing: the tournament lock serialises the starts and the row's unique key refuses a second one.
The pairing itself is services/swiss/rounds.pair_next_round, all or nothing as ever; a failure (the players the engine
could not pair) is kept on the job for the TO to read, with nothing written.
"""
from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import Optional, Union

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import PairingJob, Round, Tournament, as_utc, utcnow
from . import rounds
from ..check_in import roll_call
from ..locks import lock_tournament

# A pairing runs in the background from this many active players, or this many players x rounds so far
# (config PAIRING_BACKGROUND_FROM, PAIRING_BACKGROUND_WORK): below both the engine answers well within a second.
BACKGROUND_FROM = 500
BACKGROUND_WORK = 10_000
# A job with no news for this long lost its worker (a host restarted): another click may start the pairing again.
# The engine's bound is a few seconds (docs/engine.md), so a live job never comes near it.
STALE = timedelta(minutes=2)

log = logging.getLogger(__name__)


def pair(t: Tournament, number: int, plan_digest: Optional[str] = None) -> Union[Round, PairingJob]:
    """Pair round `number`: at once (the Round) when the field is small, else in the background (the job, new or
    already running). RoundError as rounds.pair_next_round (PlanChanged: the roll call's plan is not the one the TO
    confirmed, `plan_digest`); nothing is written on a refusal."""
    if not in_background(t):
        return rounds.pair_next_round(t, number, plan_digest)
    return start(t, number, plan_digest)


def in_background(t: Tournament) -> bool:
    config = current_app.config
    players = rounds.active_players(t)
    return (players >= config.get("PAIRING_BACKGROUND_FROM", BACKGROUND_FROM)
            or players * rounds.latest_number(t) >= config.get("PAIRING_BACKGROUND_WORK", BACKGROUND_WORK))


def start(t: Tournament, number: int, plan_digest: Optional[str] = None) -> PairingJob:
    """The job pairing round `number`: the running one if there is one, else a new one with its worker started
    (which pairs with the plan the TO confirmed, `plan_digest`, or fails saying it changed)."""
    t = lock_tournament(t)
    job = find(t, number)
    if job is not None and job.state == "running" and not stale(job):
        db.session.commit()
        return job
    rounds.check_pairable(t, number)
    try:
        roll_call.check_plan(t, number, plan_digest)
    except roll_call.PlanChanged as e:
        db.session.rollback()
        raise rounds.PlanChanged(str(e), e.preview) from e
    if job is not None:  # an earlier attempt failed, or its worker died: this click starts afresh
        db.session.delete(job)
        db.session.flush()
    players = rounds.active_players(t)
    job = PairingJob(tournament_id=t.id, number=number, state="running",
                     progress=f"Pairing round {number}: {players:,} players.")
    db.session.add(job)
    try:
        db.session.commit()
    except IntegrityError:  # another host's start won the row (the lock makes this rare): follow that job
        db.session.rollback()
        return find(t, number)
    worker = threading.Thread(target=_work, args=(current_app._get_current_object(), t.id, number, job.id,
                                                  plan_digest),
                              name=f"pairing-{t.id}-{number}", daemon=True)
    worker.start()
    return job


def find(t: Tournament, number: int) -> Optional[PairingJob]:
    return db.session.scalar(sa.select(PairingJob).where(PairingJob.tournament_id == t.id,
                                                         PairingJob.number == number)
                             .execution_options(populate_existing=True))


def stale(job: PairingJob) -> bool:
    return job.state == "running" and utcnow() - as_utc(job.updated_at) > STALE


def elapsed_seconds(job: PairingJob) -> int:
    return max(0, int((utcnow() - as_utc(job.started_at)).total_seconds()))


def _work(app, tid: int, number: int, job_id: int, plan_digest: Optional[str] = None) -> None:
    """The worker: pair the round, then record how it went on the job (a row of its own, so a failure keeps the
    engine's message and the round stays unwritten)."""
    with app.app_context():
        try:
            t = db.session.get(Tournament, tid)
            if t is None:
                return
            _update(job_id, progress=f"{_progress(job_id)} The engine is working (it answers within seconds).")
            rounds.pair_next_round(t, number, plan_digest)
            _update(job_id, state="done", progress="Paired.")
        except rounds.AlreadyPaired:
            db.session.rollback()
            _update(job_id, state="done", progress="Paired.")
        except rounds.RoundError as e:
            db.session.rollback()
            _update(job_id, state="failed", message=str(e))
        except Exception:  # noqa: BLE001 - a worker has nobody to raise to: the TO's page says it failed
            log.exception("pairing job %s failed", job_id)
            db.session.rollback()
            _update(job_id, state="failed", message=f"Round {number} could not be paired (an unexpected error); "
                                                    "nothing was written. Try again.")
        finally:
            db.session.remove()


def _progress(job_id: int) -> str:
    return db.session.scalar(sa.select(PairingJob.progress).where(PairingJob.id == job_id)) or ""


def _update(job_id: int, **values) -> None:
    db.session.execute(sa.update(PairingJob).where(PairingJob.id == job_id).values(updated_at=utcnow(), **values))
    db.session.commit()

"""A complete backup of one event as JSON (restored by app/services/event_files/restore.py), and the backups kept on
every publish and, a few seconds later, after results (`follow`).

The file names players by their number within the event (1..n), never by database id, and names no account
(the result log keeps only the kind of account that changed a result, the staff by e-mail), so a restore cannot
reach into anyone's existing data.
"""
from __future__ import annotations

import atexit
import gzip
import json
import logging
import os
import re
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa
from flask import current_app

from ...extensions import db
from ...models import (CutEntry, CutResult, Decklist, PendingStaff, ResultChange, ResultClaim, Round, Staff,
                       Tournament, User, as_utc, utcnow)
from ..players import player_links
from . import event_writer
from ..locks import TournamentGone, lock_tournament
from ..schedule import carry as schedule_carry
from ..swiss import round_tables
from ..penalties import carried as penalties_carried
from ..check_in import carried as check_in_carried

log = logging.getLogger(__name__)

KIND = "sass-backup"
# 2: a double-sided result names both games ("3-0/0-3"); version 1 files (totals such as "3-3") still restore,
# their totals read as results.double_sided reads them.
# 3: each match carries the players' claims (self-reports) and its result log, and the settings single_report;
# in versions 1 and 2 they are absent: no claims, an empty log, one report does not suffice.
# 4: each player carries `link`, a hash of their link, and the event its `staff` (e-mail, role) and `owner`'s
# e-mail, so that a move (restore keeping the address) keeps the links and the staff; absent before: a move refused.
# 5: the event's decklist settings (`tournament.decklists`) and the players' lists (`decklists`: each list's text as
# submitted, judged again on restore under the event's rules); absent before: no lists, none collected.
# 6: the event's `slip_key` and each round's `slip_ref` (what its match slips' codes are made from), `certified`
# and `gap` (the engine's proof) and `timer` (its clock: state, ends_at, remaining_ms), and the staff still to sign
# up after a move (`staff`, as members); absent before: new slip codes, no proof shown, no clock.
# Any version may carry the event's AlwaysBeRunning id (`tournament.abr_id`); absent: none given.
# Also in 6, as an imported NRTM file gives them: a player's `file_rank`, a match's `two_for_one`, a seat's
# `penalty`, and a double-sided total kept without its games ("3-3", results.games_known); absent: none.
# 7: the weekend around the swiss and the series: `penalties` (the penalty log, deck-check draws and checks:
# app/services/penalties/carried.py) and a result change's `reason` (a penalty's game loss), `check_in` (settings,
# check-ins, the waitlist in order), `schedule` (time zone, days, items, each round's real start), `streaming`
# (the stream link, who opted out of coverage, each round's featured table) and `tournament.seed_by_rating`.
# Each is optional on restore (absent: none, off), so a file of any version reads; a SASS that knows only 6 refuses
# a 7 rather than drop a penalty log or a waitlist without a word.
VERSION = 7
READS = (1, 2, 3, 4, 5, 6, 7)
STAFF_ROLES = ("organizer", "scorekeeper")
HASH = re.compile(r"[0-9a-f]{64}")
SLUG = re.compile(r"[0-9a-z]{1,16}")
ACTORS = ("organizer", "staff", "player", "slip")


def _time(moment: datetime) -> str:
    return as_utc(moment).isoformat(timespec="microseconds")


def backup(tournament: Tournament) -> dict:
    players = sorted(tournament.players, key=lambda p: p.id)
    number = {p.id: i for i, p in enumerate(players, 1)}
    rounds = db.session.scalars(sa.select(Round).filter_by(tournament_id=tournament.id).order_by(Round.number)).all()
    tables = round_tables.by_round(r.id for r in rounds)
    entries = db.session.scalars(sa.select(CutEntry).filter_by(tournament_id=tournament.id)
                                 .order_by(CutEntry.seed)).all()
    results = db.session.scalars(sa.select(CutResult).filter_by(tournament_id=tournament.id)
                                 .order_by(CutResult.game)).all()
    claims, changes = {}, {}
    for c in db.session.scalars(sa.select(ResultClaim).filter_by(tournament_id=tournament.id)
                                .order_by(ResultClaim.id)):
        claims.setdefault(c.match_id, []).append({"player": number[c.player_id], "result": c.result,
                                                  "at": _time(c.created_at)})
    for c in db.session.scalars(sa.select(ResultChange).filter_by(tournament_id=tournament.id)
                                .order_by(ResultChange.id)):
        changes.setdefault(c.match_id, []).append({"actor": c.actor, "player": number.get(c.player_id),
                                                   "old": c.old_result, "new": c.new_result,
                                                   "at": _time(c.created_at),
                                                   **({"reason": c.reason} if c.reason else {})})
    t = tournament
    staff = [(s.user.email, s.role) for s in db.session.scalars(
        sa.select(Staff).filter_by(tournament_id=t.id).join(Staff.user).order_by(User.email))]
    staff += [(p.email, p.role) for p in db.session.scalars(
        sa.select(PendingStaff).filter_by(tournament_id=t.id).order_by(PendingStaff.email))]
    return {
        "kind": KIND,
        "version": VERSION,
        "tournament": {
            "name": t.name, "date": t.date.isoformat(), "format": t.format, "score_factor": t.score_factor,
            "planned_rounds": t.planned_rounds, "tiebreakers": t.tiebreakers, "power_pairing": t.power_pairing,
            "seed": t.seed, "slug": t.slug, "single_report": t.single_report, "slip_key": t.slip_key,
            "abr_id": t.abr_id,
            "organiser": {"name": t.organiser_name, "nrdb_username": t.organiser_nrdb_username,
                          "nrdb_id": t.organiser_nrdb_id},
            "decklists": {"collected": t.decklists, "card_format": t.card_format, "restriction": t.restriction,
                          "visibility": t.decklist_visibility, "locked": t.lists_locked},
            "online": t.online,
            "seed_by_rating": t.seed_by_rating,
        },
        "owner": t.owner.email,
        "staff": [{"email": email, "role": role} for email, role in staff],
        "players": [
            {"id": number[p.id], **event_writer.player_values(p), "link": player_links.carried(p),
             # the linked NetrunnerDB account (any version may carry it; absent: not linked)
             **({"nrdb": {"id": p.nrdb_account.nrdb_id, "username": p.nrdb_account.username}}
                if p.nrdb_account is not None else {})}
            for p in players
        ],
        "rounds": [
            {"number": r.number, "published": r.published, "slip_ref": r.slip_ref, "certified": r.certified,
             "gap": r.gap, "seeded_by_rating": r.seeded_by_rating, "timer": None if r.timer_state is None else {
                 "state": r.timer_state, "remaining_ms": r.timer_remaining_ms,
                 "ends_at": None if r.timer_ends_at is None else _time(r.timer_ends_at)},
             "matches": [
                {"table": m.table, "is_bye": m.is_bye, "result": m.result, "intentional_draw": m.intentional_draw,
                 "drawn_games": m.drawn_games, "two_for_one": m.two_for_one, "seats": [
                     {"player": number[s.player_id], "position": s.position, "side": s.side, "points": s.points,
                      "games_won": s.games_won, "penalty": s.penalty}
                     for s in m.seats],
                 "claims": claims.get(m.id, []), "changes": changes.get(m.id, [])}
                for m in tables[r.id]]}
            for r in rounds
        ],
        "decklists": [
            {"player": number[d.player_id], "side": d.side, "text": d.text, "identity_was": d.identity_was,
             "updated_by": d.updated_by, "updated_at": _time(d.updated_at), "unlocked": d.unlocked}
            for d in db.session.scalars(sa.select(Decklist).filter_by(tournament_id=t.id)
                                        .order_by(Decklist.player_id, Decklist.side))],
        # the staff's penalty log and deck checks (app/services/penalties/carried.py); absent: none
        penalties_carried.KEY: penalties_carried.dump(t, number),
        # streaming (any version may carry it; absent: no stream, nobody opted out, no table featured)
        "streaming": {"stream_url": t.stream_url, "no_coverage": [number[p.id] for p in players if p.no_coverage],
                      "featured": [{"round": r.number, "table": r.featured_table} for r in rounds
                                   if r.featured_table is not None]},
        # any version may carry it (app/services/check_in/carried.py); absent: check-in off, no waitlist
        check_in_carried.KEY: check_in_carried.dump(t, number),
        "cut": None if t.cut_kind is None else {
            "kind": t.cut_kind,
            "entries": [{"player": number[e.player_id], "seed": e.seed, "rank": e.rank} for e in entries],
            "results": [_cut_row(r, number) for r in results],
        },
        "schedule": schedule_carry.dump(t),  # any version may carry it (app/services/schedule/carry.py)
    }


def packed(doc: dict) -> bytes:
    """A backup as a gzip file (compact JSON): what the download offers and the automatic backups keep."""
    return gzip.compress(json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode(), compresslevel=6,
                         mtime=0)


def folder() -> Path:
    """Where automatic backups go: BACKUP_DIR, else beside the SQLite file (what a spare laptop needs is then in
    one place), else the instance folder."""
    if current_app.config.get("BACKUP_DIR"):
        return Path(current_app.config["BACKUP_DIR"])
    url = sa.engine.make_url(current_app.config["SQLALCHEMY_DATABASE_URI"])
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        return Path(url.database).resolve().parent / "backups"
    return Path(current_app.instance_path) / "backups"


def keep(tournament: Tournament, label: str) -> Path | None:
    """Write the event's backup to folder()/<slug>/ and keep only the newest BACKUPS_KEPT there: with `follow`, a
    laptop that dies mid-event loses at most the last few seconds' results. The name ends in the event's version
    (Tournament.version), so a backup already holding the newest state is not written again. A failure (disk full,
    no rights) is logged and never fails the action that asked; None then.

    The file is read under the event's lock (app/services/locks.py), ended before the file is written: its many
    reads see one state, never a player registered between reading the players and the waitlist naming them."""
    where, tid = folder() / tournament.slug, tournament.id
    try:
        where.mkdir(parents=True, exist_ok=True)
        tournament = lock_tournament(tournament)
        content, version = backup(tournament), tournament.version
        db.session.commit()  # nothing written: ends the read and lets the next writer in
        path = where / f"{utcnow():%Y%m%dT%H%M%S%f}-{tournament.slug}-{label}-v{version}.json.gz"
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_bytes(packed(content))
        os.replace(tmp, path)  # never a half-written file under the real name
        kept = sorted(where.glob("*.json.gz"))
        for old in kept[:-max(1, int(current_app.config["BACKUPS_KEPT"]))]:
            old.unlink(missing_ok=True)
        return path
    except (OSError, sa.exc.SQLAlchemyError, TournamentGone):  # a disk, a database too busy for the read, gone
        db.session.rollback()
        log.exception("automatic backup of event %s (%s) not written to %s", tid, label, where)
        return None


@dataclass
class _Due:
    """A backup this process will write for an event after results (`follow`)."""

    app: object
    timer: threading.Timer
    again: bool = False  # a result came while it was being written: one more write after the interval


_due: dict[tuple[int, int], _Due] = {}  # (id of the app, event id) -> the write to come
_due_lock = threading.Lock()


def follow(tournament: Tournament) -> None:
    """A result was committed: the event's backup follows within BACKUP_FOLLOW_SECONDS, at most one write per that
    long per event in each process (the results of a busy round coalesce into one write), by a timer thread, so the
    request that reported does not wait for it. The wait counts from the newest backup on disk, so workers share the
    bound; a write finding the newest backup already at the event's version writes nothing. A process ending
    (a gunicorn worker restarted, the laptop's server stopped) writes what it still owes first (`_owed`)."""
    seconds = float(current_app.config.get("BACKUP_FOLLOW_SECONDS") or 0)
    if seconds <= 0:
        return
    app = current_app._get_current_object()
    key = (id(app), tournament.id)
    with _due_lock:
        due = _due.get(key)
        if due is not None:
            due.again = True
            return
        _, written = _newest(folder() / tournament.slug)
        wait = max(0.0, written + seconds - time.time())
        timer = threading.Timer(wait, _write_due, (key,))
        timer.daemon = True
        _due[key] = _Due(app, timer)
    timer.start()


def _newest(where: Path) -> tuple[int | None, float]:
    """The version and time (epoch seconds) of the newest backup in `where`; (None, 0) for none."""
    try:
        entries = [e for e in os.scandir(where) if e.name.endswith(".json.gz")]
    except OSError:
        return None, 0.0
    if not entries:
        return None, 0.0
    newest = max(entries, key=lambda e: e.name)  # the name starts with the time it was written
    found = re.search(r"-v([0-9]+)\.json\.gz$", newest.name)
    try:
        written = newest.stat().st_mtime
    except OSError:
        written = 0.0
    return (int(found.group(1)) if found else None), written


def _write_due(key: tuple[int, int]) -> None:
    """The timer's write: the event's backup unless the newest one holds its version already; again after the
    interval if results came meanwhile."""
    with _due_lock:
        due = _due.get(key)
        if due is None:
            return
        due.again = False
    with due.app.app_context():
        try:
            t = db.session.get(Tournament, key[1])
            if t is not None and _newest(folder() / t.slug)[0] != t.version:
                keep(t, "results")
        except Exception:  # a backup never takes the server down; the next result tries again
            log.exception("automatic backup of event %s after results failed", key[1])
        finally:
            db.session.remove()
        seconds = float(due.app.config.get("BACKUP_FOLLOW_SECONDS") or 0)
    with _due_lock:
        if due.again and seconds > 0:
            due.again = False
            due.timer = threading.Timer(seconds, _write_due, (key,))
            due.timer.daemon = True
            due.timer.start()
        else:
            _due.pop(key, None)


@atexit.register
def _owed() -> None:
    """The writes still to come when the process ends, made now: the last result is not lost to a restart."""
    with _due_lock:
        owed = list(_due)
        for key in owed:
            _due[key].timer.cancel()
    for key in owed:
        _write_due(key)


def _cut_row(r: CutResult, number: dict) -> dict:
    row = {"game": r.game, "winner": number.get(r.winner_id), "corp": number.get(r.corp_id)}
    if r.table is not None:
        row["table"] = r.table
    if r.player1_id is not None:  # a cut kept as played
        row.update(round=r.round, player1=number[r.player1_id], player2=number[r.player2_id])
    return row

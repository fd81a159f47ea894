"""A complete backup of one event as JSON (restored by app/services/restore.py), and the backups kept on every
publish.

The file names players by their number within the event (1..n), never by database id, and names no account
(the result log keeps only the kind of account that changed a result, the staff by e-mail), so a restore cannot
reach into anyone's existing data.
"""
from __future__ import annotations

import gzip
import json
import logging
import os
import re
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa
from flask import current_app

from ..extensions import db
from ..models import (CutEntry, CutResult, Decklist, ResultChange, ResultClaim, Round, Staff, Tournament, User,
                      as_utc, utcnow)
from . import player_links
from . import round_tables

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
VERSION = 5
READS = (1, 2, 3, 4, 5)
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
                                                   "at": _time(c.created_at)})
    t = tournament
    staff = db.session.scalars(sa.select(Staff).filter_by(tournament_id=t.id).join(Staff.user).order_by(User.email))
    return {
        "kind": KIND,
        "version": VERSION,
        "tournament": {
            "name": t.name, "date": t.date.isoformat(), "format": t.format, "score_factor": t.score_factor,
            "planned_rounds": t.planned_rounds, "tiebreakers": t.tiebreakers, "power_pairing": t.power_pairing,
            "seed": t.seed, "slug": t.slug, "single_report": t.single_report,
            "organiser": {"name": t.organiser_name, "nrdb_username": t.organiser_nrdb_username,
                          "nrdb_id": t.organiser_nrdb_id},
            "decklists": {"collected": t.decklists, "card_format": t.card_format, "restriction": t.restriction,
                          "visibility": t.decklist_visibility, "locked": t.lists_locked},
            "online": t.online,
        },
        "owner": t.owner.email,
        "staff": [{"email": s.user.email, "role": s.role} for s in staff],
        "players": [
            {"id": number[p.id], "name": p.name, "corp_identity": p.corp_identity,
             "runner_identity": p.runner_identity, "dropped": p.dropped, "first_round_bye": p.first_round_bye,
             "fixed_table": p.fixed_table, "pronouns": p.pronouns, "corp_faction": p.corp_faction,
             "runner_faction": p.runner_faction, "link": player_links.carried(p), "jinteki_name": p.jinteki_name,
             "discord": p.discord}
            for p in players
        ],
        "rounds": [
            {"number": r.number, "published": r.published, "matches": [
                {"table": m.table, "is_bye": m.is_bye, "result": m.result, "intentional_draw": m.intentional_draw,
                 "drawn_games": m.drawn_games, "seats": [
                     {"player": number[s.player_id], "position": s.position, "side": s.side, "points": s.points,
                      "games_won": s.games_won}
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
        "cut": None if t.cut_kind is None else {
            "kind": t.cut_kind,
            "entries": [{"player": number[e.player_id], "seed": e.seed, "rank": e.rank} for e in entries],
            "results": [_cut_row(r, number) for r in results],
        },
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
    """Write the event's backup to folder()/<slug>/ and keep only the newest BACKUPS_KEPT there: a laptop that dies
    mid-event loses at most the round in progress. A failure (disk full, no rights) is logged and never fails the
    action that asked; None then."""
    where = folder() / tournament.slug
    try:
        where.mkdir(parents=True, exist_ok=True)
        path = where / f"{utcnow():%Y%m%dT%H%M%S%f}-{tournament.slug}-{label}.json.gz"
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_bytes(packed(backup(tournament)))
        os.replace(tmp, path)  # never a half-written file under the real name
        kept = sorted(where.glob("*.json.gz"))
        for old in kept[:-max(1, int(current_app.config["BACKUPS_KEPT"]))]:
            old.unlink(missing_ok=True)
        return path
    except OSError:
        log.exception("automatic backup of event %s (%s) not written to %s", tournament.id, label, where)
        return None


def _cut_row(r: CutResult, number: dict) -> dict:
    row = {"game": r.game, "winner": number.get(r.winner_id), "corp": number.get(r.corp_id)}
    if r.table is not None:
        row["table"] = r.table
    if r.player1_id is not None:  # a cut kept as played
        row.update(round=r.round, player1=number[r.player1_id], player2=number[r.player2_id])
    return row

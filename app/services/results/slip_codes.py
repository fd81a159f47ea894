"""A match slip's table code: the QR code on a printed slip reports that table, in that round, and nothing else.

A slip goes from hand to hand (the printer, the scorekeeper, both players, the table beside them), so it must
not carry anyone's identity: a player's link would let whoever holds the paper act as that player (drop them,
report their later rounds) long after the round, and a removed scorekeeper would keep a stack of them. The code
is `<round's slip reference>.<table>.<mac>`, where the mac is 64 bits of HMAC-SHA256(event's slip key, reference,
table) and 64 bits of the same HMAC over the table's players too (their folded names), so no row is stored per
slip (128 bits to guess). The key (Tournament.slip_key) and the reference (Round.slip_ref, random) are the event's
own and travel in its backups: a move to a spare laptop, or a restore, keeps every printed slip working (the
site's SECRET_KEY differs there). So a copy of the database or a backup file can make its event's codes: they
report only what the paper does. Binding the players means a slip printed before a swap never reports the table's
new match: its first half still proves it genuine, so it is refused with what happened (SlipChanged), not taken
for a typo. A code works only while its round is the event's latest, published round and no cut exists: the next
round, an undo (a re-paired round gets a new reference) or the cut kill it. It reports the table's result once,
while the table has none; a result already in is the organizer's to change. The result log names the slip, not a
player (match_results.Actor "slip").
"""
from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Optional

import sqlalchemy as sa
from flask import current_app, url_for

from ...core.names import name_key
from ...core.results import Outcome, label
from ...extensions import db
from ...models import Match, Round, Tournament
from ..event_files import backup
from . import match_results
from ..swiss.rounds import RoundError, TableView, load_table

MAC_HEX = 32
HALF = MAC_HEX // 2
CODE = re.compile(rf"([1-9][0-9]{{0,9}})\.([1-9][0-9]{{0,5}})\.([0-9a-f]{{{MAC_HEX}}})", re.ASCII)


class SlipClosed(RoundError):
    """The slip's round is over, or its table's result is in: nothing was changed."""


class SlipChanged(RoundError):
    """A genuine slip of a table whose players changed after it was printed (a swap)."""


@dataclass(frozen=True)
class SlipTable:
    round_number: int
    table: TableView


def code(t: Tournament, slip_ref: int, table: int, players) -> str:
    """The code of a table of the round whose Round.slip_ref is `slip_ref`; `players`: the names on the slip (any
    order)."""
    return f"{slip_ref}.{table}.{_mac(t, slip_ref, table)[:HALF]}{_mac(t, slip_ref, table, players)[:HALF]}"


def url(t: Tournament, slip_ref: int, table: int, players) -> str:
    """The absolute address a slip's QR code holds."""
    return url_for("slips.show", slug=t.slug, code=code(t, slip_ref, table, players), _external=True)


def table_for(t: Tournament, raw: Optional[str]) -> Optional[SlipTable]:
    """The table `raw` is a genuine code for (its round may be over: see closed_reason); None otherwise.
    SlipChanged: a genuine code, but the table holds other players now."""
    found = CODE.fullmatch(raw or "")
    if found is None:
        return None
    ref, table, mac = int(found.group(1)), int(found.group(2)), found.group(3)
    current = hmac.compare_digest(mac[:HALF], _mac(t, ref, table)[:HALF])
    if not current and not hmac.compare_digest(mac, _legacy(t, ref, table)):
        return None  # a forged code costs no query
    row = db.session.execute(sa.select(Round.id).where(Round.tournament_id == t.id, Round.slip_ref == ref)
                             .order_by(Round.number.desc()).limit(1)).first()
    if row is None or not current and row.id != ref:  # a former code names a round from before slip keys
        return None
    match_id = db.session.scalar(sa.select(Match.id).where(
        Match.round_id == row.id, Match.table == table, Match.is_bye.is_(False)))
    loaded = load_table(t, match_id) if match_id is not None else None
    if not loaded:
        return None
    number, view = loaded
    if current and not hmac.compare_digest(mac[HALF:], _mac(t, ref, table, [s.name for s in view.seats])[:HALF]):
        raise SlipChanged(f"This slip was printed for table {table} of round {number} before the table changed: "
                          "it names other players than the table has now, so it reports nothing. Hand it to the "
                          "organizer, who can print the table's new slip.")
    return SlipTable(number, view)


def closed_reason(t: Tournament, slip: SlipTable) -> Optional[str]:
    """Why this slip reports nothing now, or None while it may."""
    latest = db.session.execute(sa.select(Round.number, Round.published).filter_by(tournament_id=t.id)
                                .order_by(Round.number.desc()).limit(1)).first()
    if t.cut_kind is not None or latest is None or latest.number != slip.round_number or not latest.published:
        return f"Round {slip.round_number} is over: this slip reports nothing now. Ask the organizer."
    if slip.table.result is not None:
        return (f"The result is in: {label(t.fmt, slip.table.result)}. Only the organizer can change it now.")
    return None


def report(t: Tournament, slip: SlipTable, outcome: Outcome) -> None:
    """The table's result through its slip, checked again under the match lock: SlipClosed when the round is
    over or a result is in (two players scanning at once: the first one counts)."""
    locked = match_results.lock_match(t, slip.table.id)
    fresh = SlipTable(locked.round_number, TableView(locked.match.id, locked.match.table, locked.match.is_bye,
                                                     locked.match.result, slip.table.seats))
    reason = closed_reason(t, fresh)
    if reason:
        db.session.rollback()
        raise SlipClosed(reason)
    match_results.write_result(t, locked, outcome, match_results.Actor("slip"))
    db.session.commit()
    db.session.expire_all()
    backup.follow(t)


def _mac(t: Tournament, slip_ref: int, table: int, players=None) -> str:
    msg = f"match-slip:{slip_ref}:{table}"
    if players is not None:
        msg += ":" + "\x1f".join(sorted(name_key(n) for n in players))
    return hmac.new(bytes.fromhex(t.slip_key), msg.encode(), hashlib.sha256).hexdigest()[:MAC_HEX]


def _legacy(t: Tournament, round_id: int, table: int) -> str:
    """The code's MAC as SASS made it before events had their own slip key (a round from then keeps its id as its
    slip reference): slips printed then keep working on this server, not after a move (the key was the site's).
    Dead once no event from before migration f24f0a3e1506 is played."""
    key = current_app.config["SECRET_KEY"].encode()
    msg = f"match-slip:{t.id}:{t.seed}:{round_id}:{table}".encode()
    return hmac.new(key, msg, hashlib.sha256).hexdigest()[:MAC_HEX]

"""Streaming: the event's stream link, a round's featured table, and what a stream overlay reads of it.

A player who opted out of coverage (Player.no_coverage) is never featured: featuring a table with one is refused,
and a player who opts out after their table was featured takes it off the stream (the feed and the pages show
no table then). The overlay's feed is public data only, the same the public pages show.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional
from urllib.parse import urlsplit

import sqlalchemy as sa

from ..core import identities
from ..extensions import db
from ..models import Match, Player, Round, Seat, Tournament, max_length
from .event_files import backup
from .results import standings
from .swiss import rounds as rounds_service
from .locks import lock_tournament

STREAM_URL_MAX = max_length(Tournament.stream_url)


class StreamingError(Exception):
    """A refused change; str() is the message for the TO."""


def check_stream_url(url: str) -> str:
    """The stream's address as stored: empty (no stream), or an absolute http(s) URL with a host and no spaces or
    credentials. Anything else (javascript:, a relative path) is refused: the public page links to it."""
    url = (url or "").strip()
    if not url:
        return ""
    if len(url) > STREAM_URL_MAX:
        raise StreamingError(f"The stream's address is longer than {STREAM_URL_MAX} characters.")
    try:
        parts = urlsplit(url)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        raise StreamingError("That is not a web address: give one like https://twitch.tv/yourchannel.") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or not port_ok \
            or any(c.isspace() or ord(c) < 32 for c in url) or parts.username or parts.password:
        raise StreamingError("The stream's address must be a web address starting with https:// or http://, "
                             "like https://twitch.tv/yourchannel.")
    return url


def set_stream_url(t: Tournament, url: str) -> None:
    t.stream_url = check_stream_url(url)
    db.session.commit()


@dataclass(frozen=True)
class Featured:
    """A round's featured table as the pages show it: its number and its players' names."""
    round: int
    table: int
    names: tuple[str, ...]


def _table_players(t: Tournament, number: int, table: int) -> Optional[list[Player]]:
    """The players at `table` of round `number` (seat order); None for no such table."""
    rows = db.session.execute(
        sa.select(Player, Match.is_bye).join(Seat, Seat.player_id == Player.id).join(Match, Match.id == Seat.match_id)
        .join(Round, Round.id == Match.round_id)
        .where(Round.tournament_id == t.id, Round.number == number, Match.table == table)
        .order_by(Seat.position)).all()
    if not rows:
        return None
    if rows[0][1]:
        raise StreamingError(f"Table {table} is a bye: there is no game to show.")
    return [p for p, _bye in rows]


def feature(t: Tournament, number: int, table: Optional[int]) -> None:
    """Put `table` of round `number` on stream (None: no table). Refused for a table that does not exist, a bye,
    or a table with a player who opted out of coverage; nothing changes then."""
    t = lock_tournament(t)  # the round's tables and the players' opt-outs stay as read until the commit
    rnd = db.session.scalars(sa.select(Round).where(Round.tournament_id == t.id, Round.number == number)).first()
    if rnd is None:
        db.session.rollback()
        raise StreamingError(f"There is no round {number}.")
    if table is not None:
        try:
            players = _table_players(t, number, table)
        except StreamingError:
            db.session.rollback()
            raise
        if players is None:
            db.session.rollback()
            raise StreamingError(f"Round {number} has no table {table}.")
        shy = [p.name for p in players if p.no_coverage]
        if shy:
            db.session.rollback()
            raise StreamingError(f"Table {table} cannot be featured: {' and '.join(shy)} opted out of coverage. "
                                 "Pick another table.")
    rnd.featured_table = table
    db.session.commit()
    backup.follow(t)


def unfeature_player(t: Tournament, player_id: int) -> None:
    """A player opted out: no round keeps featuring a table they sit at. Part of the caller's transaction, which
    holds the event's lock (as `feature` does), so the stored rows never feature an opted-out player."""
    seated = (sa.select(Seat.id).join(Match, Match.id == Seat.match_id)
              .where(Match.round_id == Round.id, Match.table == Round.featured_table, Seat.player_id == player_id)
              .correlate(Round).exists())
    db.session.execute(sa.update(Round).where(Round.tournament_id == t.id, Round.featured_table.is_not(None), seated)
                       .values(featured_table=None).execution_options(synchronize_session=False))


def set_coverage(t: Tournament, player: Player, opted_out: bool) -> bool:
    """The player's own choice, at any time (round 1 paired or not): opted out, they are never featured from now
    on, and a table of theirs on stream now comes off it; back in, the TO may feature them again. Under the event's
    lock, as `feature` is, so a featuring racing an opt-out never leaves them on stream. Returns whether it
    changed."""
    t = lock_tournament(t)
    db.session.refresh(player)
    changed = bool(player.no_coverage) != opted_out
    player.no_coverage = opted_out
    if opted_out:
        unfeature_player(t, player.id)
    db.session.commit()
    if changed:
        backup.follow(t)
    return changed


def featured(t: Tournament, number: Optional[int], table=...) -> Optional[Featured]:
    """Round `number`'s featured table if it has one and nobody at it has opted out since; else None. `table`: the
    round's featured_table where the caller has read the round already (the round page)."""
    if not number:
        return None
    if table is ...:
        table = db.session.scalar(sa.select(Round.featured_table)
                                  .where(Round.tournament_id == t.id, Round.number == number))
    if table is None:
        return None
    try:
        players = _table_players(t, number, table)
    except StreamingError:
        return None
    if not players or any(p.no_coverage for p in players):
        return None
    return Featured(number, table, tuple(p.name for p in players))


def opted_out(t: Tournament) -> list[str]:
    """The names of the players who opted out of coverage, for the TO."""
    return list(db.session.scalars(sa.select(Player.name).where(Player.tournament_id == t.id, Player.no_coverage)
                                   .order_by(Player.name_key)))


def feed(t: Tournament, number: Optional[int]) -> dict:
    """What a stream overlay reads (docs/api.md, "Stream overlay feed") but the clock, which the caller adds: round
    `number` (the latest published one) and its featured table's players: name, pronouns, identities, side this
    round, and their record so far (published rounds). It changes only with the event's version."""
    answer: dict = {"event": t.name, "slug": t.slug, "stream_url": t.stream_url or None, "round": number,
                    "table": None, "players": []}
    shown = featured(t, number)
    if shown is None:
        return answer
    rnd = rounds_service.load_round(t, number, published_only=True)
    match = next((m for m in rnd.matches if m.table == shown.table), None) if rnd else None
    if match is None:
        return answer
    ids = [s.player_id for s in match.seats]
    people = {p.id: p for p in db.session.scalars(sa.select(Player).where(Player.id.in_(ids)))}
    table = standings.standings(t, published_only=True)
    rows = {r.player: r for r in table.rows}
    answer["table"] = shown.table
    for seat in match.seats:
        p = people[seat.player_id]
        row = rows.get(p.id)
        answer["players"].append({
            "name": p.name, "pronouns": p.pronouns or None,
            "side": seat.side if t.fmt.sided_tables else None,
            "corp": _identity(p.corp_identity, "corp", p.corp_faction) if t.fmt.netrunner else None,
            "runner": _identity(p.runner_identity, "runner", p.runner_faction) if t.fmt.netrunner else None,
            "record": None if row is None else {"rank": row.rank, "points": row.points, "wins": row.wins,
                                                "losses": row.losses, "ties": row.ties},
        })
    return answer


def _identity(name: str, side: str, kept: Optional[str]) -> Optional[dict]:
    if not name:
        return None
    return {"name": identities.canonical(name), "faction": identities.player_faction(name, side, kept)}

"""Who the series' players are (app/core/series/people.py), loaded from its events' entries and the TO's
decisions; the TO's confirm, reject and undo; invitations held elsewhere and declines (private notes)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...core.series.people import Entry, Link, People, resolve
from ...extensions import db
from ...models import NrdbAccount, Player, Series, SeriesEvent, SeriesLink, SeriesPlayer, SeriesRejection, Tournament
from .manage import SeriesError, bump


@dataclass(frozen=True)
class EntryFacts:
    player_id: int
    tournament_id: int
    name: str
    account: Optional[str]  # the NetrunnerDB username of a linked entry


@dataclass
class Roster:
    people: People
    entries: dict  # entry id -> EntryFacts

    def name(self, key: str) -> str:
        """A series player's name: their entry's in the latest of their events (entries come oldest event first)."""
        ids = self.people.members.get(key, ())
        return self.entries[ids[-1]].name if ids else key

    def account(self, key: str) -> Optional[str]:
        for pid in self.people.members.get(key, ()):
            if self.entries[pid].account:
                return self.entries[pid].account
        return None


def roster(series: Series, suggest: bool = False) -> Roster:
    """Every entry of the series' events grouped into series players, in three queries; with the suggested matches
    when `suggest` (the managers' pages: the standings need none)."""
    rows = db.session.execute(
        sa.select(Player.id, Player.tournament_id, Player.name, Player.name_key, Player.nrdb_account_id,
                  NrdbAccount.username)
        .join(SeriesEvent, SeriesEvent.tournament_id == Player.tournament_id)
        .join(Tournament, Tournament.id == Player.tournament_id)
        .outerjoin(NrdbAccount, NrdbAccount.id == Player.nrdb_account_id)
        .where(SeriesEvent.series_id == series.id)
        .order_by(Tournament.date, Tournament.id, Player.id)).all()
    links = [Link(pid, target, account) for pid, target, account in db.session.execute(
        sa.select(SeriesLink.player_id, SeriesLink.target_player_id, SeriesLink.target_account_id)
        .where(SeriesLink.series_id == series.id).order_by(SeriesLink.id))]
    rejections = db.session.execute(sa.select(SeriesRejection.player_id, SeriesRejection.target)
                                    .where(SeriesRejection.series_id == series.id)).all()
    entries = [Entry(pid, tid, key, account) for pid, tid, _name, key, account, _user in rows]
    people = resolve(entries, links, [tuple(r) for r in rejections], suggest)
    # members in the events' order (oldest first), not by id
    order = {row[0]: i for i, row in enumerate(rows)}
    for ids in people.members.values():
        ids.sort(key=order.__getitem__)
    facts = {pid: EntryFacts(pid, tid, name, user) for pid, tid, name, _key, _account, user in rows}
    return Roster(people, facts)


def _entry(series: Series, roster_: Roster, player_id: int) -> EntryFacts:
    facts = roster_.entries.get(player_id)
    if facts is None:
        raise SeriesError("That entry is not in an event of this series.")
    return facts


def confirm(series: Series, player_id: int, target: str) -> None:
    """The entry is the series player `target`: only a standing suggestion can be confirmed (so never two accounts,
    nor two entries of one event). Bumps the series' version."""
    current = roster(series, suggest=True)
    _entry(series, current, player_id)
    if not any(s.player_id == player_id and s.target == target for s in current.people.suggestions):
        raise SeriesError("That match is no longer suggested: the page was out of date.")
    account = int(target[1:]) if target.startswith("a") else None
    other = int(target[1:]) if target.startswith("e") else None
    db.session.add(SeriesLink(series_id=series.id, player_id=player_id, target_player_id=other,
                              target_account_id=account))
    try:
        bump(series)  # flushes the new row first: a racing duplicate fails here
        db.session.commit()
    except IntegrityError:  # the same entry confirmed twice at once: the first stands
        db.session.rollback()
        raise SeriesError("That entry was just matched by another request.") from None


def reject(series: Series, player_id: int, target: str) -> None:
    current = roster(series, suggest=True)
    _entry(series, current, player_id)
    if not any(s.player_id == player_id and s.target == target for s in current.people.suggestions):
        raise SeriesError("That match is no longer suggested: the page was out of date.")
    db.session.add(SeriesRejection(series_id=series.id, player_id=player_id, target=target))
    try:
        bump(series)  # flushes the new row first: a racing duplicate fails here
        db.session.commit()
    except IntegrityError:
        db.session.rollback()


def undo(series: Series, player_id: int) -> bool:
    """The entry stands alone again (its confirmed match goes); False if it had none."""
    done = db.session.execute(sa.delete(SeriesLink).where(SeriesLink.series_id == series.id,
                                                          SeriesLink.player_id == player_id)).rowcount
    if done:
        bump(series)
    db.session.commit()
    return bool(done)


def links(series: Series) -> list[tuple[int, str]]:
    """The confirmed matches: (entry id, the key it was matched to), oldest first."""
    return [(pid, f"a{account}" if account is not None else f"e{target}") for pid, target, account in
            db.session.execute(sa.select(SeriesLink.player_id, SeriesLink.target_player_id,
                                         SeriesLink.target_account_id)
                               .where(SeriesLink.series_id == series.id).order_by(SeriesLink.id))]


def decisions(series: Series, roster_: Roster) -> dict[str, SeriesPlayer]:
    """The TO's notes by series player key (a note stored under any of its members' keys counts)."""
    rows = db.session.scalars(sa.select(SeriesPlayer).where(SeriesPlayer.series_id == series.id)).all()
    by_key = {row.key: row for row in rows}
    out = {}
    for key, names in roster_.people.keys.items():
        for name in sorted(names):
            if name in by_key:
                out[key] = by_key[name]
                break
    return out


def record(series: Series, key: str, holds_invitation: bool, declined: bool, note: str) -> None:
    """Record that a series player holds an invitation from elsewhere, or declined this one (a private note)."""
    current = roster(series)
    if key not in current.people.keys:
        raise SeriesError("No such player in this series.")
    row = decisions(series, current).get(key)
    if row is None:
        row = SeriesPlayer(series_id=series.id, key=key)
        db.session.add(row)
    row.holds_invitation, row.declined, row.note = holds_invitation, declined, note.strip()[:200]
    try:
        bump(series)  # flushes the new row first: a racing duplicate fails here
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise SeriesError("Another request just recorded this player: try again.") from None

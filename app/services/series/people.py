"""Who the series' players are (app/core/series/people.py), loaded from its events' entries and the TO's
decisions; the TO's confirm, reject and undo, every identical name linked at once, a player's public name;
invitations held elsewhere and declines (private notes)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...core.kept import Kept
from ...core.names import name_key
from ...core.series.people import Entry, Link, People, resolve
from ...extensions import db
from ...models import (NrdbAccount, Player, Series, SeriesEvent, SeriesLink, SeriesPlayer, SeriesRejection, Tournament,
                       max_length)
from . import manage
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
    chosen: dict = field(default_factory=dict)  # series player key -> the public name the TO chose
    named: dict = field(default_factory=dict)  # series player key -> name(key) but for the TO's choice, as kept
    event_keys: dict = field(default_factory=dict)  # event id -> its entries' series player keys, by entry id
    accounts: Optional[dict] = None  # series player key -> account(key), as kept (None: worked out per call)

    def name(self, key: str) -> str:
        """A series player's public name (docs/domain.md 14.4): the TO's choice, else their NetrunnerDB username,
        else their most frequent spelling, ties to the earliest (entries come oldest event first)."""
        if self.chosen.get(key):
            return self.chosen[key]
        if key in self.named:
            return self.named[key]
        return self.own_name(key)

    def own_name(self, key: str) -> str:
        """The name but for the TO's choice."""
        account = self.account(key)
        if account:
            return account
        names = [self.entries[pid].name for pid in self.people.members.get(key, ())]
        if not names:
            return key
        counts = Counter(names)
        return max(names, key=lambda n: (counts[n], -names.index(n)))

    def spellings(self, key: str) -> list[str]:
        """Every spelling of the player's entries, most used first."""
        names = [self.entries[pid].name for pid in self.people.members.get(key, ())]
        counts = Counter(names)
        return sorted(counts, key=lambda n: (-counts[n], names.index(n)))

    def account(self, key: str) -> Optional[str]:
        if self.accounts is not None:
            return self.accounts.get(key)
        for pid in self.people.members.get(key, ()):
            if self.entries[pid].account:
                return self.entries[pid].account
        return None


def roster(series: Series, suggest: bool = False) -> Roster:
    """Every entry of the series' events grouped into series players, in three queries; with the suggested matches
    when `suggest` (the managers' pages: the standings need none)."""
    rows = db.session.connection().execute(  # Core: no ORM row processing for 5,000 entries
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
    rows = tuple(map(tuple, rows))  # plain tuples: hashed and compared in C
    people, facts, own_names, event_keys, accounts = _RESOLVED.get(
        (rows, tuple(links), tuple(sorted(tuple(r) for r in rejections)), suggest, bool(series.link_identical)),
        lambda: _resolve(rows, links, rejections, suggest, series.link_identical))
    named = dict(db.session.execute(sa.select(SeriesPlayer.key, SeriesPlayer.name)
                                    .where(SeriesPlayer.series_id == series.id, SeriesPlayer.name != "")).all())
    chosen = {}
    if named:
        for key, answers in people.keys.items():  # a name chosen under any of the player's keys (the first by key)
            found = answers & named.keys()
            if found:
                chosen[key] = named[min(found)]
    return Roster(people, facts, chosen, own_names, event_keys, accounts)


def _resolve(rows, links, rejections, suggest: bool, identical: bool) -> tuple[People, dict, dict, dict, dict]:
    entries = [Entry(pid, tid, key, account) for pid, tid, _name, key, account, _user in rows]
    people = resolve(entries, links, [tuple(r) for r in rejections], suggest, identical=identical)
    # members in the events' order (oldest first), not by id
    order = {row[0]: i for i, row in enumerate(rows)}
    for ids in people.members.values():
        ids.sort(key=order.__getitem__)
    facts = {pid: EntryFacts(pid, tid, name, user) for pid, tid, name, _key, _account, user in rows}
    plain = Roster(people, facts)
    event_keys: dict = {}
    for pid, tid, *_ in sorted(rows):
        event_keys.setdefault(tid, []).append(people.key_of[pid])
    accounts = {key: found for key in people.members if (found := plain.account(key))}
    return people, facts, {key: plain.own_name(key) for key in people.members}, \
        {tid: tuple(keys) for tid, keys in event_keys.items()}, accounts


# Who the players are, kept by everything it is worked out from (the entries as read, the links, the rejections, the
# two switches): a result changes none of them, so the series' table after a result does not group 5,000 entries
# again. What is kept is read only (a Roster is made around it per call, with the names the TO chose).
_RESOLVED: Kept[tuple] = Kept(8)


def forget_cached() -> None:
    """Empty the kept groupings (benchmarks measure a cold build)."""
    _RESOLVED.clear()


PER_PAGE = 50  # the managers' players page: players (and suggestions, matches) a page


@dataclass(frozen=True)
class Paged:
    """One page of a long list: its items, its number (from 1) among `pages`, and how many there are in all."""
    items: list
    number: int
    pages: int
    total: int
    size: int

    @property
    def first(self) -> int:
        """The first item's place in the whole list (from 1)."""
        return (self.number - 1) * self.size + 1


def paged(items, number: int, size: Optional[int] = None) -> Paged:
    """Page `number` of `items` (a number out of range: the nearest page there is), PER_PAGE a page unless said."""
    size = size or PER_PAGE
    items = list(items)
    pages = max(1, -(-len(items) // size))
    number = min(max(1, number), pages)
    return Paged(items[(number - 1) * size:number * size], number, pages, len(items), size)


def found(lines, roster_: Roster, query: str) -> list:
    """The standings' lines (app/services/series/standings.py) whose player answers to `query`, folded as names
    are (app/core/names.py): by the name shown or any spelling of their entries; every line for no query."""
    key = name_key(query)
    if not key:
        return list(lines)
    spelled = {k for pid, e in roster_.entries.items() if key in name_key(e.name)
               for k in (roster_.people.key_of.get(pid),) if k is not None}
    return [line for line in lines if line.key in spelled or key in name_key(line.name)]


def _entry(series: Series, roster_: Roster, player_id: int) -> EntryFacts:
    facts = roster_.entries.get(player_id)
    if facts is None:
        raise SeriesError("That entry is not in an event of this series.")
    return facts



def _commit(series: Series, raced: Optional[str] = None) -> None:
    """Bump the series and commit; the bump flushes the new rows first, so a racing duplicate fails here (the
    unique constraints): SeriesError(`raced`), or nothing when the same change made twice is no error."""
    try:
        bump(series)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        if raced:
            raise SeriesError(raced) from None

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
    _commit(series, "That entry was just matched by another request.")


def link_all(series: Series) -> int:
    """Link every identical name at once (app/core/series/people.py says which): one stored link each, undone one
    by one like a confirmation. Returns how many were made (0: nothing left to link). Two at once make one set:
    the series' row is locked first, and a link stored meanwhile is the unique (series, entry) the loser trips on."""
    manage.lock(series)
    found = roster(series).people.identical
    if not found:
        db.session.rollback()
        return 0
    db.session.add_all(SeriesLink(series_id=series.id, player_id=link.player_id,
                                  target_player_id=link.target_player_id, target_account_id=link.target_account_id)
                       for link in found)
    _commit(series, "Another request just linked these names: reload the page.")
    return len(found)


def linkable(series: Series) -> int:
    """How many links "Link all identical names" would make now."""
    return len(roster(series).people.identical)


def separate(series: Series, player_id: int) -> None:
    """Keep apart an entry that its identical name joined to another player (the series links them by itself): a
    rejection of that pair, so it is neither joined nor suggested again."""
    current = roster(series)
    _entry(series, current, player_id)
    link = next((link for link in current.people.identical if link.player_id == player_id), None)
    if link is None:
        raise SeriesError("That entry is not joined by its name: the page was out of date.")
    db.session.add(SeriesRejection(series_id=series.id, player_id=player_id, target=link.target))
    _commit(series)  # the same change twice at once: once is enough


def name(series: Series, key: str, public_name: str) -> str:
    """Choose a series player's public name ("": the rule's again). Returns the name now shown."""
    current = roster(series)
    key = current.people.current(key) or ""
    if key not in current.people.keys:
        raise SeriesError("No such player in this series.")
    public_name = " ".join(public_name.split())[:max_length(SeriesPlayer.name)]
    row = decisions(series, current).get(key)
    if row is None:
        row = SeriesPlayer(series_id=series.id, key=key)
        db.session.add(row)
    row.name = public_name
    _commit(series, "Another request just changed this player: try again.")
    return public_name or roster(series).name(key)


def reject(series: Series, player_id: int, target: str) -> None:
    current = roster(series, suggest=True)
    _entry(series, current, player_id)
    if not any(s.player_id == player_id and s.target == target for s in current.people.suggestions):
        raise SeriesError("That match is no longer suggested: the page was out of date.")
    db.session.add(SeriesRejection(series_id=series.id, player_id=player_id, target=target))
    _commit(series)  # the same change twice at once: once is enough


def undo(series: Series, player_id: int) -> bool:
    """The entry stands alone again (its confirmed match goes); False if it had none. In a series that links
    identical names by itself, the entry's name would join it again at once: the pair is kept apart (a rejection)."""
    done = db.session.execute(sa.delete(SeriesLink).where(SeriesLink.series_id == series.id,
                                                          SeriesLink.player_id == player_id)).rowcount
    if done:
        if series.link_identical:
            again = next((link for link in roster(series).people.identical if link.player_id == player_id), None)
            if again is not None:
                db.session.add(SeriesRejection(series_id=series.id, player_id=player_id, target=again.target))
        bump(series)
    try:
        db.session.commit()
    except IntegrityError:  # the same undo twice at once
        db.session.rollback()
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
    _commit(series, "Another request just recorded this player: try again.")

"""Who a series player is, across the series' events (docs/domain.md 14.4).

An entry (one event's player) belongs to the series player of its NetrunnerDB account when it is linked to one;
otherwise to the series player the TO confirmed it is (one by one, or every identical name at once); otherwise, in a
series that links identical names by itself, to the one series player of its folded name (app/core/names.py);
otherwise it stands alone. Entries whose folded names match another series player's are *suggested*, and the TO
confirms (a link), rejects (never suggested again) or undoes a confirmation (the link goes).

A series player's key names it: "a<account row id>" when an account is in it, else "e<its lowest entry id>".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable, Optional


def entry_key(player_id: int) -> str:
    return f"e{player_id}"


def account_key(account_id: int) -> str:
    return f"a{account_id}"


@dataclass(frozen=True)
class Entry:
    player_id: int
    event: Hashable
    name_key: str
    account_id: Optional[int] = None


@dataclass(frozen=True)
class Link:
    """A confirmed match: the entry is the same person as another entry or an account."""
    player_id: int
    target_player_id: Optional[int] = None
    target_account_id: Optional[int] = None

    @property
    def target(self) -> str:
        if self.target_account_id is not None:
            return account_key(self.target_account_id)
        assert self.target_player_id is not None  # a link names an entry or an account
        return entry_key(self.target_player_id)


@dataclass(frozen=True)
class Suggestion:
    player_id: int  # the entry to confirm or reject
    target: str  # the series player it may be


@dataclass
class People:
    key_of: dict  # entry id -> series player key
    members: dict  # series player key -> [entry ids], by id
    keys: dict  # series player key -> every key its members answer to (entry keys, the account's)
    linked: set  # entry ids whose own confirmed link counts (undo-able)
    suggestions: list  # of Suggestion
    identical: list = field(default_factory=list)  # of Link: what linking the identical names makes (see resolve)

    def current(self, key: str) -> Optional[str]:
        """The series player a key names now (an entry's or account's key once merged into another player)."""
        if key in self.keys:
            return key
        return next((k for k, names in self.keys.items() if key in names), None)


class _Groups:
    """Union-find over keys, each group remembering its account and its events (a group never holds two accounts,
    nor two entries of one event: such a union is refused)."""

    def __init__(self):
        self.parent: dict = {}
        self.account: dict = {}
        self.events: dict = {}

    def add(self, key: str, account: Optional[str], events: set) -> None:
        self.parent.setdefault(key, key)
        self.account.setdefault(key, account)
        self.events.setdefault(key, set()).update(events)

    def find(self, key: str) -> str:
        root = key
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[key] != root:
            self.parent[key], key = root, self.parent[key]
        return root

    def compatible(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return True
        accounts = {self.account[ra], self.account[rb]} - {None}
        return len(accounts) <= 1 and not (self.events[ra] & self.events[rb])

    def union(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return True
        if not self.compatible(ra, rb):
            return False
        self.parent[rb] = ra
        self.account[ra] = self.account[ra] or self.account[rb]
        self.events[ra] |= self.events[rb]
        return True


def resolve(entries: Iterable[Entry], links: Iterable[Link] = (),
            rejections: Iterable[tuple[int, str]] = (), suggest: bool = True, identical: bool = False) -> People:
    """Group the entries into series players; list the suggested matches still to decide (when `suggest`).

    After the links, the links that identical names make are listed in `People.identical` (what "Link all identical
    names" stores), and applied when `identical` (a series that links them by itself). For each folded name, in
    order: the series players holding it join the one with the account, else the most entries, else the oldest,
    unless the name belongs to two accounts (a guess: nobody joins), the two were rejected, or they would put two
    entries of one event together (that one stays apart). Each is joined by a link from its oldest entry that has
    no link of its own (none free: it stays apart).

    Each entry still standing alone gets at most one suggestion: the series player of the same folded name with the
    most entries (then the oldest) that it could join (no second account, no event twice) and that the TO did not
    reject; a pair is suggested once, from its newer entry.

    Links apply in the order given (oldest first); one from an entry now linked to an account, or one that would
    join two accounts or two entries of one event, is void (the account, and the first decision, stand)."""
    entries = sorted(entries, key=lambda e: e.player_id)
    by_id = {e.player_id: e for e in entries}
    groups = _Groups()
    for e in entries:
        account = account_key(e.account_id) if e.account_id is not None else None
        groups.add(entry_key(e.player_id), account, {e.event})
        if account is not None:
            groups.add(account, account, set())
            groups.union(account, entry_key(e.player_id))
    linked = set()
    links = list(links)
    with_link = {link.player_id for link in links}
    for link in links:
        entry = by_id.get(link.player_id)
        if entry is None or entry.account_id is not None:
            continue
        target = link.target
        if target not in groups.parent:  # an account or entry no longer in the series' events
            continue
        if groups.union(target, entry_key(entry.player_id)):
            linked.add(entry.player_id)
    rejections = list(rejections)
    found = _identical(entries, groups, with_link, rejections, apply=identical)
    members: dict = {}
    for e in entries:
        members.setdefault(groups.find(entry_key(e.player_id)), []).append(e.player_id)
    name_of: dict = {}
    key_of, keys = {}, {}
    for root, ids in members.items():
        account = groups.account[root]
        key = account or entry_key(ids[0])
        for pid in ids:
            key_of[pid] = key
        keys[key] = {entry_key(pid) for pid in ids} | ({account} if account else set())
        name_of[root] = {by_id[pid].name_key for pid in ids}
    # a rejection keeps the two series players apart, whichever of them the suggestion starts from
    rejected = {frozenset((groups.find(entry_key(pid)), groups.find(target))) for pid, target in rejections
                if entry_key(pid) in groups.parent and target in groups.parent}
    suggestions, seen = [], set()
    by_name: dict = {}
    for root, names in name_of.items():
        for name in names:
            by_name.setdefault(name, []).append(root)
    for name in by_name:
        by_name[name].sort(key=lambda root: (-len(members[root]), min(members[root])))
    for e in sorted(entries, key=lambda e: -e.player_id) if suggest else ():
        if e.account_id is not None or e.player_id in linked:
            continue
        mine = groups.find(entry_key(e.player_id))
        for root in by_name.get(e.name_key, ()):
            pair = frozenset((mine, root))
            if root == mine or pair in rejected or not groups.compatible(mine, root):
                continue
            if pair not in seen:
                seen.add(pair)
                suggestions.append(Suggestion(e.player_id, key_of[members[root][0]]))
            break
    suggestions.sort(key=lambda s: (s.target, s.player_id))
    return People({pid: key for pid, key in key_of.items()},
                  {key_of[ids[0]]: ids for ids in members.values()}, keys, linked, suggestions, found)


def _identical(entries: list, groups: _Groups, with_link: set, rejections: list, apply: bool) -> list:
    """The links identical names make (resolve's docstring), applied to `groups` when `apply`; else worked out on a
    copy, so the groups stay as the stored links made them."""
    if not apply:
        copy = _Groups()
        copy.parent, copy.account = dict(groups.parent), dict(groups.account)
        copy.events = {k: set(v) for k, v in groups.events.items()}
        groups = copy
    with_link = set(with_link)
    members: dict = {}  # root -> its entries' ids (entries come by id: the first is the oldest)
    by_name: dict = {}
    for e in entries:
        members.setdefault(groups.find(entry_key(e.player_id)), []).append(e.player_id)
        by_name.setdefault(e.name_key, []).append(e)
    free_of = {e.player_id for e in entries if e.account_id is None and e.player_id not in with_link}
    rejected = [(entry_key(pid), t) for pid, t in rejections if entry_key(pid) in groups.parent and t in groups.parent]
    out = []
    for name in sorted(by_name):
        roots = sorted({groups.find(entry_key(e.player_id)) for e in by_name[name]})
        if len(roots) < 2 or len({groups.account[r] for r in roots} - {None}) > 1:
            continue  # one player already, or two accounts answer to this name (which one would be a guess)
        order = sorted(roots, key=lambda r: (groups.account[r] is None, -len(members[r]), members[r][0]))
        target = order[0]
        target_key = groups.account[target] or entry_key(members[target][0])
        for root in order[1:]:
            here = groups.find(target)
            if any({groups.find(a), groups.find(b)} == {root, here} for a, b in rejected) \
                    or not groups.compatible(root, here):
                continue
            free = [pid for pid in members[root] if pid in free_of]
            if not free:
                continue
            groups.union(here, entry_key(free[0]))
            free_of.discard(free[0])
            joined = groups.find(here)
            members[joined] = sorted(members.pop(here, []) + members.pop(root, []))
            out.append(Link(free[0], int(target_key[1:]) if target_key.startswith("e") else None,
                            int(target_key[1:]) if target_key.startswith("a") else None))
    return out

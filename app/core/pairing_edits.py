"""A TO's hand edit of a round's tables: which seats change, worked out on plain lists (no Flask, no SQL).

app/services/swiss/pairing_edits.py loads the round, asks `apply_edit`, and writes the tables it changed; the rules
the result may break are app/core/round_check.py's warnings (a TO may break them on purpose).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

EDIT_ACTIONS = {
    "swap": "Swap two players",
    "sides": "Swap sides at a player's table",
    "bye": "Give a player the bye",
    "join": "Pair two players who have byes",
    "remove": "Take a player out of this round",
    "add": "Add a player left out of this round",
}


class EditRefused(ValueError):
    """An edit that cannot be made; str() is the message for the TO."""


@dataclass
class Edit:
    """The round's tables after the edit (match id -> players, seat order), the match ids whose seats changed
    (a changed id missing from `tables` is a match that is gone) and the players who get a new bye table."""

    tables: dict[int, list[int]]
    changed: set[int]
    new_bye: list[int] = field(default_factory=list)


def apply_edit(tables: dict[int, list[int]], action: str, first: int, second: Optional[int] = None, *,
               sided_tables: bool) -> Edit:
    """One edit of `tables` (match id -> player ids in seat order; left as it was). `add` takes a player who is
    in no table; its checks against the roster (a player of this event, not dropped) are the caller's."""
    tables = {mid: list(players) for mid, players in tables.items()}
    where = {p: mid for mid, players in tables.items() for p in players}
    if action == "add":
        if first in where:
            raise EditRefused("That player is in this round already.")
    elif first not in where or (action in ("swap", "join") and second not in where):
        raise EditRefused("Choose players who are in this round.")
    if action in ("remove", "add") and second is not None and (
            second not in where or len(tables[where[second]]) != 1 or second == first):
        raise EditRefused("The other player must be one who has a bye in this round.")
    a = first
    if action == "swap":
        b = second
        assert b is not None  # checked above: a swap names a second player in the round
        ma, mb = where[a], where[b]
        if ma == mb:
            raise EditRefused("Those two play each other already; to swap their sides, use 'swap sides'.")
        ia, ib = tables[ma].index(a), tables[mb].index(b)
        tables[ma][ia], tables[mb][ib] = b, a
        return Edit(tables, {ma, mb})
    if action == "sides":
        if not sided_tables:
            raise EditRefused("Only single-sided swiss has sides to swap.")
        if len(tables[where[a]]) != 2:
            raise EditRefused("A bye has no sides.")
        tables[where[a]].reverse()
        return Edit(tables, {where[a]})
    if action == "bye":
        ma = where[a]
        if len(tables[ma]) == 1:
            raise EditRefused("That player has the bye already.")
        holder = next((mid for mid, players in tables.items() if len(players) == 1), None)
        if holder is not None:  # the player with the bye takes a's seat
            z = tables[holder][0]
            tables[ma][tables[ma].index(a)], tables[holder][0] = z, a
            return Edit(tables, {ma, holder})
        tables[ma].remove(a)  # an even field: a's opponent is left with a bye too
        return Edit(tables, {ma}, [a])
    if action == "join":
        b = second
        assert b is not None  # checked above: a join names a second player in the round
        ma, mb = where[a], where[b]
        if ma == mb or len(tables[ma]) != 1 or len(tables[mb]) != 1:
            raise EditRefused("Both players must have a bye.")
        tables[ma].append(b)
        del tables[mb]
        return Edit(tables, {ma, mb})
    if action == "remove":  # a leaves; a's opponent keeps the table with a bye, or with `second` in a's seat
        ma = where[a]
        if second is not None:  # the player with a bye takes a's seat
            tables[ma][tables[ma].index(a)] = second
            del tables[where[second]]
            return Edit(tables, {ma, where[second]})
        tables[ma].remove(a)
        if not tables[ma]:
            del tables[ma]
        return Edit(tables, {ma})
    if action == "add":
        if second is not None:  # a takes the empty seat beside the player with a bye
            tables[where[second]].append(a)
            return Edit(tables, {where[second]})
        return Edit(tables, set(), [a])
    raise EditRefused("Unknown edit.")

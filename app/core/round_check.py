"""A round judged by the engine's own rules, with a one-click fix for each rule it breaks.

Pure (no Flask, no SQL): the TO's round page shows these warnings after a hand edit, and a restored backup or an
imported file is checked with them; app/services/swiss/pairing_edits.py loads a round and asks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from .pairing import Entrant, Format, Game, History
from .pairing.costs import uneven
from .pairing.double_sided import DoubleSidedRules
from .pairing.single_sided import SingleSidedRules


@dataclass(frozen=True)
class Fix:
    """A one-click repair of a warning: an edit_pairings action the page posts as it is."""

    label: str
    action: str
    first: int
    second: Optional[int] = None


@dataclass(frozen=True)
class PairingWarning:
    """A rule a round breaks: the text for the TO, the table it is about (None for the whole round: extra byes,
    players left out) and, when one exists, an edit that repairs it without breaking a rule elsewhere."""

    text: str
    table: Optional[int] = None
    kind: str = ""  # dropped, second_bye, rematch, same_sides, side_bias, byes, unasked_bye, missing
    players: tuple = ()
    fix: Optional[Fix] = None

    def __str__(self) -> str:
        return self.text


def check_round(fmt: Format, number: int, entrants: Sequence[Entrant], games: Iterable[Game],
                tables: Sequence[tuple[int, Sequence[int]]]) -> list[PairingWarning]:
    """Pure check of a round against the engine's rules (docs/domain.md 10); see RoundCheck."""
    return RoundCheck(fmt, number, entrants, games).round(tables)


class RoundCheck:
    """A round judged by the same rules the engine pairs with: rematches (single-sided: twice at most, the second
    time on reversed sides; never otherwise), no second bye, no extra byes, no uneven sides, dropped players out,
    everyone in; and a bye the requested ones forced on someone who did not ask (round 1), which the TO may want
    to avoid. Pure (no SQL): the history is folded once, then any table, real or tried, is checked alone."""

    FIX_SEARCH = 40  # tables either side of a broken one tried for a swap: enough in a real room, cheap at 1,000

    def __init__(self, fmt: Format, number: int, entrants: Sequence[Entrant], games: Iterable[Game]):
        self.fmt = Format(fmt)
        self.number = number
        self.entrants = list(entrants)
        self.by_id = {e.id: e for e in self.entrants}
        self.history = History(self.fmt, games, self.by_id)
        # Plain swiss keeps double-sided swiss's hard rules: no rematch, no sides.
        self.rules = (SingleSidedRules if self.fmt.sided_tables else DoubleSidedRules)(self.history)

    def name(self, p: int) -> str:
        return self.by_id[p].label if p in self.by_id else str(p)

    def table(self, table: int, players: Sequence[int]) -> list[PairingWarning]:
        """The rules one table breaks."""
        name, rules = self.name, self.rules
        out: list[PairingWarning] = []
        for p in players:
            if p in self.by_id and self.by_id[p].dropped:
                out.append(PairingWarning(f"Table {table}: {name(p)} has dropped.", table, "dropped", (p,)))
        if len(players) == 1:
            p = players[0]
            if self.history.had_bye(p):
                out.append(PairingWarning(f"Table {table}: {name(p)} would get a second bye.", table,
                                          "second_bye", (p,)))
            return out
        a, b = players  # single-sided: a plays Corp
        if not rules.may_meet(a, b):
            text = (f"Table {table}: {name(a)} and {name(b)} would meet a third time." if rules.sided
                    else f"Table {table}: {name(a)} and {name(b)} have played each other already.")
            out.append(PairingWarning(text, table, "rematch", (a, b)))
        elif rules.repeats_sides(a, b):
            out.append(PairingWarning(f"Table {table}: {name(a)} and {name(b)} met before with the same sides; "
                                      "a rematch must reverse them.", table, "same_sides", (a, b)))
        if rules.sided:
            for p, step in ((a, 1), (b, -1)):
                bias = self.history[p].bias + step
                if uneven(bias):
                    side = "Corp" if bias > 0 else "Runner"
                    out.append(PairingWarning(f"Table {table}: {name(p)} would be {side} +{abs(bias)}.", table,
                                              "side_bias", (p,)))
        return out

    def round(self, tables: Sequence[tuple[int, Sequence[int]]]) -> list[PairingWarning]:
        """Every rule the round breaks, table by table, then the round's own (byes, players left out)."""
        warnings: list[PairingWarning] = []
        byes = []
        seated: set[int] = set()
        for table, players in tables:
            seated.update(players)
            if len(players) == 1:
                byes.append(players[0])
            warnings += self.table(table, players)
        extra = [p for p in byes if not (p in self.by_id and self.by_id[p].asks_bye(self.number))]
        if len(extra) > 1:
            warnings.append(PairingWarning(
                f"{len(extra)} players have a bye this round: {', '.join(self.name(p) for p in extra)}.",
                None, "byes", tuple(extra)))
        elif extra and len(byes) > 1:  # the requested byes left an odd field: someone got one without asking
            asked = len(byes) - 1
            warnings.append(PairingWarning(
                f"{self.name(extra[0])} has a bye nobody asked for: the {asked} requested "
                f"bye{'s' * (asked != 1)} left an odd number of players to pair. Allowed, but check "
                "that it is what you want.", None, "unasked_bye", (extra[0],)))
        missing = [e for e in self.entrants if not e.dropped and e.id not in seated]
        if missing:
            warnings.append(PairingWarning(f"Not paired this round: {', '.join(e.label for e in missing)}.",
                                           None, "missing", tuple(e.id for e in missing)))
        return warnings

    # ---------------------------------------------------------------- one-click fixes

    def with_fixes(self, tables: Sequence[tuple[int, Sequence[int]]],
                   warnings: list[PairingWarning]) -> list[PairingWarning]:
        """The warnings, each with the first edit found that clears its table(s) and breaks no rule at the
        tables it touches; the edit is one edit_pairings action, so the page offers it as one button."""
        seats = {table: list(players) for table, players in tables}
        order = sorted(seats)
        out, seen = [], {}
        for w in warnings:
            # one fix per table (it must clear all of the table's warnings), one per round-wide warning
            key = (w.table, w.kind if w.table is None or w.kind == "dropped" else "")
            if key not in seen:
                seen[key] = self._fix(seats, order, w)
            out.append(PairingWarning(w.text, w.table, w.kind, w.players, seen[key]))
        return out

    def _clean(self, *tables: tuple[int, Sequence[int]]) -> bool:
        return not any(self.table(table, players) for table, players in tables)

    def _near(self, order: list[int], table: int) -> list[int]:
        """Other tables, nearest first (neighbouring tables hold players on nearby scores)."""
        i = order.index(table)
        near = []
        for step in range(1, self.FIX_SEARCH + 1):
            near += [order[j] for j in (i - step, i + step) if 0 <= j < len(order)]
        return near

    def _fix(self, seats: dict[int, list[int]], order: list[int], w: PairingWarning) -> Optional[Fix]:
        name = self.name
        if w.kind == "byes":
            for i, a in enumerate(w.players):
                ta = next(t for t, ps in seats.items() if ps == [a])
                for b in w.players[i + 1:]:
                    if self._clean((ta, [a, b])):
                        return Fix(f"Pair {name(a)} with {name(b)}", "join", a, b)
            return None
        if w.kind == "dropped":
            assert w.table is not None  # a dropped player's warning names their table
            return self._take_out(seats, w.table, w.players[0])
        if w.kind == "missing":
            return self._add(seats, w.players[0])
        if w.table is None:
            return None
        table = w.table
        players = seats[table]
        if len(players) == 1:
            p = players[0]
            if sum(1 for ps in seats.values() if len(ps) == 1) != 1:
                return None  # the edit moves "the" bye: only sure with one bye table
            for other in self._near(order, table):
                for i, q in enumerate(seats[other]):
                    if len(seats[other]) != 2:
                        break
                    moved = seats[other][:i] + [p] + seats[other][i + 1:]
                    if self._clean((table, [q]), (other, moved)):
                        return Fix(f"Give the bye to {name(q)} (table {other}) instead", "bye", q)
            return None
        a, b = players
        if self.rules.sided and self._clean((table, [b, a])):
            return Fix(f"Swap sides at table {table}", "sides", a)
        for other in self._near(order, table):
            theirs = seats[other]
            if len(theirs) != 2:
                continue
            # same seat first (the swapped-in player keeps their side), then across
            for i, j in ((0, 0), (1, 1), (0, 1), (1, 0)):
                mine, yours = list(players), list(theirs)
                mine[i], yours[j] = theirs[j], players[i]
                if self._clean((table, mine), (other, yours)):
                    return Fix(f"Swap {name(players[i])} with {name(theirs[j])} (table {other})", "swap",
                               players[i], theirs[j])
        return None

    def _lone(self, seats: dict[int, list[int]], *skip: int) -> list[tuple[int, int]]:
        """(table, player) of each bye nobody asked for: a player a dropped or missing one can be paired with."""
        def free(p: int) -> bool:
            e = self.by_id.get(p)
            return p not in skip and not (e and (e.asks_bye(self.number) or e.dropped))
        return [(table, ps[0]) for table, ps in seats.items() if len(ps) == 1 and free(ps[0])]

    def _byes_ok(self, seats: dict[int, list[int]], p: int, *gone: int) -> bool:
        """Whether p can take a bye without a second bye nobody asked for in the round."""
        return self._clean((0, [p])) and (
            (p in self.by_id and self.by_id[p].asks_bye(self.number)) or not self._lone(seats, *gone))

    def _take_out(self, seats: dict[int, list[int]], table: int, d: int) -> Optional[Fix]:
        """A dropped player leaves the round; the opponent, if any, plays a lone bye player in their seat when that
        is clean, else takes the bye when that is clean."""
        players = seats[table]
        if len(players) == 1:
            return Fix(f"Take {self.name(d)} out of this round", "remove", d)
        (o,) = [p for p in players if p != d]
        for other, z in self._lone(seats, d):
            if self._clean((table, [z if p == d else p for p in players])):
                return Fix(f"Take {self.name(d)} out; {self.name(o)} plays {self.name(z)} (table {other})",
                           "remove", d, z)
        if self._byes_ok(seats, o, d):
            return Fix(f"Take {self.name(d)} out; {self.name(o)} gets the bye", "remove", d)
        return None

    def _add(self, seats: dict[int, list[int]], m: int) -> Optional[Fix]:
        """A player left out joins the round: beside a lone bye player when that is clean, else with a bye."""
        for table, z in self._lone(seats):
            if self._clean((table, [z, m])):
                return Fix(f"Pair {self.name(m)} with {self.name(z)} (table {table})", "add", m, z)
        if self._byes_ok(seats, m):
            return Fix(f"Add {self.name(m)} with a bye", "add", m)
        return None

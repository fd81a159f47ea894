"""Event statistics: which identities came, and how each side, identity and faction did (docs/domain.md 12).

Pure code: the service (app/services/event_stats.py) hands in the players' identities, the stored tables of the
published swiss rounds and the reported cut games; the results are read as app/core/results.py reads them, never
worked out again. What counts:

- A game is one Netrunner game (a single-sided table is one, a double-sided table two, one per side each) or, in
  plain swiss, one match. Games are won, lost or drawn (a tie); the win rate is wins over games, draws included.
- A bye is no game: it is counted apart (`byes`) and in no win rate.
- An intentional draw is no game either: it is listed apart (`intentional_draws`) per side, identity and faction,
  and in no win rate, as it says nothing about how the decks play.
- Swiss and cut are counted apart. Side balance is the swiss's: players by |Corp games - Runner games|.
"""
from __future__ import annotations

from collections import Counter
from enum import IntEnum
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Hashable, Iterable, NamedTuple, Optional, Sequence

from . import factions, identities, results
from .brackets import CutGame
from .pairing.formats import Format, Side

PlayerId = Hashable
SIDES = (Side.CORP, Side.RUNNER)
NOT_GIVEN = "Not given"  # the label of an empty identity field


class Result(IntEnum):
    """A game's result for one side (Tally.add)."""

    WON = 0
    LOST = 1
    DRAWN = 2
    INTENTIONAL = 3  # an intentional draw: no game played



@dataclass(frozen=True)
class Entry:
    """A player and the identities they registered."""

    player: PlayerId
    corp_identity: str = ""
    runner_identity: str = ""

    def identity(self, side: Side) -> str:
        return self.corp_identity if side is Side.CORP else self.runner_identity


class Table(NamedTuple):  # a tuple: a GP's 15,000 tables are read fast
    """A reported table of a published swiss round, as stored: its result key (Match.result; results.BYE for a
    bye), the intentional-draw flag, and its seats as (player, side or None) in seat order."""

    round: int
    result: str
    intentional_draw: bool
    seats: tuple


class SideGame(NamedTuple):  # a tuple: a GP's 30,000 games are made fast
    """One Netrunner game: who played Corp, who played Runner, which side won (None: a tie)."""

    corp: PlayerId
    runner: PlayerId
    winner: Optional[Side]
    intentional_draw: bool = False


class PlainMatch(NamedTuple):
    """One plain swiss match: its two players and the winner (None: a draw)."""

    players: tuple
    winner: Optional[PlayerId]
    intentional_draw: bool = False


@dataclass
class Tally:
    """Players and games of one side, identity or faction."""

    players: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    intentional_draws: int = 0

    @property
    def games(self) -> int:
        """Games played: won, lost or drawn (intentional draws and byes are not games)."""
        return self.wins + self.losses + self.draws

    @property
    def win_rate(self) -> Optional[Fraction]:
        return Fraction(self.wins, self.games) if self.games else None

    def add(self, result: Result, n: int = 1) -> None:
        """`n` games of one result."""
        if result == Result.WON:
            self.wins += n
        elif result == Result.LOST:
            self.losses += n
        elif result == Result.DRAWN:
            self.draws += n
        else:
            self.intentional_draws += n


@dataclass
class Line:
    """A row of a table or a bar of a chart: an identity (`name`) or a faction, its faction and its tally."""

    side: Side
    name: str
    faction: Optional[str]  # NetrunnerDB faction id; None: an identity SASS does not know
    tally: Tally = field(default_factory=Tally)

    def share(self, players: int) -> Optional[Fraction]:
        return Fraction(self.tally.players, players) if players else None


@dataclass
class Part:
    """The swiss or the cut: its players and games, per side, identity and faction (Netrunner formats)."""

    players: int = 0
    games: int = 0  # Netrunner games, or plain matches, played (won, lost or drawn)
    draws: int = 0
    intentional_draws: int = 0
    sides: dict = field(default_factory=dict)  # Side -> Tally (wins: that side's wins)
    identities: dict = field(default_factory=dict)  # Side -> [Line], most players first
    factions: dict = field(default_factory=dict)  # Side -> [Line]


@dataclass
class EventStats:
    fmt: Format
    swiss: Part
    cut: Optional[Part]  # None: no cut
    byes: int
    side_balance: list  # [(|Corp games - Runner games|, players)] by difference; single-sided only

    @property
    def netrunner(self) -> bool:
        return self.fmt.netrunner


# ---------------------------------------------------------------- reading the stored results

def table_games(fmt: Format, table: Table) -> list:
    """The games of a reported table: SideGames (Netrunner) or one PlainMatch; [] for a bye."""
    if table.result == results.BYE or len(table.seats) < 2:
        return []
    (one, one_side), (two, _two_side) = table.seats[:2]
    players = (one, two)
    shape = _shape(Format(fmt), table.result, table.intentional_draw, one_side)
    if shape and shape[0] == _PLAIN:
        return [PlainMatch(players, None if shape[1] is None else players[shape[1]], shape[2])]
    return [SideGame(players[corp], players[1 - corp], winner, draw) for corp, winner, draw in shape]


_PLAIN = "plain"


@lru_cache(maxsize=512)  # a handful of distinct results per event: each is read once
def _shape(fmt: Format, key: str, intentional_draw: bool, one_side: Optional[str]) -> tuple:
    """A result's games by seat: (seat index of the Corp, winning side or None, intentional draw) per game, or
    (_PLAIN, seat index of the winner or None, intentional draw) for a plain match."""
    if fmt.counts_games:
        points = results.outcome(fmt, key).points
        return (_PLAIN, 0 if points[0] > points[1] else 1 if points[1] > points[0] else None, intentional_draw)
    if fmt.both_sides:
        if not results.games_known(key):
            return ()  # a file's total that does not say who won as which side: no game to count (docs/domain.md 13)
        (one_corp, one_runner), (two_corp, two_runner) = results.side_scores(key)
        return ((0, _winner(one_corp, two_runner), intentional_draw),
                (1, _winner(two_corp, one_runner), intentional_draw))
    result = results.outcome(fmt, key)  # points are (Corp, Runner); unrecorded sides: seat 1 is the Corp
    corp = 1 if one_side == Side.RUNNER.value else 0
    return ((corp, _winner(*result.points), intentional_draw or result.intentional_draw),)


def _winner(corp_points: int, runner_points: int) -> Optional[Side]:
    if corp_points == runner_points:
        return None
    return Side.CORP if corp_points > runner_points else Side.RUNNER


def cut_games(fmt: Format, games: Iterable[CutGame]) -> list:
    """The reported games of a bracket: a Netrunner cut game is one game whose Corp the bracket records; a
    plain cut game is a match. A Netrunner game reported without its Corp is left out (it has no sides)."""
    fmt = Format(fmt)
    out: list[PlainMatch | SideGame] = []
    for g in games:
        if not g.reported:
            continue
        if not fmt.netrunner:
            out.append(PlainMatch(g.players, g.winner))
        elif g.corp is not None:
            out.append(SideGame(g.corp, g.runner, Side.CORP if g.winner == g.corp else Side.RUNNER))
    return out


# ---------------------------------------------------------------- counting

def event_stats(fmt: Format, entries: Iterable[Entry], tables: Iterable[Table],
                cut: Optional[tuple[Sequence[PlayerId], Iterable]] = None) -> EventStats:
    """The statistics of an event: `tables` are its published swiss tables, `cut` (the cut's players, its games
    from `cut_games`) or None when there is no cut. Players count once they have a reported
    table (a game or a bye) in a published round."""
    fmt = Format(fmt)
    entry_of = {e.player: e for e in entries}
    games: list = []
    byes = 0
    seated: set[PlayerId] = set()
    for table in tables:
        seated.update(p for p, _ in table.seats)
        if table.result == results.BYE:
            byes += 1
        else:
            games += table_games(fmt, table)
    swiss = _part(fmt, entry_of, seated, games)
    cut_part = _part(fmt, entry_of, set(cut[0]), list(cut[1])) if cut is not None else None
    balance = _side_balance(seated, games) if fmt.sided_tables else []
    return EventStats(fmt, swiss, cut_part, byes, balance)


def _part(fmt: Format, entries: dict, players: set, games: list) -> Part:
    part = Part(players=len(players))
    for g in games:
        if not g.intentional_draw:
            part.games += 1
            part.draws += g.winner is None
        else:
            part.intentional_draws += 1
    if not fmt.netrunner:
        return part
    part.sides = {side: Tally(players=len(players)) for side in SIDES}
    lines: dict = {side: {} for side in SIDES}
    faction_lines: dict = {side: {} for side in SIDES}
    named: dict = {}  # (side, identity as typed) -> its two lines
    of_player: dict = {side: {} for side in SIDES}  # side -> player -> their two lines

    def lines_of(side: Side, player) -> tuple[Line, Line]:
        found = of_player[side].get(player)
        if found is None:
            typed = entries.get(player, Entry(player)).identity(side)
            found = named.get((side, typed))
            if found is None:
                found = named[side, typed] = _lines(lines[side], faction_lines[side], side, typed)
            of_player[side][player] = found
        return found

    for side in SIDES:
        for p in players:
            for line in lines_of(side, p):
                line.tally.players += 1
    per_player: Counter[tuple] = Counter()  # (side, player, result) -> games: the lines then add a few thousand counts
    for g in games:
        if g.intentional_draw:
            corp = runner = Result.INTENTIONAL
        elif g.winner is None:
            corp = runner = Result.DRAWN
        else:
            corp, runner = (Result.WON, Result.LOST) if g.winner is Side.CORP else (Result.LOST, Result.WON)
        per_player[0, g.corp, corp] += 1  # 0, 1: SIDES (an enum hashes slowly, in Python)
        per_player[1, g.runner, runner] += 1
    for (index, player, result), n in per_player.items():
        side = SIDES[index]
        part.sides[side].add(result, n)
        for line in lines_of(side, player):
            line.tally.add(result, n)
    part.identities = {side: _ordered(lines[side].values()) for side in SIDES}
    part.factions = {side: _ordered(faction_lines[side].values()) for side in SIDES}
    return part


def _lines(lines: dict, faction_lines: dict, side: Side, identity: str) -> tuple[Line, Line]:
    """The identity's line and its faction's line on `side`, made on first use. Identities are named as
    NetrunnerDB spells them (identities.canonical), so "rielle “kit” peddler" counts with Rielle "Kit" Peddler."""
    name = identities.canonical(identity) or NOT_GIVEN
    line = lines.get(name)
    if line is None:
        faction = identities.faction(name, side.value) if name != NOT_GIVEN else None
        line = lines[name] = Line(side, name, faction)
    faction_line = faction_lines.get(line.faction)
    if faction_line is None:
        faction_line = faction_lines[line.faction] = Line(side, factions.name(line.faction), line.faction)
    return line, faction_line


def _ordered(lines: Iterable[Line]) -> list[Line]:
    """Most players first, then most games, then by name (unknown ones last among equals)."""
    return sorted(lines, key=lambda x: (-x.tally.players, -x.tally.games, x.faction is None, x.name.casefold()))


def _side_balance(players: set, games: list) -> list[tuple[int, int]]:
    """Players by the difference between their Corp and Runner swiss games (intentional draws count: their
    sides were set by the pairing), byes counting for neither; every player with a seat is counted."""
    bias: Counter[PlayerId] = Counter()
    for g in games:
        bias[g.corp] += 1
        bias[g.runner] -= 1
    spread = Counter(abs(bias[p]) for p in players)
    return sorted(spread.items())

"""Every game of a series' events, in time order, as plain values: what a rating learns from."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Optional

from ...extensions import db
from ...core.kept import Kept
from ...models import Series, SeriesEvent, Tournament
from .. import cut as cut_service
from .. import state
from .people import Roster, roster as load_roster

WIN, LOSS, DRAW, BYE = "win", "loss", "draw", "bye"


@dataclass(frozen=True)
class SeriesGame:
    event: int  # the tournament's id
    date: date
    stage: str  # "swiss" or "cut"
    round: int  # the swiss round, or the cut's round
    player: str  # the series player key (app/core/series/people.py) of the first seat: the Corp in a sided game
    opponent: Optional[str]  # None: a bye
    player_side: Optional[str]  # "corp" / "runner" where the table had sides (single-sided swiss, Netrunner cuts)
    outcome: str  # for `player`: "win", "loss", "draw"; "bye" for a bye
    intentional_draw: bool

    @property
    def bye(self) -> bool:
        return self.opponent is None


def series_games(series: Series, roster: Optional[Roster] = None) -> list[SeriesGame]:
    """Every reported game of the series' events in time order (events by date, then the swiss by round, then the
    cut by round), both sides named by their series player key.

    Swiss games are the published rounds' (what the public sees); a double-sided round is one match whose outcome
    is its points (6-0 a win, 3-3 a draw) and has no side; a plain swiss match has no side either. Byes and
    intentional draws are in the list, marked, so a rating can leave them out; a cut game is a win or a loss.
    """
    roster = roster or load_roster(series)
    return [g for t in events_in_order(series) for g in event_games(t, roster)]


def events_in_order(series: Series) -> list[Tournament]:
    """The series' events in the games' time order: by date, then id."""
    return db.session.execute(
        db.select(Tournament).join(SeriesEvent, SeriesEvent.tournament_id == Tournament.id)
        .where(SeriesEvent.series_id == series.id).order_by(Tournament.date, Tournament.id)).scalars().all()


def event_games(t: Tournament, roster: Roster) -> list[SeriesGame]:
    """One event's games as series_games lists them."""
    key = roster.people.key_of
    return [SeriesGame(t.id, t.date, stage, number, key[first], key[second] if second else None, side, outcome, draw)
            for stage, number, first, second, side, outcome, draw in entry_games(t)]


# Each event's games by (event, slug, version), entries by id: a result bumps its own event's version only, so the
# others are read from here (per process; the oldest go first).
_GAMES: Kept[tuple] = Kept(1024)


def entry_games(t: Tournament) -> tuple:
    """One event's games as (stage, round, first entry id, second or None, side, outcome, intentional draw), kept
    by its version (the server-wide ratings read every event's too: app/services/server_ratings.py)."""
    return _GAMES.get((t.id, t.slug, t.version), lambda: tuple(_read_games(t)))


def forget_cached() -> None:
    _GAMES.clear()


def _read_games(t: Tournament):
    for g in state.completed_games(t, published_only=True):
        if g.opponent is None:
            yield "swiss", g.round, g.player, None, None, BYE, False
            continue
        outcome = WIN if g.player_points > g.opponent_points else LOSS if g.player_points < g.opponent_points \
            else DRAW
        side = g.player_side.value if g.player_side is not None and t.fmt.sided_tables else None
        yield "swiss", g.round, g.player, g.opponent, side, outcome, bool(g.intentional_draw)
    cut = cut_service.load(t) if t.cut_kind else None
    if cut is None:
        return
    for g in sorted(cut.bracket.games, key=lambda g: (g.round, g.id)):
        if not g.ready or not g.reported:
            continue
        sides = cut.sides(g)
        first, second = sides if sides is not None else (g.player1, g.player2)
        yield "cut", g.round, first, second, "corp" if sides is not None else None, \
            WIN if g.winner == first else LOSS, False


@dataclass
class Record:
    """Games won, lost and drawn from one player's seat: overall, as Corp, as Runner; byes apart."""

    all: list  # [won, lost, drawn]
    corp: list
    runner: list
    byes: int = 0


def record_by_side(games: list[SeriesGame], key: str) -> Record:
    """The series player's record over these games (a side counted only where the table had sides)."""
    record = Record([0, 0, 0], [0, 0, 0], [0, 0, 0])
    flip = {WIN: LOSS, LOSS: WIN, DRAW: DRAW}
    for g in games:
        if key not in (g.player, g.opponent):
            continue
        if g.outcome == BYE:
            record.byes += 1
            continue
        mine = g.outcome if g.player == key else flip[g.outcome]
        side = g.player_side if g.player == key else {"corp": "runner", "runner": "corp"}.get(g.player_side)
        slot = {WIN: 0, LOSS: 1, DRAW: 2}[mine]
        record.all[slot] += 1
        if side:
            getattr(record, side)[slot] += 1
    return record

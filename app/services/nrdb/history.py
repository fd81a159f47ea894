"""A NetrunnerDB account's history on this server: every event whose entry is linked to it, with the date, the
placing, the identities, the record and each game (opponent, side, who won), newest event first.

Only what the public already sees goes in (published rounds, the cut as its bracket shows it), so the page can be
made public without telling anything an event's own pages do not. Who may open it: app/web/views/nrdb.py, by
`visible`.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ...core.kept import Kept
from ...core import result_wording, results
from ...core.pairing import Format
from ...extensions import db
from ...models import Match, NrdbAccount, Player, Round, Seat, Tournament
from .. import cut as cut_service
from .. import state
from ..swiss.rounds import corp_first


@dataclass(frozen=True)
class Game:
    stage: str  # the swiss round ("3") or the cut's ("Cut 1")
    opponent: str | None  # None: a bye
    opponent_nrdb: str | None  # the opponent's NetrunnerDB username, if their entry is linked
    side: str | None  # the player's side ("corp" / "runner") where the table had sides
    result: str  # from the player's seat: "I won as Corp", "We drew 3-3", "Bye"; "" while unreported
    won: bool | None  # None: a draw, a bye or no result yet


@dataclass(frozen=True)
class EventLine:
    slug: str
    name: str
    date: date
    format: str
    player: str  # the entry's name in that event
    corp_identity: str
    runner_identity: str
    place: int | None  # final place (the cut's, else the swiss rank); None before any published result
    of: int
    champion: bool
    record: str  # rounds won-lost-tied in the swiss ("3-1-0")
    points: int | None
    games: tuple[Game, ...]


def entries(account: NrdbAccount, slugs: list[str]) -> list[tuple[Tournament, Player]]:
    """The account's entries in the events of these slugs (a device's held player links name them)."""
    if not slugs:
        return []
    return [tuple(row) for row in db.session.execute(
        sa.select(Tournament, Player).join(Player, Player.tournament_id == Tournament.id)
        .where(Player.nrdb_account_id == account.id, Tournament.slug.in_(slugs[:1000])))]


# Each event's line, by (event, its slug, its version, the entry): an event bumps its version on every change that
# could change the line (results, seats, the cut, players), and a finished event never changes, so a history is
# worked out once and read from here afterwards (an opponent's account renamed at NetrunnerDB shows its new name
# once that event changes again). Per process; the oldest lines go first. The slug guards against an id reused
# after a deletion.
_LINES: Kept[EventLine] = Kept(4096)


def history(account: NrdbAccount) -> list[EventLine]:
    entries = db.session.execute(
        sa.select(Player, Tournament).join(Tournament, Tournament.id == Player.tournament_id)
        .where(Player.nrdb_account_id == account.id)
        .order_by(Tournament.date.desc(), Tournament.id.desc())).all()
    lines, missing = {}, []
    for player, t in entries:
        key = (t.id, t.slug, t.version, player.id)
        lines[key] = _LINES.find(key)
        if lines[key] is None:
            missing.append((player, t))
    games = _swiss_games([p.id for p, _ in missing])  # every event not kept, in one query
    for player, t in missing:
        line = _line(t, player, games.get(player.id, []))
        lines[t.id, t.slug, t.version, player.id] = line
        _LINES.keep((t.id, t.slug, t.version, player.id), line)
    return [lines[t.id, t.slug, t.version, player.id] for player, t in entries]


def forget_cached() -> None:
    """Empty the lines kept (benchmarks measure a first view)."""
    _LINES.clear()


def _swiss_games(player_ids: list[int]) -> dict[int, list[Game]]:
    """Each player's games in the published swiss rounds of their events, in one query."""
    if not player_ids:
        return {}
    mine, theirs = aliased(Seat), aliased(Seat)
    opponent, account = aliased(Player), aliased(NrdbAccount)
    rows = db.session.execute(
        sa.select(mine.player_id, Round.number, Match.is_bye, Match.result, Tournament.format, mine.position,
                  mine.side, theirs.player_id, theirs.position, theirs.side, opponent.name, account.username)
        .select_from(mine)
        .join(Match, Match.id == mine.match_id)
        .join(Round, Round.id == Match.round_id)
        .join(Tournament, Tournament.id == Round.tournament_id)
        .outerjoin(theirs, sa.and_(theirs.match_id == Match.id, theirs.id != mine.id))
        .outerjoin(opponent, opponent.id == theirs.player_id)
        .outerjoin(account, account.id == opponent.nrdb_account_id)
        .where(mine.player_id.in_(player_ids), Round.published)
        .order_by(mine.player_id, Round.number)).all()
    out: dict[int, list[Game]] = {}
    for pid, number, is_bye, result, fmt_value, pos, side, other, other_pos, other_side, name, username in rows:
        t = _FormatOnly(Format(fmt_value))
        if is_bye or other is None:
            game = Game(str(number), None, None, None, "Bye" if result else "", None)
        else:
            seats = corp_first(t, [_SeatFact(pid, pos, side), _SeatFact(other, other_pos, other_side)])
            seat = result_wording.FIRST if seats[0].player_id == pid else result_wording.SECOND
            text = result_wording.worded(t.fmt, result, seat) if result else ""
            won = None
            if result:
                points = results.outcome(t.fmt, result).points
                mine_points, their_points = points if seat == result_wording.FIRST else points[::-1]
                won = None if mine_points == their_points else mine_points > their_points
            game = Game(str(number), name, username, side if t.fmt.sided_tables else None, text, won)
        out.setdefault(pid, []).append(game)
    return out


@dataclass(frozen=True)
class _SeatFact:
    player_id: int
    position: int
    side: str | None


@dataclass(frozen=True)
class _FormatOnly:
    """What rounds.corp_first reads of a tournament: its format."""
    fmt: Format


def _line(t: Tournament, player: Player, games: list[Game]) -> EventLine:
    swiss = state.standings(t, published_only=True)
    row = next((s for s in swiss if s.player == player.id), None)
    # "place N of M": M the placed players (a disqualified one holds no placing; one who never played is in no
    # standings)
    place, of, champion, cut_games = (row.rank if row and row.placed else None), \
        sum(1 for s in swiss if s.placed), False, []
    cut = cut_service.load(t) if t.cut_kind else None
    if cut is not None:
        final = cut.final_standings()
        mine = next((r for r in final if r["player"] == player.id), None)
        place = mine["rank"] if mine and not mine["disqualified"] else None
        of = sum(1 for r in final if not r["disqualified"])
        champion = bool(mine and mine["champion"])
        cut_games = _cut_games(t, cut, player.id)
    return EventLine(
        slug=t.slug, name=t.name, date=t.date, format=t.fmt.label, player=player.name,
        corp_identity=player.corp_identity, runner_identity=player.runner_identity, place=place, of=of,
        champion=champion, record=f"{row.wins}-{row.losses}-{row.ties}" if row else "0-0-0",
        points=row.points if row else None, games=tuple(games + cut_games))


def _cut_games(t: Tournament, cut, pid: int) -> list[Game]:
    usernames = dict(db.session.execute(
        sa.select(Player.id, NrdbAccount.username).join(NrdbAccount, NrdbAccount.id == Player.nrdb_account_id)
        .where(Player.tournament_id == t.id)).all())
    out = []
    for g in cut.bracket.games:
        if pid not in g.players or not g.ready:
            continue
        other = g.player2 if g.player1 == pid else g.player1
        sides = cut.sides(g) if g.reported else None
        side = None if sides is None else "corp" if sides[0] == pid else "runner"
        result = result_wording.cut_game(g.winner == pid, side) if g.reported else ""
        out.append(Game(f"Cut {g.round}", cut.name(other), usernames.get(other), side, result,
                        (g.winner == pid) if g.reported else None))
    return out

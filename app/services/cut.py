"""The top cut in the database: seeds (CutEntry) and results (CutResult) in, a Bracket from app.core.brackets out.

The bracket itself is never stored: it is rebuilt from the seeds and the reported results on every request, so
the pure core stays the one place that knows how a bracket advances. A CutResult row with a Corp and no winner
is the side choice (or swap) recorded for a game not yet played. A cut imported from a file that no layout
describes is kept as played: its rows name each game's players and round (a PlayedBracket).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ..core.bracket_games import SIZES
from ..core.brackets import Bracket, BracketError, CutGame, cut_sides, cut_tables, recommended_cut, seed_cut
from ..core.played_bracket import PlayedBracket, PlayedGame
from ..extensions import db
from ..models import CutEntry, CutResult, Match, Player, Tournament, touch
from ..core.pairing import Format
from .event_files import backup
from .locks import lock_tournament
from .push import outbox as push_outbox
from .state import standings


class CutError(ValueError):
    """A cut action that cannot be done; nothing was changed."""


def kinds_for(fmt: Format) -> tuple[str, ...]:
    """Netrunner events cut to double elimination (or single); plain swiss cuts to single elimination."""
    return Format(fmt).cut_kinds


def swiss_standings(tournament: Tournament):
    return standings(tournament)


@dataclass
class Cut:
    """A tournament's cut as the pages need it: the bracket plus names and recorded side choices."""

    tournament: Tournament
    bracket: Bracket  # or a PlayedBracket
    players: dict  # id -> Player
    choices: dict  # game id -> recorded Corp of an unplayed game
    swiss: list  # swiss Standing rows
    tables: dict = field(default_factory=dict)  # game id -> the table an imported file gave it

    def table(self, game: CutGame) -> int:
        """An imported file's table for the game, else its table in its cut round (app/core/brackets.py)."""
        if game.id in self.tables:
            return self.tables[game.id]
        return cut_tables(self.bracket.games).get(game.id, game.id)

    def file_table(self, game: CutGame) -> int:
        """The game's table as NRTM files write it: an imported file's, else the game's number (Cobra's way)."""
        return self.tables.get(game.id, game.id)

    def name(self, player_id) -> str:
        return self.players[player_id].name if player_id in self.players else f"player #{player_id}"

    def sides(self, game: CutGame) -> Optional[tuple]:
        """(corp, runner) of a game: the recorded Corp if any, else the rule of cut_sides; None: to be chosen."""
        if not self.tournament.fmt.netrunner or not game.ready:
            return None
        if game.reported:
            return (game.corp, game.runner) if game.corp is not None else None
        corp = self.choices.get(game.id)
        if corp in game.players:
            return (corp, game.player2 if corp == game.player1 else game.player1)
        swiss_corp = {s.player: s.corp for s in self.swiss}
        swiss_runner = {s.player: s.runner for s in self.swiss}
        cut_corp, cut_runner = self.bracket.cut_side_counts()
        corp_counts = {p: swiss_corp.get(p, 0) + cut_corp.get(p, 0) for p in game.players}
        runner_counts = {p: swiss_runner.get(p, 0) + cut_runner.get(p, 0) for p in game.players}
        return cut_sides(game, corp_counts, runner_counts)

    def final_standings(self) -> list[dict]:
        """Cut players by the round they went out, then seed (or as an imported file ranked them, when its
        ranking stands); then everyone else by swiss rank; a disqualified player last, cut or not, without a
        placing (`disqualified`). Players who never played are in no standings (state.swiss_standings)."""
        out_round = self.bracket.out_rounds()
        champion = self.bracket.champion()
        disqualified = {s.player for s in self.swiss if s.disqualified}
        rows = []
        for p in self.bracket.final_standings():
            rows.append({"player": p, "name": self.name(p), "seed": self.bracket.seed_of(p),
                         "out_in_round": out_round.get(p), "champion": p == champion and p not in disqualified})
        in_cut = set(self.bracket.seeds)
        for s in self.swiss:
            if s.player not in in_cut:
                rows.append({"player": s.player, "name": s.name, "seed": None, "out_in_round": None,
                             "champion": False, "swiss_rank": s.rank})
        rows.sort(key=lambda r: r["player"] in disqualified)  # stable: the others keep their order
        return [{"rank": rank, **r, "disqualified": r["player"] in disqualified} for rank, r in enumerate(rows, 1)]


@dataclass(frozen=True)
class Progress:
    """What the event's home page says once the swiss is over: the cut's size and the bracket round being
    played (None between rounds), or the champion."""

    size: int
    champion: Optional[str]
    round: Optional[int]


def progress(tournament: Tournament) -> Optional[Progress]:
    cut = load(tournament)
    if cut is None:
        return None
    champion = cut.bracket.champion()
    playing = [g.round for g in cut.bracket.ready_games()]
    return Progress(len(cut.bracket.seeds), cut.name(champion) if champion is not None else None,
                    min(playing) if playing else None)


def load(tournament: Tournament) -> Optional[Cut]:
    """The tournament's cut rebuilt from its rows, or None when there is none."""
    stored = _stored(tournament)
    if stored is None:
        return None
    bracket, rows = stored
    choices = {r.game: r.corp_id for r in rows if r.winner_id is None and r.corp_id is not None}
    players = {p.id: p for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=tournament.id))}
    tables = {r.game: r.table for r in rows if r.table is not None}
    return Cut(tournament, bracket, players, choices, swiss_standings(tournament), tables)


def file_ranking(entries: Iterable[CutEntry]) -> list:
    """The players in an imported file's own final order of the cut (CutEntry.rank), [] when the games rank it."""
    ranked = [e for e in entries if e.rank is not None]
    return [e.player_id for e in sorted(ranked, key=lambda e: e.rank)]


def game_table(tournament: Tournament, player_id: int) -> Optional[int]:
    """The table of `player_id`'s cut game that is ready and not played yet, or None (no cut, out of it, waiting
    for a game): from the stored bracket alone, without the swiss standings a whole Cut loads (a judge call asks
    it on every player page)."""
    stored = _stored(tournament)
    if stored is None:
        return None
    bracket, rows = stored
    game = next((g for g in bracket.games if g.ready and not g.reported and player_id in g.players), None)
    if game is None:
        return None
    files = {r.game: r.table for r in rows if r.table is not None}
    return files.get(game.id) or cut_tables(bracket.games).get(game.id, game.id)


def bracket(tournament: Tournament):
    """The tournament's bracket alone (no names, no swiss standings), or None when there is no cut: for the
    statistics, which count its games."""
    stored = _stored(tournament)
    return stored[0] if stored is not None else None


def decided(tournament: Tournament) -> bool:
    """The top cut exists and every game of it is played: the event is over."""
    stored = _stored(tournament)
    return stored is not None and stored[0].is_complete()


def _stored(tournament: Tournament):
    """(the bracket, its CutResult rows) from the stored seeds and results, or None when there is no cut."""
    if tournament.cut_kind is None:
        return None
    entries = db.session.scalars(sa.select(CutEntry).filter_by(tournament_id=tournament.id)
                                 .order_by(CutEntry.seed)).all()
    if not entries:
        return None
    rows = db.session.scalars(sa.select(CutResult).filter_by(tournament_id=tournament.id)
                              .order_by(CutResult.game)).all()
    return build(tournament.cut_kind, [e.player_id for e in entries], rows, file_ranking(entries)), rows


def build(kind: str, seeds: list, rows: Iterable[CutResult], ranking: Iterable = ()):
    """The bracket of stored seeds and CutResult rows: played games when the rows name their players; ranked as
    an imported file ranked it when `ranking` gives that order."""
    rows = list(rows)
    if any(r.player1_id is not None for r in rows):
        bracket = PlayedBracket(kind, seeds, [PlayedGame(r.game, r.round, r.player1_id, r.player2_id, r.winner_id,
                                                         r.corp_id) for r in rows if r.player1_id is not None])
    else:
        reported = [(r.game, r.winner_id, r.corp_id) for r in rows if r.winner_id is not None]
        bracket = Bracket.from_results(kind, seeds, reported)
    ranking = list(ranking)
    if ranking:
        bracket.rank_as(ranking)
    return bracket


def unreported_swiss_tables(tournament: Tournament) -> int:
    return db.session.scalar(sa.select(sa.func.count(Match.id))
                             .where(Match.tournament_id == tournament.id, Match.result.is_(None))) or 0


@dataclass
class CutPlan:
    """What the TO sees before cutting: the recommended size and the swiss still to play (the form lists who would make
    it)."""

    field: int  # active players (dropped ones are neither counted nor seeded)
    recommended: int  # app.core.brackets.recommended_cut; 0: no cut
    planned_rounds: Optional[int]
    rounds_played: int  # swiss rounds with every result in
    size: int  # the size previewed

    @property
    def early(self) -> bool:
        return bool(self.planned_rounds) and self.rounds_played < self.planned_rounds


def champions(tournaments: Iterable[Tournament]) -> dict:
    """{tournament id: champion's name} of the events whose cut is decided, in three queries for a list page."""
    cut = {t.id: t.cut_kind for t in tournaments if t.cut_kind is not None}
    if not cut:
        return {}
    seeds: dict = {}
    entries: dict = {}
    for e in db.session.scalars(sa.select(CutEntry).where(CutEntry.tournament_id.in_(cut)).order_by(CutEntry.seed)):
        seeds.setdefault(e.tournament_id, []).append(e.player_id)
        entries.setdefault(e.tournament_id, []).append(e)
    rows: dict = {}
    for r in db.session.scalars(sa.select(CutResult).where(CutResult.tournament_id.in_(cut))
                                .order_by(CutResult.game)):
        rows.setdefault(r.tournament_id, []).append(r)
    won = {}
    for tid, kind in cut.items():
        if tid in seeds:
            champion = build(kind, seeds[tid], rows.get(tid, []), file_ranking(entries[tid])).champion()
            if champion is not None:
                won[tid] = champion
    if not won:
        return {}
    names = dict(db.session.execute(sa.select(Player.id, Player.name)
                                    .where(Player.id.in_(list(won.values())))).all())
    return {tid: names[p] for tid, p in won.items()}


DEFAULT_SIZE = 4  # previewed when the field is too small for a recommended cut


def plan(tournament: Tournament, size: Optional[int] = None) -> CutPlan:
    """The cut page's advice; `size` defaults to the recommended one (else a top 4)."""
    from .swiss.summaries import round_summaries

    active = sum(1 for row in swiss_standings(tournament) if not row.dropped)
    recommended = recommended_cut(active)
    size = size or recommended or DEFAULT_SIZE
    played = sum(1 for r in round_summaries(tournament) if r.matches and not r.unreported)
    return CutPlan(active, recommended, tournament.planned_rounds, played, size)


def create(tournament: Tournament, size: int, kind: str, excluded: Iterable[int] = ()) -> Cut:
    """Seed a new cut from the swiss standings, skipping dropped and excluded players."""
    tournament = lock_tournament(tournament)  # the swiss as committed: no round being paired meanwhile
    if tournament.cut_kind is not None:
        raise CutError("this tournament already has a cut; delete it first to cut again")
    if kind not in kinds_for(tournament.fmt):
        raise CutError(f"a {tournament.fmt.label.lower()} event cuts to "
                       + " or ".join(f"{k} elimination" for k in kinds_for(tournament.fmt)))
    if size not in SIZES[kind]:
        raise CutError(f"a {kind} elimination cut has {', '.join(map(str, SIZES[kind]))} players, not {size}")
    if not tournament.rounds:
        raise CutError("play the swiss rounds before cutting")
    missing = unreported_swiss_tables(tournament)
    if missing:
        raise CutError(f"{missing} swiss table{'s' if missing != 1 else ''} still without a result")
    standings = swiss_standings(tournament)
    try:
        seeds = seed_cut(standings, size, excluded=set(excluded))
    except BracketError as e:
        raise CutError(str(e)) from None
    tournament.cut_kind = kind
    db.session.add_all(CutEntry(tournament_id=tournament.id, player_id=p, seed=i) for i, p in enumerate(seeds, 1))
    db.session.flush()
    push_outbox.queue(tournament.id, push_outbox.CUT)
    _commit()
    return load(tournament)


def delete(tournament: Tournament) -> None:
    db.session.execute(sa.delete(CutResult).filter_by(tournament_id=tournament.id))
    db.session.execute(sa.delete(CutEntry).filter_by(tournament_id=tournament.id))
    touch(db.session, [tournament.id])
    tournament.cut_kind = None
    db.session.commit()


def _row(tournament: Tournament, game_id: int) -> Optional[CutResult]:
    return db.session.scalar(sa.select(CutResult).filter_by(tournament_id=tournament.id, game=game_id))


def _game(cut: Cut, game_id: int) -> CutGame:
    try:
        game = cut.bracket.game(game_id)
    except BracketError as e:
        raise CutError(str(e)) from None
    if not game.ready:
        raise CutError(f"game {game_id} has no players yet: "
                       f"{game.slots[0].label} v {game.slots[1].label}")
    return game


def set_corp(tournament: Tournament, game_id: int, corp_id: int) -> None:
    """Record who plays Corp in a game not yet played: the higher seed's choice, or the TO's swap."""
    cut = _require(tournament)
    if not tournament.fmt.netrunner:
        raise CutError("plain swiss cut games have no sides")
    game = _game(cut, game_id)
    if game.reported:
        raise CutError(f"game {game_id} is already reported")
    if corp_id not in game.players:
        raise CutError(f"{cut.name(corp_id)} does not play in game {game_id}")
    row = _row(tournament, game_id) or CutResult(tournament_id=tournament.id, game=game_id)
    row.corp_id = corp_id
    db.session.add(row)
    _commit()


def report(tournament: Tournament, game_id: int, winner_id: int) -> CutGame:
    """Report a winner, or correct one while no game that depends on it has been reported."""
    cut = _require(tournament)
    game = _game(cut, game_id)
    if winner_id not in game.players:
        raise CutError(f"{cut.name(winner_id)} does not play in game {game_id}")
    sides = cut.sides(game)
    if tournament.fmt.netrunner and sides is None:
        raise CutError(f"record who plays Corp in game {game_id} first "
                       f"({cut.name(game.higher_seed)}, the higher seed, chooses)")
    corp = sides[0] if sides else None
    try:
        if game.reported:
            result = cut.bracket.correct(game_id, winner_id, corp)
        else:
            result = cut.bracket.report(game_id, winner_id, corp)
    except BracketError as e:
        reported = [cut.bracket.game(g) for g in cut.bracket.dependents(game_id) if cut.bracket.game(g).reported]
        names = "; ".join(f"game {g.id}: {_pairing_label(cut, g)}" for g in reported) if game.reported else ""
        raise CutError(f"{e} ({names}); correct {'that game' if len(reported) == 1 else 'those games'} first"
                       if names else str(e)) from None
    row = _row(tournament, game_id) or CutResult(tournament_id=tournament.id, game=game_id)
    row.winner_id, row.corp_id = winner_id, corp
    db.session.add(row)
    _forget_stale_choices(tournament, cut.bracket)
    if cut.bracket.file_ranking:  # a result changed here: the games rank the cut from now on
        db.session.execute(sa.update(CutEntry).where(CutEntry.tournament_id == tournament.id).values(rank=None))
    _commit()
    backup.follow(tournament)
    return result


def _commit() -> None:
    """Two taps at once (a double click, two organizers) race for the same row: the second one loses cleanly."""
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise CutError("someone saved this at the same moment; reload the page and check") from None


def _pairing_label(cut: Cut, game: CutGame) -> str:
    return f"{cut.name(game.player1)} v {cut.name(game.player2)}"


def _forget_stale_choices(tournament: Tournament, bracket: Bracket) -> None:
    """A corrected result changes who plays later games; side choices recorded for other players go."""
    if bracket.played:
        return  # a played cut's rows are its games, and a result never changes who plays them
    existing = {g.id: g for g in bracket.games}
    for row in db.session.scalars(sa.select(CutResult).filter_by(tournament_id=tournament.id, winner_id=None)):
        game = existing.get(row.game)
        if game is None or (row.corp_id is not None and row.corp_id not in game.players):  # a table alone stays
            db.session.delete(row)


def _require(tournament: Tournament) -> Cut:
    cut = load(tournament)
    if cut is None:
        raise CutError("this tournament has no cut yet")
    return cut


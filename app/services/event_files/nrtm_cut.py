"""An NRTM file's top cut read: replayed on one of SASS's layouts when its games fit one, else kept as played
(app/core/played_bracket.py); the file's own ranking of the cut stands, with a warning where its games contradict
it."""
from __future__ import annotations



from ...core.bracket_games import LAYOUTS
from ...core.brackets import Bracket, BracketError
from ...core.played_bracket import PlayedBracket, PlayedGame
from ...core.pairing import Format
from .. import cut as cut_service
from . import jsonfile as j
from .event_writer import CutRow, EventPlan
from .jsonfile import FileError

MAX_CUT = 64  # eliminationPlayers at most, as in a backup


def read_cut(plan: EventPlan, fmt: Format, doc: dict, rounds: list, ids: set) -> None:
    raw = doc.get("eliminationPlayers") or []
    entries, ranks = [], {}
    for i, e in enumerate(j.array(raw, "eliminationPlayers"), 1):
        e = j.obj(e, f"eliminationPlayers item {i}")
        pid = j.player_id(e.get("id"), f"eliminationPlayers item {i} id")
        if pid not in ids:
            raise FileError(f"eliminationPlayers names player {pid}, who is not in the players list")
        entries.append((j.integer(e.get("seed"), f"eliminationPlayers item {i} seed", 1, len(raw)), pid))
        if e.get("rank") is not None:
            ranks[pid] = e["rank"]  # kept when they make a ranking (_file_ranking), never a reason to refuse
    if not entries:
        if rounds:
            raise FileError("the file has elimination games but no eliminationPlayers with seeds")
        return
    entries.sort(key=lambda e: e[0])
    if [s for s, _ in entries] != list(range(1, len(entries) + 1)) or len({p for _, p in entries}) != len(entries):
        raise FileError("eliminationPlayers should have seeds 1, 2, 3 ... once each, each player once")
    if not 2 <= len(entries) <= MAX_CUT:
        raise FileError(f"a cut has 2 to {MAX_CUT} eliminationPlayers, not {len(entries)}")
    seeds = [p for _, p in entries]
    seeded = set(seeds)
    games = [_cut_game(number, n, k, p, ids, seeded) for number, (n, pairings) in enumerate(rounds, 1)
             for k, p in enumerate(pairings, 1)]
    tables = set()
    for number, table, *_, where in games:
        if table is None:
            plan.warnings.append(f"{where[:1].upper()}{where[1:]} has no table number (null); SASS calls it by "
                                 "its game's number.")
            continue
        if (number, table) in tables:
            raise FileError(f"{where}: two elimination games at table {table} in the same round")
        tables.add((number, table))
    kinds = cut_service.kinds_for(fmt)
    fits = []  # layouts SASS knows, so the TO can carry on with the bracket
    for kind in kinds:
        if (kind, len(seeds)) in LAYOUTS:
            try:
                fits.append(_replay(kind, seeds, games))
            except BracketError:
                continue
    if fits:
        # A single-elimination file also fits the start of a double-elimination bracket: the file's kind is the
        # one it finishes, else the one with no game left unplayed in the rounds the file has; else the first.
        bracket, plan.cut_results = min(fits, key=lambda fit: (
            not fit[0].is_complete(), sum(g.round <= len(rounds) for g in fit[0].ready_games())))
    elif games:
        bracket, plan.cut_results = _as_played(kinds, seeds, games)
    else:
        raise FileError(f"SASS has no bracket for a top {len(seeds)} cut, and the file has no elimination games "
                        "to keep as played")
    plan.cut_kind, plan.seeds = bracket.kind, seeds
    _file_ranking(plan, bracket, seeds, ranks)


def _file_ranking(plan: EventPlan, bracket, seeds: list, ranks: dict) -> None:
    """The file's ranks of the cut (1, 2, 3 ... once each, every player) stand where they differ from the games'
    order (plan.cut_ranking, CutEntry.rank); where they contradict the games the TO is warned first. Ranks
    that are missing or not a ranking are left to the games."""
    if not ranks:
        return
    values = list(ranks.values())
    if not all(type(r) is int for r in values) or sorted(values) != list(range(1, len(seeds) + 1)):
        plan.warnings.append("eliminationPlayers' ranks are not 1, 2, 3 ... once each for every player of the "
                             "cut; SASS ranks the cut by its games.")
        return
    order = sorted(ranks, key=ranks.get)
    if order == bracket.games_standings():
        return
    plan.cut_ranking = order
    champion = bracket.games_champion()
    if champion is not None and order[0] != champion:
        plan.warnings.append(f"eliminationPlayers ranks player {order[0]} first, but the elimination games make "
                             f"player {champion} the champion; the file's ranking stands.")
        return
    wrong = bracket.ranking_contradictions(order)
    if wrong:
        above, below = wrong[0]
        plan.warnings.append(f"eliminationPlayers ranks player {above} above player {below}, who went further in "
                             "the elimination games; the file's ranking stands.")


def _cut_game(number: int, n: int, k: int, p: dict, ids: set, seeded: set) -> tuple:
    """(cut round, table, player1, player2, winner, corp, where) of one elimination game."""
    where = f"round {n} elimination game {j.brief(p['table']) if p['table'] is not None else k}"
    table = j.integer(p["table"], f"{where} table", 1, 100000, null=True)
    players = []
    for key in ("player1", "player2"):
        raw = j.obj(p.get(key), f"{where} {key}")
        pid = j.player_id(raw.get("id"), f"{where} {key} id")
        if pid not in ids:
            raise FileError(f"{where} names player {pid}, who is not in the players list")
        if pid not in seeded:
            raise FileError(f"{where} names player {pid}, who is not in eliminationPlayers")
        role = j.choice(raw.get("role"), f"{where} {key} role", ("corp", "runner"), null=True)
        winner = raw.get("winner")
        if winner is not None:
            winner = j.boolean(winner, f"{where} {key} winner")
        score = raw.get("combinedScore")
        score = raw.get("corpScore") if score is None else score
        score = raw.get("runnerScore") if score is None else score
        players.append((pid, role, winner, j.integer(score, f"{where} {key} score", 0, 100, null=True)))
    (a, role_a, win_a, score_a), (b, role_b, win_b, score_b) = players
    if a == b:
        raise FileError(f"{where} pairs a player with themselves")
    if role_a is not None and role_a == role_b:
        raise FileError(f"{where}: both players are {role_a}")
    if win_a and win_b:
        raise FileError(f"{where} has two winners")
    if win_a is None and win_b is None and score_a is not None and score_b is not None:
        # Aesop's Tables: the scores say who won (3 to 0)
        if score_a == score_b:
            raise FileError(f"{where}: an elimination game cannot end {score_a}-{score_b}")
        win_a, win_b = score_a > score_b, score_b > score_a
    winner = a if win_a else b if win_b else None
    corp = a if role_a == "corp" else b if role_b == "corp" else None
    return number, table, a, b, winner, corp, where


def _replay(kind: str, seeds: list, games: list) -> tuple[Bracket, list[CutRow]]:
    """Report the file's games onto a fresh bracket: each must be a game of the bracket in the same cut round
    (the one numbered like the table, or else the one its players play), a game not played yet one the bracket
    has waiting; BracketError when one is not. Tables that differ from the game numbers (Aesop's Tables numbers
    them its own way) are kept."""
    bracket = Bracket(kind, seeds)
    tables = {}
    waiting = []
    for number, table, a, b, winner, corp, where in sorted(games, key=lambda g: g[0]):
        if winner is None:
            waiting.append((number, table, a, b, corp, where))
            continue
        candidates = [g for g in bracket.ready_games() if set(g.players) == {a, b} and g.round == number]
        match = next((g for g in candidates if g.id == table), candidates[0] if candidates else None)
        if match is None:
            raise BracketError(f"{where} is not a game of the bracket")
        bracket.report(match.id, winner, corp)
        if table is not None and table != match.id:
            tables[match.id] = table
    ready = bracket.ready_games()
    final = next((g for g in bracket.games if g.section == "final"), None)
    rows = [CutRow(game, winner, corp, tables.get(game)) for game, winner, corp in bracket.results()]
    for number, table, a, b, corp, where in waiting:  # not played yet: the bracket must have them waiting
        match = next((g for g in ready if set(g.players) == {a, b} and g.round == number), None)
        if match is not None:
            ready.remove(match)  # listed once
            if corp is not None or table not in (None, match.id):  # the side choice made, the table given
                rows.append(CutRow(match.id, None, corp, table if table != match.id else None))
            continue
        if kind == "double" and bracket.is_complete() and set(final.players) == {a, b}:
            continue  # Cobra pairs the grand-final reset even when the upper-bracket player won the final
        raise BracketError(f"{where} is not a game of the bracket")
    return bracket, rows


def _as_played(kinds: tuple, seeds: list, games: list) -> tuple[PlayedBracket, list[CutRow]]:
    """The games exactly as the file has them, numbered 1.. in round order: single elimination unless someone
    plays on after a loss. FileError when they cannot have happened in any elimination."""
    ordered = sorted(games, key=lambda g: g[0])
    played = [PlayedGame(i, number, a, b, winner, corp)
              for i, (number, table, a, b, winner, corp, where) in enumerate(ordered, 1)]
    error = None
    for kind in sorted(kinds, key=lambda k: k != "single"):
        try:
            bracket = PlayedBracket(kind, seeds, played)
        except BracketError as e:
            error = e
            continue
        return bracket, [CutRow(g.id, g.winner, g.corp, table, g.round, g.player1, g.player2)
                      for g, (_, table, *_rest) in zip(played, ordered, strict=True)]
    raise FileError(f"the elimination games contradict each other: {error}")

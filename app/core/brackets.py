"""Top cut brackets as data: double elimination (top 3, 4, 8, 16) and single elimination (top 2, 3, 4, 8, 16).

A bracket is a fixed layout of games whose two slots are fed by a seed, the winner of an earlier game or the
loser of an earlier game, plus the reported results. Its whole state is (kind, seeds, results), so the web app
persists only the results and rebuilds the bracket with ``Bracket.from_results``.

Game numbers and rounds of the double elimination layouts are Cobra's (so exports and TOs' habits match);
Cobra's top 3 is not double elimination, so ours is: 2v3, the winner meets seed 1 (who had a bye), the two
losers meet in the lower final, then the grand final. A grand-final reset game exists only when the player from
the lower bracket wins the first final. Single elimination top 3 is Cobra's: 2v3, the winner meets seed 1; top 2
is a final.

A cut that no layout describes (Cobra re-seeds single elimination after each round, so an upset changes who meets
whom; other tools have layouts of their own) is a PlayedBracket (app/core/played_bracket.py): its games exactly as
they were played.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Mapping, Optional, Sequence

from .bracket_games import KINDS, LAYOUTS, SIZES, GameSpec, Slot
from .pairing.formats import Side

PlayerId = Hashable


class BracketError(ValueError):
    """A bracket action that cannot be done; the bracket is unchanged."""


CUT_GUIDANCE = ((220, 16), (37, 8), (16, 4))  # Aesop's Tables: (fewest players, top N); fewer than 16: no cut


def recommended_cut(n_players: int) -> int:
    """The cut size for a field of n players by Aesop's Tables' guidance; 0: no cut."""
    return next((size for fewest, size in CUT_GUIDANCE if n_players >= fewest), 0)


def seed_cut(ranked: Iterable, size: int, dropped: Iterable = (), excluded: Iterable = ()) -> list:
    """The cut's seeds, seed 1 first, from players in swiss rank order (Standing objects or plain ids).

    Dropped players (listed, or Standing.dropped) and excluded ones (declined invitations) are skipped and
    the next player moves up."""
    skip = set(dropped) | set(excluded)
    seeds = []
    for item in ranked:
        player = getattr(item, "player", item)
        if player in skip or getattr(item, "dropped", False):
            continue
        seeds.append(player)
        if len(seeds) == size:
            return seeds
    raise BracketError(f"a top {size} cut needs {size} eligible players; only {len(seeds)} remain")


@dataclass(frozen=True)
class CutGame:
    """One game of a bracket as it stands: who plays (None while unknown), who won, who played Corp."""

    id: int
    round: int
    section: str
    slots: tuple
    player1: Optional[PlayerId]
    player2: Optional[PlayerId]
    seed1: Optional[int]
    seed2: Optional[int]
    winner: Optional[PlayerId] = None
    corp: Optional[PlayerId] = None

    @property
    def players(self) -> tuple:
        return (self.player1, self.player2)

    @property
    def ready(self) -> bool:
        return self.player1 is not None and self.player2 is not None

    @property
    def reported(self) -> bool:
        return self.winner is not None

    @property
    def loser(self) -> Optional[PlayerId]:
        if self.winner is None:
            return None
        return self.player2 if self.winner == self.player1 else self.player1

    @property
    def runner(self) -> Optional[PlayerId]:
        if self.corp is None:
            return None
        return self.player2 if self.corp == self.player1 else self.player1

    @property
    def first_cut_game(self) -> bool:
        """Both players come straight from the swiss: neither has played a cut game yet."""
        return all(s.kind == "seed" for s in self.slots)

    @property
    def higher_seed(self) -> Optional[PlayerId]:
        if not self.ready:
            return None
        assert self.seed1 is not None and self.seed2 is not None  # a player in a game has a seed
        return self.player1 if self.seed1 < self.seed2 else self.player2


class Elimination:
    """What every cut has, however its games came about: seeds, the reported games, standings by elimination."""

    kind: str
    seeds: list
    losses_to_go_out: int
    played = False  # True: a PlayedBracket (app/core/played_bracket.py), whose games no layout generates
    file_ranking: Optional[tuple] = None  # an imported file's own final order of the cut, which stands (rank_as)

    def _seeded(self, kind: str, seeds: Sequence[PlayerId]) -> None:
        seeds = list(seeds)
        if kind not in KINDS:
            raise BracketError(f"unknown bracket kind {kind!r}; choose one of {', '.join(KINDS)}")
        if len(set(seeds)) != len(seeds):
            raise BracketError("a player is seeded twice")
        self.kind = kind
        self.seeds = seeds
        self._seed_no = {p: i for i, p in enumerate(seeds, 1)}
        self.losses_to_go_out = 2 if kind == "double" else 1

    @property
    def games(self) -> list[CutGame]:
        raise NotImplementedError

    def seed_of(self, player: PlayerId) -> int:
        return self._seed_no[player]

    def ready_games(self) -> list[CutGame]:
        return [g for g in self.games if g.ready and not g.reported]

    def out_rounds(self) -> dict:
        """{player: the cut round they went out in} of the players who are out."""
        out_round: dict[PlayerId, int] = {}
        losses = {p: 0 for p in self.seeds}
        for g in self.games:
            if g.reported:
                losses[g.loser] += 1
                if losses[g.loser] == self.losses_to_go_out:
                    out_round[g.loser] = g.round
        return out_round

    def final_standings(self) -> list[PlayerId]:
        """The cut's final order: the file's (rank_as) for an imported cut whose file ranked it otherwise, else
        the games' (games_standings)."""
        return list(self.file_ranking) if self.file_ranking else self.games_standings()

    def games_standings(self) -> list[PlayerId]:
        """Cut players by the round they went out (later is better; still in is best), then seed.

        Complete bracket: the champion first. Mid-bracket, the players still in lead, by seed."""
        out_round = self.out_rounds()
        return sorted(self.seeds, key=lambda p: (*self._how_far(p, out_round), self._seed_no[p]))

    def _how_far(self, player: PlayerId, out_round: dict) -> tuple:
        """Smaller is further: still in before out, out later before out earlier."""
        return (player in out_round, -out_round.get(player, 0))

    def champion(self) -> Optional[PlayerId]:
        """The winner of a complete cut: the file's first for a cut ranked by its file, else the games'."""
        if self.file_ranking:
            return self.file_ranking[0] if self.is_complete() else None
        return self.games_champion()

    def games_champion(self) -> Optional[PlayerId]:
        raise NotImplementedError

    def is_complete(self) -> bool:
        raise NotImplementedError

    def rank_as(self, order: Sequence[PlayerId]) -> None:
        """Rank the cut as an imported file ranked it, whatever its games say: a file that contradicts itself is
        imported as it says, and the file's ranking stands (docs/domain.md 9). `order` names each seed once."""
        order = tuple(order)
        if len(order) != len(self.seeds) or set(order) != set(self.seeds):
            raise BracketError("a cut's ranking names every player of the cut once")
        self.file_ranking = None if list(order) == self.games_standings() else order

    def ranking_contradictions(self, order: Sequence[PlayerId]) -> list[tuple]:
        """(above, below) pairs of a ranking that puts a player above one who went further in the games (out in a
        later round, or still in): what makes a file's ranking contradict its own games. Players out in the
        same round may come in any order."""
        out_round = self.out_rounds()
        far = [self._how_far(p, out_round) for p in order]
        return [(order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order))
                if far[i] > far[j]]

    def cut_side_counts(self) -> tuple[dict, dict]:
        """Corp and Runner games each player has played in the cut (games with a recorded Corp)."""
        corp: dict = {}
        runner: dict = {}
        for g in self.games:
            if g.reported and g.corp is not None:
                corp[g.corp] = corp.get(g.corp, 0) + 1
                runner[g.runner] = runner.get(g.runner, 0) + 1
        return corp, runner

    def _check(self, game: CutGame, winner: PlayerId, corp: Optional[PlayerId]) -> None:
        if not game.ready:
            raise BracketError(f"game {game.id} has no players yet: {game.slots[0].label} v {game.slots[1].label}")
        if winner not in game.players:
            raise BracketError(f"{winner} does not play in game {game.id}")
        if corp is not None and corp not in game.players:
            raise BracketError(f"{corp} does not play in game {game.id}, so cannot be its Corp")


class Bracket(Elimination):
    """A double or single elimination bracket: layout + seeds + reported results."""

    def __init__(self, kind: str, seeds: Sequence[PlayerId]):
        self._seeded(kind, seeds)
        if (kind, len(self.seeds)) not in LAYOUTS:
            sizes = ", ".join(map(str, SIZES[kind]))
            raise BracketError(f"a {kind} elimination cut has {sizes} players, not {len(self.seeds)}")
        self._specs = {g.id: g for g in LAYOUTS[kind, len(self.seeds)]}
        self._order = sorted(self._specs.values(), key=lambda g: (g.round, g.id))
        self._feeds: dict[int, list[int]] = {g: [] for g in self._specs}
        for g in self._order:
            for s in g.slots:
                if s.kind != "seed" and g.id not in self._feeds[s.ref]:  # a final takes winner and loser
                    self._feeds[s.ref].append(g.id)
        # game id -> (winner, loser, corp); a stored loser stays right because a result whose dependents
        # are reported cannot change
        self._results: dict[int, tuple] = {}

    # ---- reading -------------------------------------------------------------------------------------------

    def _player(self, slot: Slot) -> Optional[PlayerId]:
        if slot.kind == "seed":
            return self.seeds[slot.ref - 1]
        result = self._results.get(slot.ref)
        if result is None:
            return None
        return result[0] if slot.kind == "winner" else result[1]

    def _view(self, spec: GameSpec) -> CutGame:
        p1, p2 = (self._player(s) for s in spec.slots)
        winner, _, corp = self._results.get(spec.id, (None, None, None))
        return CutGame(
            id=spec.id, round=spec.round, section=spec.section, slots=spec.slots, player1=p1, player2=p2,
            seed1=self._seed_no.get(p1), seed2=self._seed_no.get(p2), winner=winner, corp=corp,
        )

    def _exists(self, spec: GameSpec) -> bool:
        if spec.section != "reset":
            return True
        final = self._specs[spec.slots[0].ref]
        result = self._results.get(final.id)
        # player2 of the final came up the lower bracket
        return result is not None and result[0] == self._player(final.slots[1])

    def game(self, game_id: int) -> CutGame:
        spec = self._specs.get(game_id)
        if spec is None or not self._exists(spec):
            raise BracketError(f"there is no game {game_id} in this bracket")
        return self._view(spec)

    @property
    def games(self) -> list[CutGame]:
        """The games that exist now (the reset only once it is needed), in round order."""
        return [self._view(g) for g in self._order if self._exists(g)]

    def dependents(self, game_id: int) -> list[int]:
        """Games that take this game's winner or loser (and exist)."""
        return [g for g in self._feeds[game_id] if self._exists(self._specs[g])]

    def is_complete(self) -> bool:
        return all(g.reported for g in self.games)

    def games_champion(self) -> Optional[PlayerId]:
        return self.games[-1].winner if self.is_complete() else None

    def results(self) -> list[tuple]:
        """(game id, winner, corp) of every reported game, in round order: all the state the app persists."""
        return [(g.id, self._results[g.id][0], self._results[g.id][2]) for g in self._order
                if g.id in self._results]

    # ---- changing ------------------------------------------------------------------------------------------

    def report(self, game_id: int, winner: PlayerId, corp: Optional[PlayerId] = None) -> CutGame:
        game = self.game(game_id)
        if game.reported:
            raise BracketError(f"game {game_id} is already reported; correct it instead")
        self._check(game, winner, corp)
        self._store(game, winner, corp)
        return self.game(game_id)

    def _store(self, game: CutGame, winner: PlayerId, corp: Optional[PlayerId]) -> None:
        loser = game.player2 if winner == game.player1 else game.player1
        self._results[game.id] = (winner, loser, corp)

    def correct(self, game_id: int, winner: PlayerId, corp: Optional[PlayerId] = None) -> CutGame:
        """Change a reported result, only while no game that depends on it has been reported.

        The Corp alone may be corrected at any time: it does not change who plays whom."""
        game = self.game(game_id)
        if not game.reported:
            raise BracketError(f"game {game_id} has not been reported yet")
        self._check(game, winner, corp)
        if winner != game.winner:
            blocking = [g for g in self.dependents(game_id) if g in self._results]
            if blocking:
                names = ", ".join(f"game {g}" for g in blocking)
                raise BracketError(f"game {game_id} cannot be corrected: {names} already reported")
        self._store(game, winner, corp)
        return self.game(game_id)

    @classmethod
    def from_results(cls, kind: str, seeds: Sequence[PlayerId], results: Iterable[Sequence]) -> "Bracket":
        """Rebuild a bracket from its persisted results: (game id, winner) or (game id, winner, corp) items."""
        bracket = cls(kind, seeds)
        items = sorted(results, key=lambda r: (bracket._specs[r[0]].round, r[0]) if r[0] in bracket._specs
                       else (0, r[0]))
        for item in items:
            game_id, winner, *rest = item
            bracket.report(game_id, winner, rest[0] if rest else None)
        return bracket


def cut_tables(games: Iterable[CutGame]) -> dict[int, int]:
    """Each cut game's table: the games of one cut round (played at the same time) take tables 1, 2, ... in game
    order, so a top 8's final is at table 1, not table 14 (its game number)."""
    tables: dict[int, int] = {}
    used: dict[int, int] = {}
    for game in sorted(games, key=lambda g: (g.round, g.id)):
        used[game.round] = used.get(game.round, 0) + 1
        tables[game.id] = used[game.round]
    return tables


def cut_sides(
    game: CutGame,
    corp_counts: Mapping[PlayerId, int],
    runner_counts: Mapping[PlayerId, int],
    chosen_by_higher_seed: Optional[Side] = None,
) -> Optional[tuple]:
    """(corp, runner) of a single-sided cut game, or None while the higher seed still has to choose.

    In a game where neither player has played in the cut yet, the higher seed chooses (the TO records it as
    ``chosen_by_higher_seed``, the side that seed plays). Otherwise the player who has played Corp more often
    relative to Runner (counts from swiss and cut together) runs; equal -> the higher seed chooses."""
    if not game.ready:
        raise BracketError(f"game {game.id} has no players yet")
    high = game.higher_seed
    low = game.player2 if high == game.player1 else game.player1
    if not game.first_cut_game:
        bias = {p: corp_counts.get(p, 0) - runner_counts.get(p, 0) for p in (high, low)}
        if bias[high] != bias[low]:
            runner = high if bias[high] > bias[low] else low
            return (low if runner == high else high, runner)
    if chosen_by_higher_seed is None:
        return None
    return (high, low) if Side(chosen_by_higher_seed) is Side.CORP else (low, high)

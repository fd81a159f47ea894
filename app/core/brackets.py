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
whom; other tools have layouts of their own) is a PlayedBracket: its games exactly as they were played.
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
        return self.player1 if self.seed1 < self.seed2 else self.player2


class _Elimination:
    """What every cut has, however its games came about: seeds, the reported games, standings by elimination."""

    kind: str
    seeds: list
    losses_to_go_out: int
    played = False  # True: a PlayedBracket, whose games no layout generates

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
        """Cut players by the round they went out (later is better; still in is best), then seed.

        Complete bracket: the champion first. Mid-bracket, the players still in lead, by seed."""
        out_round = self.out_rounds()
        return sorted(self.seeds, key=lambda p: (p in out_round, -out_round.get(p, 0), self._seed_no[p]))

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


class Bracket(_Elimination):
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

    def champion(self) -> Optional[PlayerId]:
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


@dataclass(frozen=True)
class PlayedGame:
    """A cut game as it was played: who met whom in which cut round; the winner and Corp once known."""

    id: int
    round: int
    player1: PlayerId
    player2: PlayerId
    winner: Optional[PlayerId] = None
    corp: Optional[PlayerId] = None


class PlayedBracket(_Elimination):
    """A cut kept as its games exactly as played, for cuts no layout here describes (an imported Cobra single
    elimination re-seeds after every round, so one upset changes who meets whom).

    No layout says who plays next, so games are never added; a game with no result yet can be reported, and a
    result corrected while neither player has a later game. The games must make sense as an elimination: every
    player seeded, nobody twice in a round, nobody playing after going out or before their last result."""

    played = True

    def __init__(self, kind: str, seeds: Sequence[PlayerId], games: Iterable):
        self._seeded(kind, seeds)
        if len(self.seeds) < 2:
            raise BracketError("a cut needs at least 2 players")
        self._games: dict[int, PlayedGame] = {}
        for g in games:
            g = g if isinstance(g, PlayedGame) else PlayedGame(*g)
            if g.id in self._games:
                raise BracketError(f"game {g.id} appears twice")
            self._games[g.id] = g
        self._order = sorted(self._games.values(), key=lambda g: (g.round, g.id))
        for g in self._order:
            self._check_game(g)
        self._walk()

    def _check_game(self, g: PlayedGame) -> None:
        for p in (g.player1, g.player2):
            if p not in self._seed_no:
                raise BracketError(f"game {g.id} names {p}, who is not in the cut")
        if g.player1 == g.player2:
            raise BracketError(f"game {g.id} pairs {g.player1} with themselves")
        if g.round < 1:
            raise BracketError(f"game {g.id} has no cut round")
        if g.winner is not None and g.winner not in (g.player1, g.player2):
            raise BracketError(f"the winner of game {g.id}, {g.winner}, does not play in it")
        if g.corp is not None and g.corp not in (g.player1, g.player2):
            raise BracketError(f"{g.corp} does not play in game {g.id}, so cannot be its Corp")

    def _walk(self) -> None:
        """Check the games in round order and work out each game's slots and section; BracketError on the
        first game that cannot have happened."""
        losses = {p: 0 for p in self.seeds}
        last: dict = {}  # player -> their latest game so far
        in_round: dict = {}  # round -> players seen
        self._views: dict[int, CutGame] = {}
        previous_final = None
        alive = len(self.seeds)
        for g in self._order:
            seen = in_round.setdefault(g.round, set())
            slots = []
            for p in (g.player1, g.player2):
                if p in seen:
                    raise BracketError(f"{p} plays twice in cut round {g.round}")
                seen.add(p)
                if losses[p] >= self.losses_to_go_out:
                    raise BracketError(f"{p} plays game {g.id} after going out of the cut")
                before = last.get(p)
                if before is not None and before.winner is None:
                    raise BracketError(f"{p} plays game {g.id} before game {before.id} has a result")
                if before is not None and before.round >= g.round:
                    raise BracketError(f"{p} plays game {before.id} and game {g.id} in cut round {g.round}")
                slots.append(Slot("seed", self._seed_no[p]) if before is None
                             else Slot("winner" if before.winner == p else "loser", before.id))
            if alive == 2:
                section = "reset" if previous_final is not None else "final"
                previous_final = g
            elif losses[g.player1] or losses[g.player2]:
                section = "lower"
            else:
                section = "upper"
            self._views[g.id] = CutGame(
                id=g.id, round=g.round, section=section, slots=tuple(slots), player1=g.player1,
                player2=g.player2, seed1=self._seed_no[g.player1], seed2=self._seed_no[g.player2],
                winner=g.winner, corp=g.corp if g.winner is not None else None)
            if g.winner is not None:
                loser = g.player2 if g.winner == g.player1 else g.player1
                losses[loser] += 1
                alive -= losses[loser] == self.losses_to_go_out
            last[g.player1] = last[g.player2] = g

    # ---- reading -------------------------------------------------------------------------------------------

    @property
    def games(self) -> list[CutGame]:
        return [self._views[g.id] for g in self._order]

    def game(self, game_id: int) -> CutGame:
        if game_id not in self._views:
            raise BracketError(f"there is no game {game_id} in this cut")
        return self._views[game_id]

    def dependents(self, game_id: int) -> list[int]:
        """Later games of either player: a changed result would change whether they could be played."""
        game = self.game(game_id)
        return [g.id for g in self._order if g.round > game.round and set(game.players) & {g.player1, g.player2}]

    def survivors(self) -> list[PlayerId]:
        out = self.out_rounds()
        return [p for p in self.seeds if p not in out]

    def is_complete(self) -> bool:
        return all(g.reported for g in self.games) and len(self.survivors()) == 1

    def champion(self) -> Optional[PlayerId]:
        return self.survivors()[0] if self.is_complete() else None

    def results(self) -> list[tuple]:
        """(game id, winner, corp) of every reported game, in round order."""
        return [(g.id, g.winner, g.corp) for g in self._order if g.winner is not None]

    # ---- changing ------------------------------------------------------------------------------------------

    def _replace(self, game_id: int, winner: PlayerId, corp: Optional[PlayerId]) -> CutGame:
        games = dict(self._games)
        old = games[game_id]
        games[game_id] = PlayedGame(old.id, old.round, old.player1, old.player2, winner, corp)
        checked = PlayedBracket(self.kind, self.seeds, games.values())  # the whole cut still adds up
        self._games, self._order, self._views = checked._games, checked._order, checked._views
        return self.game(game_id)

    def report(self, game_id: int, winner: PlayerId, corp: Optional[PlayerId] = None) -> CutGame:
        game = self.game(game_id)
        if game.reported:
            raise BracketError(f"game {game_id} is already reported; correct it instead")
        self._check(game, winner, corp)
        return self._replace(game_id, winner, corp)

    def correct(self, game_id: int, winner: PlayerId, corp: Optional[PlayerId] = None) -> CutGame:
        game = self.game(game_id)
        if not game.reported:
            raise BracketError(f"game {game_id} has not been reported yet")
        self._check(game, winner, corp)
        if winner != game.winner:
            later = self.dependents(game_id)
            if later:
                names = ", ".join(f"game {g}" for g in later)
                raise BracketError(f"game {game_id} cannot be corrected: {names} already played")
        return self._replace(game_id, winner, corp)


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

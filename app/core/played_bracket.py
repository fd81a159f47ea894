"""A cut kept as its games exactly as they were played, for cuts no layout of app/core/bracket_games.py describes
(an imported Cobra single elimination re-seeds after every round, so one upset changes who meets whom)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from .bracket_games import Slot
from .brackets import BracketError, CutGame, Elimination, PlayerId


@dataclass(frozen=True)
class PlayedGame:
    """A cut game as it was played: who met whom in which cut round; the winner and Corp once known."""

    id: int
    round: int
    player1: PlayerId
    player2: PlayerId
    winner: Optional[PlayerId] = None
    corp: Optional[PlayerId] = None


class PlayedBracket(Elimination):
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

    def games_champion(self) -> Optional[PlayerId]:
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

"""Random events for tests and benchmarks: pair with the engine, draw results at random, repeat."""
from __future__ import annotations

import random
from typing import Any

from .api import pair_round
from .formats import Format, Side
from .types import Entrant, Game


def random_result(fmt: Format, rnd: random.Random, tie_rate: float = 0.05) -> tuple[int, int]:
    """Points of (player, opponent) for one round's result."""
    s = fmt.scoring
    if fmt.both_sides:
        games = [rnd.choice(((s.win, s.loss), (s.loss, s.win))) if rnd.random() >= tie_rate else (s.tie, s.tie)
                 for _ in range(s.games_per_round)]
        return sum(g[0] for g in games), sum(g[1] for g in games)
    if rnd.random() < tie_rate:
        return s.tie, s.tie
    return (s.win, s.loss) if rnd.random() < 0.5 else (s.loss, s.win)


def play_rounds(fmt: Format, entrants: list, rounds: int, seed=0, games=None, **options) -> list[Game]:
    """The games of `rounds` more rounds paired by the engine, with random results."""
    fmt = Format(fmt)
    games = list(games or [])
    rnd = random.Random(f"results:{seed}")
    for _ in range(rounds):
        plan = pair_round(fmt, entrants, games, seed=seed, **options)
        for p in plan.pairings:
            if p.is_bye:
                games.append(Game(plan.round, p.player, None, fmt.scoring.bye))
                continue
            a, b = random_result(fmt, rnd)
            side = Side.CORP if fmt.sided_tables else None
            match: dict[str, Any] = {}
            if fmt.counts_games:  # a best-of-three: 2-0 / 0-2, or a 1-1 draw
                match = dict(player_games=2 * (a > b) + (a == b), opponent_games=2 * (b > a) + (a == b))
            games.append(Game(plan.round, p.player, p.opponent, a, b, player_side=side, **match))
    return games


def field(n: int) -> list[Entrant]:
    return [Entrant(i, f"Player {i}") for i in range(1, n + 1)]

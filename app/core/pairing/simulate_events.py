"""Simulated swiss events played round by round: strengths, seeded results, drops, and many events on a pool.

Every number is reproducible: an event's strengths, results and drops come from its own seed, and a game's
result depends only on (event, round, the two players, their sides), so cost models compared on the same seeds
play the same players and, wherever their pairings agree, the same results.
"""
from __future__ import annotations

import multiprocessing
import random
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional

from .api import pair_round
from .formats import DEFAULT_FORMAT, Format, Side
from .simulate_metrics import EventStats, measure
from .types import Entrant, Game

COST_MODELS = ("sass", "deployed", "cobra", "article")


@dataclass(frozen=True)
class Config:
    """One kind of simulated event."""

    players: int = 28
    rounds: int = 6
    fmt: Format = DEFAULT_FORMAT
    cost_model: str = "sass"
    score_factor: Optional[Fraction] = None  # None: the engine's default for the cost model
    tie_rate: float = 0.02  # chance a game is tied
    rating_sd: float = 200.0  # Elo spread of player strengths
    corp_advantage: float = 0.0  # Elo points the Corp gains (single-sided); negative favours the Runner
    drop_rate: float = 0.0  # chance an active player drops after a round


def _win_probability(rating: float, other: float) -> float:
    return 1 / (1 + 10 ** ((other - rating) / 400))


def _play(config: Config, event_seed: int, rnd: int, player, opponent, ratings: dict) -> Game:
    """One result. Its dice depend only on the event, round, players and sides, not on the rest of the round."""
    scoring = config.fmt.scoring
    rng = random.Random(f"{event_seed}:{rnd}:{player}:{opponent}")
    if config.fmt.sided_tables:  # `player` is the Corp
        p_win = _win_probability(ratings[player] + config.corp_advantage, ratings[opponent])
        if rng.random() < config.tie_rate:
            return Game(rnd, player, opponent, scoring.tie, scoring.tie, player_side=Side.CORP)
        won = rng.random() < p_win
        return Game(rnd, player, opponent, scoring.win if won else scoring.loss,
                    scoring.loss if won else scoring.win, player_side=Side.CORP)
    p_win = _win_probability(ratings[player], ratings[opponent])
    results = []  # per game: 1 player won, 0 tie, -1 opponent won
    for _ in range(2 if config.fmt.both_sides else 3):
        results.append(0 if rng.random() < config.tie_rate else (1 if rng.random() < p_win else -1))
    if config.fmt.both_sides:
        results = results[:2]
        value = {1: (scoring.win, scoring.loss), 0: (scoring.tie, scoring.tie), -1: (scoring.loss, scoring.win)}
        return Game(rnd, player, opponent, sum(value[r][0] for r in results), sum(value[r][1] for r in results))
    # Plain swiss: best of three, stopping when someone has two wins; a drawn match if still level.
    wins = [0, 0, 0]  # player, opponent, draws
    for r in results:
        if max(wins[:2]) == 2:
            break
        wins[{1: 0, -1: 1, 0: 2}[r]] += 1
    outcome = (wins[0] > wins[1]) - (wins[0] < wins[1])
    points = {1: (scoring.win, scoring.loss), 0: (scoring.tie, scoring.tie), -1: (scoring.loss, scoring.win)}[outcome]
    return Game(rnd, player, opponent, *points, player_games=wins[0], opponent_games=wins[1], drawn_games=wins[2])


def play_event(config: Config, event_seed: int) -> tuple[list[Game], list, EventStats]:
    """Play one event to the end; returns its games, its finishers and their stats."""
    strengths = random.Random(f"{event_seed}:strengths")
    ratings = {p: strengths.gauss(1500, config.rating_sd) for p in range(1, config.players + 1)}
    active = list(ratings)
    dropped: list = []
    games: list[Game] = []
    seconds = []
    kwargs: dict[str, Any] = {"cost_model": config.cost_model}
    if config.score_factor is not None:
        kwargs["score_factor"] = config.score_factor
    for rnd in range(1, config.rounds + 1):
        entrants = [Entrant(p) for p in active] + [Entrant(p, dropped=True) for p in dropped]
        start = time.perf_counter()
        plan = pair_round(config.fmt, entrants, games, round_number=rnd, seed=event_seed * 1000 + rnd, **kwargs)
        seconds.append(time.perf_counter() - start)
        for p in plan.pairings:
            if p.opponent is None:
                games.append(Game(rnd, p.player, None, config.fmt.scoring.bye))
            else:
                games.append(_play(config, event_seed, rnd, p.player, p.opponent, ratings))
        if rnd < config.rounds and config.drop_rate:
            leaving = [p for p in active if random.Random(f"{event_seed}:{rnd}:drop:{p}").random() < config.drop_rate]
            if len(active) - len(leaving) >= 2:
                dropped += leaving
                active = [p for p in active if p not in leaving]
    stats = measure(config.fmt, games, active)
    stats.round_seconds = seconds
    stats.dropped = len(dropped)
    return games, active, stats


def _event_stats(job: tuple[Config, int]) -> EventStats:
    return play_event(*job)[2]


def _warm_up() -> None:
    """Pair a tiny round once so that the engine's first-use imports are not timed as a round."""
    for fmt in Format:
        pair_round(fmt, [Entrant(1), Entrant(2), Entrant(3)], [], round_number=1)


def run_many(jobs: list[tuple[Config, int]], processes: int) -> list[EventStats]:
    """Stats of each (config, seed) job, in order; spread over `processes` worker processes."""
    if processes <= 1 or len(jobs) < 2:
        _warm_up()
        return [_event_stats(job) for job in jobs]
    with multiprocessing.get_context("fork").Pool(processes, initializer=_warm_up) as pool:
        return pool.map(_event_stats, jobs, chunksize=max(1, len(jobs) // (processes * 8)))


def event_seeds(events: int, seed: int) -> list[int]:
    return [seed + i for i in range(events)]

"""Histories of random legal pairings: what an imported hand-paired event (or many rounds of hand edits) looks like.

Swiss histories have structure the engine leans on (opponents close in points, sides kept even). These have none:
every round pairs the active players at random, sides by a coin, so points, biases and earlier opponents are
scattered across the field. They are legal all the same (no third meeting, a rematch on reversed sides, no second
bye while somebody has fewer), which makes them the hard inputs the engine's bound is stated for
(docs/engine.md, "A bound on every round"). Used by the benchmark (bench/bench_single.py) and the tests.
"""
from __future__ import annotations

import random
from collections import defaultdict

from .formats import Format, Side
from .single_sided import MAX_MEETINGS, worsens_bias
from .types import Entrant, Game

TIE_RATE = 0.02
TRIES = 20  # fresh shuffles of a round before settling for a rematch on reversed sides


def random_history(fmt: Format, n: int, rounds: int, seed=0, drop: float = 0.0) -> tuple[list[Entrant], list[Game]]:
    """`n` entrants and `rounds` rounds of random legal pairings with random results; after each round every
    active player drops with probability `drop` (so fields turn odd and byes go round). Stops early if the
    field can no longer be paired legally (tiny fields only)."""
    fmt = Format(fmt)
    rnd = random.Random(f"random-pairings:{seed}")
    entrants = {i: Entrant(i, f"P{i}") for i in range(n)}
    met: dict = defaultdict(list)  # player -> [(opponent, side played)]
    byes: dict = defaultdict(int)
    games: list[Game] = []
    for r in range(1, rounds + 1):
        active = [i for i, e in entrants.items() if not e.dropped]
        if len(active) < 2:
            break
        pairs = _pair(fmt, active, met, byes, rnd)
        if pairs is None:
            break
        for a, b in pairs:
            games.append(_game(fmt, r, a, b, met, byes, rnd))
        if drop:
            for i in active:
                if rnd.random() < drop:
                    entrants[i] = Entrant(i, entrants[i].name, dropped=True)
    return list(entrants.values()), games


def _pair(fmt: Format, active: list, met: dict, byes: dict, rnd: random.Random):
    """A random legal pairing of `active` ((a, None) is a bye): rematch-free if a few shuffles find one."""
    fewest = min(byes[i] for i in active)
    for attempt in range(TRIES + 1):
        order = list(active)
        rnd.shuffle(order)
        pairs = []
        if len(order) % 2:  # the bye: somebody with the fewest byes
            taker = next(i for i in order if byes[i] == fewest)
            order.remove(taker)
            pairs.append((taker, None))
        left = order
        while left:
            a = left.pop()
            pick = next((k for k in range(len(left) - 1, -1, -1) if not _met(met, a, left[k])), None)
            if pick is None and attempt == TRIES and fmt.sided_tables:
                pick = next((k for k in range(len(left) - 1, -1, -1) if _rematch_ok(met, a, left[k])), None)
            if pick is None:
                break
            pairs.append((a, left.pop(pick)))
        else:
            return pairs
    return None


def _met(met: dict, a, b) -> int:
    return sum(1 for o, _ in met[a] if o == b)


def _bias(met: dict, a) -> int:
    return sum(1 if side is Side.CORP else -1 for _, side in met[a])


def _rematch_ok(met: dict, a, b) -> bool:
    """A second meeting on reversed sides that pushes no uneven bias further from even."""
    earlier = [side for o, side in met[a] if o == b]
    if len(earlier) >= MAX_MEETINGS:
        return False
    corp, runner = (b, a) if earlier[-1] is Side.CORP else (a, b)
    return not worsens_bias(_bias(met, corp), 1) and not worsens_bias(_bias(met, runner), -1)


def _game(fmt: Format, r: int, a, b, met: dict, byes: dict, rnd: random.Random) -> Game:
    s = fmt.scoring
    if b is None:
        byes[a] += 1
        return Game(r, a, None, s.bye)
    if fmt.both_sides:
        pts = [_result(s, rnd) for _ in range(s.games_per_round)]
        met[a].append((b, None))
        met[b].append((a, None))
        return Game(r, a, b, sum(p for p, _ in pts), sum(q for _, q in pts))
    earlier = [side for o, side in met[a] if o == b]
    if earlier:  # a rematch reverses the sides
        side = earlier[-1].other
    else:
        side = Side.CORP if rnd.random() < 0.5 else Side.RUNNER
    met[a].append((b, side))
    met[b].append((a, side.other))
    pa, pb = _result(s, rnd)
    return Game(r, a, b, pa, pb, player_side=side)


def _result(s, rnd: random.Random) -> tuple[int, int]:
    if rnd.random() < TIE_RATE:
        return s.tie, s.tie
    return (s.win, s.loss) if rnd.random() < 0.5 else (s.loss, s.win)

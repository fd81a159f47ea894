"""Pair costs of single- and double-sided swiss, exact (ints and Fractions), one named model per formula.

A cost depends only on the two players' classes (points, side bias) and the orientation (who plays Corp),
plus the pair's history (a rematch penalty; the forced sides of a rematch). Models:

- "sass" (default): score_factor x T(SD) + side cost + a rematch penalty of score_factor x T(REMATCH_WIN_STEPS). SD =
  points difference / points of a
  win, T(x) = x(x+1)/2. The side cost of an orientation charges every player whose bias would stand at
  |bias| >= 2 after the game SIDE_BASE^(|bias|-1) (8, 64, ...), so nobody reaches 2 when a cheaper pairing
  exists. A bye keeps the taker's bias and is priced like a game against a player one win below the lowest.
- "article": the published SASS formula (Feb 2021): side cost 8^min(|A|,|B|) when the biases share a sign.
- "deployed": the SASS web app's code: score (d+1)d/6, side 8^post if post >= pre, bye node 3 wins below 0.
- "cobra": Cobra/Aesop's Tables: d^2 + 5 for a rematch + 50^k; pairs costing >= 100 are not allowed.
Hard rules (rematch limits, byes) are the engine's, the same for every model.
"""
from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple, Optional

# The TO's knob: weight of one score-group step against side balance. Chosen with the simulator (docs/benchmarks.md,
# "Quality"): at 1.5 nobody went home with uneven sides in 4,000 simulated events (12/5, 28/6, 60/7, 150/9);
# from 2.5 on some did (1 % of 28-player events at 2.5, 18 % at 4), and mismatched games barely move below 2.
DEFAULT_SCORE_FACTOR = Fraction(3, 2)
SIDE_BASE = 8  # "sass": reaching |bias| 2 costs 8, |bias| 3 costs 64, ...
# "sass": a rematch costs as much as a pair-down across two wins (score factor x T(2)), so rematches stay rare
# (<= 0.02 per simulated event) while sides still come first.
REMATCH_WIN_STEPS = 2
DEPLOYED_BYE_WINS = 3  # "deployed": the bye node sits this many wins below zero points
COBRA_SIDE_BASE = 50
COBRA_REMATCH = 5
COBRA_DROP = 100  # "cobra": a pair that costs this much or more is not paired
MODELS = ("sass", "article", "deployed", "cobra")


class Standing(NamedTuple):
    """What a cost sees of a player: points, side bias (Corp - Runner games), may take the bye."""

    points: int
    bias: int = 0
    bye_ok: bool = True


def triangular(x: Fraction) -> Fraction:
    return x * (x + 1) / 2


def uneven(bias: int) -> bool:
    """Sides are uneven from |bias| 2 on: what the side cost avoids and a hand-edited round is warned about."""
    return abs(bias) >= 2


def _side_excess(bias: int) -> int:
    """'sass' cost of standing at `bias` after a round: 0 within +-1, then SIDE_BASE^(|bias|-1)."""
    return SIDE_BASE ** (abs(bias) - 1) if uneven(bias) else 0


class CostModel:
    """One named formula for a format. `unit` is the points of one round won (formats.Scoring.round_points)."""

    def __init__(self, name: str, unit: int, score_factor=DEFAULT_SCORE_FACTOR, sided: bool = True):
        if name not in MODELS:
            raise ValueError(f"unknown cost model {name!r}; choose from {', '.join(MODELS)}")
        score_factor = Fraction(score_factor)
        if score_factor < 0:
            raise ValueError("the score factor must be >= 0")
        self.name, self.unit, self.score_factor, self.sided = name, unit, score_factor, sided
        # Cobra leaves expensive pairs out of the graph; a hard rule (no second bye) outranks that habit,
        # so the engine switches it off when the field cannot be paired otherwise.
        self.drops_expensive = name == "cobra"
        self._score_memo: dict = {}
        self._side_memo: dict = {}
        self._best_side_memo: dict = {}

    @property
    def scale(self) -> int:
        """Multiplier turning every cost of this model into an int (for the solvers)."""
        return 2 * self.unit * self.unit * self.score_factor.denominator

    def score(self, a: int, b: int) -> Fraction:
        d = abs(a - b)
        if self.name == "cobra":
            return Fraction(d * d)
        if self.name == "deployed":
            return self.score_factor * Fraction(d * (d + 1), 2 * self.unit)
        return self.score_factor * triangular(Fraction(d, self.unit))

    def side(self, corp: int, runner: int) -> Fraction:
        """Side cost of `corp` (bias) playing Corp against `runner` (bias) playing Runner."""
        if not self.sided:
            return Fraction(0)
        if self.name == "sass":
            return Fraction(_side_excess(corp + 1) + _side_excess(runner - 1))
        if self.name == "article":
            return Fraction(8 ** min(abs(corp), abs(runner))) if corp * runner > 0 else Fraction(0)
        if self.name == "deployed":
            pre = max(abs(corp), abs(runner))
            post = max(abs(corp + 1), abs(runner - 1))
            return Fraction(8**post) if post >= pre else Fraction(0)
        k = max(corp, 0, -runner)  # cobra: extra Corp games of the Corp, extra Runner games of the Runner
        return Fraction(COBRA_SIDE_BASE**k)

    def oriented(self, corp: Standing, runner: Standing, rematch: bool = False) -> Optional[Fraction]:
        """Cost of this exact game (None: not allowed by the model)."""
        cost = self.oriented_int(corp, runner, rematch)
        return None if cost is None else Fraction(cost, self.scale)

    def pair(self, a: Standing, b: Standing) -> Optional[Fraction]:
        """Cost of the pair on its cheapest orientation (no history)."""
        cost = self.pair_int(a, b)
        return None if cost is None else Fraction(cost, self.scale)

    def oriented_int(self, corp: Standing, runner: Standing, rematch: bool = False) -> Optional[int]:
        """`oriented` x scale, as an int; memoised since the same few scores and biases recur."""
        d = abs(corp.points - runner.points)
        if d not in self._score_memo:
            self._score_memo[d] = self.to_int(self.score(d, 0))
        cost = self._score_memo[d] + self._side_int(corp.bias, runner.bias)
        if rematch:
            cost += self.to_int(self.rematch_penalty)
        if self.drops_expensive and cost >= COBRA_DROP * self.scale:
            return None
        return cost

    def _side_int(self, corp: int, runner: int) -> int:
        sides = (corp, runner)
        if sides not in self._side_memo:
            self._side_memo[sides] = self.to_int(self.side(*sides))
        return self._side_memo[sides]

    def pair_int(self, a: Standing, b: Standing) -> Optional[int]:
        if not self.sided:
            return self.oriented_int(a, b)
        if not self.drops_expensive:  # the cheaper orientation is the cheaper side cost: memoised by biases
            d = abs(a.points - b.points)
            try:
                return self._score_memo[d] + self._best_side_memo[(a.bias, b.bias)]
            except KeyError:
                self._best_side_memo[(a.bias, b.bias)] = min(self._side_int(a.bias, b.bias),
                                                             self._side_int(b.bias, a.bias))
                if d not in self._score_memo:
                    self._score_memo[d] = self.to_int(self.score(d, 0))
                return self._score_memo[d] + self._best_side_memo[(a.bias, b.bias)]
        costs = [c for c in (self.oriented_int(a, b), self.oriented_int(b, a)) if c is not None]
        return min(costs) if costs else None

    @property
    def rematch_penalty(self) -> Fraction:
        if self.name == "sass":
            return self.score_factor * triangular(Fraction(REMATCH_WIN_STEPS))
        return Fraction(COBRA_REMATCH) if self.name == "cobra" else Fraction(0)

    def bye(self, a: Standing, lowest: int) -> Fraction:
        """Cost of `a` taking the bye when the lowest score in the field is `lowest`."""
        if self.name == "cobra":
            return Fraction((a.points + 1) ** 2)
        if self.name == "deployed":
            return self.score(a.points, -DEPLOYED_BYE_WINS * self.unit)
        cost = self.score(a.points, lowest - self.unit)
        if self.name == "sass" and self.sided:
            cost += _side_excess(a.bias)
        return cost

    def to_int(self, cost: Optional[Fraction]) -> Optional[int]:
        if cost is None:
            return None
        scaled = cost * self.scale
        if scaled.denominator != 1:
            raise ArithmeticError(f"cost {cost} is not a multiple of 1/{self.scale}")
        return int(scaled)

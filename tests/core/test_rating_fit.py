"""The joint fit behind seeding by rating: a worked example, the optimum's own equations, and what the priors do."""
from __future__ import annotations

import math
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core import rating_fit as F
from app.core.pairing.formats import Side
from app.core.ratings import Game

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


def _logistic(z):
    return 1 / (1 + math.exp(-z))


def test_worked_example_one_game():
    """Ann beats Ben once, no side, both founders: the posterior's mode has b = -a and a = 1 - logistic(2a) (the
    likelihood's pull against the N(0, 1) prior's), a = 0.33742 by bisection."""
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if 1 - _logistic(2 * mid) > mid else (lo, mid)
    fitted = F.fit([Game("ann", "ben", WIN, period=0)])
    assert abs(fitted["ann"] - lo) < 1e-9 and abs(fitted["ben"] + lo) < 1e-9
    assert round(lo, 5) == 0.33742
    assert fitted.strengths({1: "ann", 2: "ben"}) == {1: 337, 2: -337}
    assert fitted.newcomer == 0.0 and fitted.edge == 0.0  # no newcomers, no sided game: their priors' means


def _posterior_gradient(games, fitted):
    """The log-posterior's gradient written out game by game in plain Python (the model of rating_fit's docstring)."""
    counted = [g for g in games if g.counted]
    founders = {p for g in counted if g.period == counted[0].period for p in (g.first, g.second)}
    grad = {p: 0.0 for g in counted for p in (g.first, g.second)}
    g_m = -fitted.newcomer
    g_h = -fitted.edge
    for g in counted:
        side = 0 if g.first_side is None else (1 if g.first_side is Side.CORP else -1)
        r = float(g.outcome) - _logistic(fitted[g.first] - fitted[g.second] + side * fitted.edge)
        grad[g.first] += r
        grad[g.second] -= r
        g_h += r * side
    for p in grad:
        mean = 0.0 if p in founders else fitted.newcomer
        grad[p] -= fitted[p] - mean
        if p not in founders:
            g_m += fitted[p] - fitted.newcomer
    return [*grad.values(), g_m, g_h]


games_strategy = st.lists(
    st.tuples(st.integers(0, 7), st.integers(0, 7), st.sampled_from([WIN, DRAW, LOSS]),
              st.sampled_from([None, Side.CORP, Side.RUNNER]), st.integers(0, 3), st.booleans()),
    min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(games_strategy)
def test_the_fit_is_the_posterior_mode(rows):
    """Whatever the games (draws, sides, newcomers, intentional draws, self-pairings dropped), the gradient of the
    log-posterior is zero at the fit: it is the maximum a posteriori, not an approximation of it."""
    games = [Game(a, b, o, side, period, intentional) for a, b, o, side, period, intentional in sorted(
        rows, key=lambda r: r[4])]
    fitted = F.fit(games)
    assert all(abs(x) < 1e-7 for x in _posterior_gradient(games, fitted))


@settings(max_examples=30, deadline=None)
@given(games_strategy, st.randoms(use_true_random=False))
def test_the_order_inside_a_period_and_a_warm_start_change_nothing(rows, rng):
    games = [Game(a, b, o, side, period, False) for a, b, o, side, period, _ in sorted(rows, key=lambda r: r[4])]
    shuffled = []
    for period in sorted({g.period for g in games}):
        block = [g for g in games if g.period == period]
        rng.shuffle(block)
        shuffled += block
    one, two = F.fit(games), F.fit(shuffled)
    warm = F.fit(games, start=F.fit(games[: len(games) // 2]))
    keys = {p for g in games for p in (g.first, g.second)}
    for other in (two, warm):
        assert all(abs(one[p] - other[p]) < 1e-9 for p in keys)
        assert abs(one.newcomer - other.newcomer) < 1e-9 and abs(one.edge - other.edge) < 1e-9


def test_byes_and_intentional_draws_are_not_games_of_skill():
    games = [Game("ann", "ben", WIN, Side.CORP, 0), Game("cat", "ann", DRAW, Side.RUNNER, 0)]
    extra = [Game("ann", None, WIN, None, 0), Game("ben", "cat", DRAW, Side.CORP, 0, intentional_draw=True)]
    assert F.fit(games) == F.fit(games + extra)
    assert F.fit(extra) == F.Fit()


def test_newcomers_start_where_newcomers_are_and_an_uncertain_skill_moves_less():
    """A club of 8 founders; 8 newcomers join in period 1 and lose 3 of 4 of their games against founders: their
    learnt mean falls below the founders' (0), and a player never seen starts there. A founder with 8 wins over
    the newcomers is rated above one with 1 win over the same newcomers: fewer games, less movement."""
    rng = random.Random(5)
    founders = [f"f{k}" for k in range(8)]
    newcomers = [f"n{k}" for k in range(8)]
    games = [Game(a, b, WIN if rng.random() < 0.5 else LOSS, None, 0) for a in founders for b in founders if a < b]
    for k, n in enumerate(newcomers):
        for r in range(4):
            games.append(Game(n, founders[(k + r) % 8], WIN if r == 0 else LOSS, Side.CORP if r % 2 else Side.RUNNER,
                              1))
    games += [Game("busy", n, WIN, None, 2) for n in newcomers]
    games += [Game("once", newcomers[0], WIN, None, 2)]
    fitted = F.fit(games)
    assert fitted.newcomer < -0.3
    assert fitted["never seen"] == fitted.newcomer
    assert abs(fitted.strengths({7: "never seen"})[7] - 1000 * fitted.newcomer) <= 0.5
    assert fitted["busy"] > fitted["once"] > fitted.newcomer  # both newcomers (period 2) with wins only


def test_the_corp_edge_is_learnt_from_sided_games():
    """Equal players, the Corp wins 70 % of 200 games: the edge is near log(0.7 / 0.3) = 0.85 (its N(0, 1) prior
    pulls a little), and the players stay near equal."""
    games = [Game(f"p{k % 10}", f"p{(k + 1 + k // 10 % 9) % 10}", WIN if k // 10 % 10 < 7 else LOSS, Side.CORP, 0)
             for k in range(200)]
    fitted = F.fit(games)
    assert 0.7 < fitted.edge < math.log(0.7 / 0.3)
    assert max(fitted.skill.values()) - min(fitted.skill.values()) < 0.2

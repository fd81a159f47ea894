"""Bayesian player ratings from a sequence of games (docs/domain.md 15): a skill estimate with its uncertainty.

Two models, both rating periods at a time (a period is one event): Weng-Lin (the Bradley-Terry variant the
`openskill` package implements) and Glicko-2 (Glickman's algorithm, written here). Which ranks players better was
measured (`bench/bench_ratings.py`, docs/benchmarks.md); the better one is `DEFAULT_MODEL`.

Sides: Netrunner's Corp and Runner do not win equally often. Rather than rating each player twice (per side, with
half the games each: noisier), one skill per player and a shared side advantage: the log-odds of the Corp's score
in every sided game before the period (shrunk towards even by one win and one loss), added to the Corp's skill
inside each game's expected score. Games without a side (double-sided, imported) get no advantage.

A period's games are all scored against the ratings at its start, and every sum is taken with `math.fsum`, so the
order of games inside a period never changes the answer. Byes and intentional draws are not games of skill: they
are skipped.

Churn (a club whose newcomers are weaker than its regulars): a player never seen does not start at the club's mean
but at the newcomers' prior, learnt from the data (empirical Bayes): the mean rating earlier newcomers (players
first seen after the first period) reached after their first period, with NEWCOMER_WEIGHT pseudo-newcomers at the
club's mean (no newcomers yet: the club's mean). And `Ratings.estimate` is not the rating's mean but its posterior
mean under the club's learnt spread of skill (the variance of the rated players' means)
instead of the model's wide starting uncertainty: mu moved back towards where the player started by a weight that
grows with sigma, so an uncertain rating (a newcomer after one evening, a long absence) moves a player less.
`Ratings(model, learnt=False)` keeps the old rules (the club's mean, the rating's mean), for the benchmarks that
compare them. These ratings are the ones the series' pages show; the seeding takes a joint fit of all the games
instead (app/core/rating_fit.py), which ranks a changing club better.
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Hashable, Iterable, Optional, Sequence

from .pairing.formats import Side


class Model(str, enum.Enum):
    WENG_LIN = "weng-lin"
    GLICKO2 = "glicko2"


@dataclass(frozen=True)
class Game:
    """One game in time order. `outcome` is the first player's score: 1, 1/2 or 0. `second` None: a bye.
    `first_side`: the side the first player played (a Side or its value, "corp" / "runner"; None: not sided). `period`:
    the event it belongs to
    (consecutive games with the same period form one rating period; None: the game is a period of its own)."""

    first: Hashable
    second: Optional[Hashable]
    outcome: Fraction
    first_side: Optional[Side] = None
    period: Optional[Hashable] = None
    intentional_draw: bool = False

    @property
    def counted(self) -> bool:
        return self.second is not None and not self.intentional_draw and self.second != self.first


@dataclass(frozen=True)
class Rating:
    """A skill estimate `mu` and its standard deviation `sigma`, in the model's own units."""

    mu: float
    sigma: float
    games: int = 0
    start: Optional[float] = None  # the mean it started from (None: not recorded, the club's mean)

    @property
    def conservative(self) -> float:
        """What the player is very probably at least as good as: mu - 2 sigma (about 98 % sure)."""
        return self.mu - 2 * self.sigma

    @property
    def display(self) -> int:
        return round(self.conservative)


@dataclass(frozen=True)
class Scale:
    mu: float  # a new player's skill: the mean
    sigma: float  # a new player's uncertainty: wide
    drift: float  # how much an absent player's uncertainty grows per period (Weng-Lin's tau)


SCALES = {Model.WENG_LIN: Scale(25.0, 25 / 3, 25 / 300), Model.GLICKO2: Scale(1500.0, 350.0, 0.0)}
GLICKO_Q = 173.7178  # Glicko-2's scale factor (400 / ln 10)
GLICKO_VOLATILITY = 0.06
GLICKO_TAU = 0.5
NEWCOMER_WEIGHT = 4  # pseudo-newcomers at the club's mean in the newcomers' prior (few newcomers: near the mean)


@dataclass(frozen=True)
class Ratings:
    """Every player's rating after some periods, and what the next period needs (an immutable snapshot: keep the
    one before the current event, and an update after one result rates that event's games alone)."""

    model: Model
    ratings: dict = field(default_factory=dict)  # key -> Rating
    volatility: dict = field(default_factory=dict)  # Glicko-2 only: key -> volatility
    corp_score: Fraction = Fraction(0)  # the Corp's points in sided games so far
    sided_games: int = 0
    newcomers: tuple = ()  # the mean each newcomer (first seen after the first period) had after its first period
    learnt: bool = True  # False: the old rules (a newcomer at the club's mean; strengths from the mean alone)

    def __getitem__(self, key) -> Rating:
        return self.ratings.get(key) or self.unrated()

    def club_mean(self) -> float:
        """The mean of the rated players' means (the model's mean before anyone)."""
        if not self.ratings:
            return SCALES[self.model].mu
        return math.fsum(r.mu for r in self.ratings.values()) / len(self.ratings)

    def newcomer_prior(self) -> float:
        """Where a player never seen starts: the mean earlier newcomers reached after their first period, with
        NEWCOMER_WEIGHT pseudo-newcomers at the club's mean (empirical Bayes; none yet, or `learnt` off: the mean)."""
        mean = self.club_mean()
        if not self.learnt or not self.newcomers:
            return mean
        return (math.fsum(self.newcomers) + NEWCOMER_WEIGHT * mean) / (len(self.newcomers) + NEWCOMER_WEIGHT)

    def unrated(self) -> Rating:
        """A player never seen: the newcomers' prior (`newcomer_prior`) with the model's starting uncertainty."""
        return Rating(self.newcomer_prior(), SCALES[self.model].sigma)

    def spread(self) -> float:
        """The club's variance of skill as the ratings see it: the variance of the rated players' means, kept
        between (starting sigma / 20)^2 and the starting variance."""
        s2 = SCALES[self.model].sigma ** 2
        if len(self.ratings) < 2:
            return s2
        mean = self.club_mean()
        var = math.fsum((r.mu - mean) ** 2 for r in self.ratings.values()) / len(self.ratings)
        return min(max(var, s2 / 400), s2)

    def estimate(self, key, spread: Optional[float] = None) -> float:
        """The skill the seeding uses: the rating's mean re-weighed with the club's spread `v` as the prior in
        place of the model's wide start S: start + w (mu - start), w = 1 / (1 + sigma^2 (1/v - 1/S^2)); w is 1 at
        sigma 0 and falls as sigma grows (an uncertain rating moves its player less). `learnt` off: mu."""
        r = self[key]
        if not self.learnt:
            return r.mu
        start = r.start if r.start is not None else self.club_mean()
        v = self.spread() if spread is None else spread
        w = 1 / (1 + r.sigma ** 2 * (1 / v - 1 / SCALES[self.model].sigma ** 2))
        return start + w * (r.mu - start)

    @property
    def side_advantage(self) -> float:
        """The Corp's edge in log-odds, from the sided games so far (one win and one loss added: none -> 0)."""
        share = (self.corp_score + 1) / (self.sided_games + 2)
        return math.log(share / (1 - share))


def rate(games: Iterable[Game], model: Optional[Model] = None, *, start: Optional[Ratings] = None) -> Ratings:
    """Rate `games` (time order) period by period, from `start` (nobody rated if None)."""
    model = Model(model or (start.model if start else DEFAULT_MODEL))
    state = start or Ratings(model)
    if state.model is not model:
        raise ValueError("the start was rated with another model")
    for period in periods(games):
        state = rate_period(state, period)
    return state


def rate_events(events: Iterable[Sequence[Game]], model: Optional[Model] = None, *,
                start: Optional[Ratings] = None) -> list[Ratings]:
    """The ratings after each event in turn (each a list of games; no period spans two events). The last equals
    `rate` of all the games, and `rate_events(events[k:], start=after[k - 1])` equals `after[k:]`: a change in
    event k rates again from its snapshot before, not from the first game."""
    out: list[Ratings] = []
    for games in events:
        start = rate(games, model, start=start)
        out.append(start)
    return out


def periods(games: Iterable[Game]) -> list[list[Game]]:
    """Consecutive games of one period together; a game without a period alone. Uncounted games dropped."""
    out: list[list[Game]] = []
    last = object()
    for g in games:
        if not g.counted:
            continue
        if g.period is None or g.period != last or not out:
            out.append([])
        out[-1].append(g)
        last = g.period if g.period is not None else object()
    return out


def rate_period(state: Ratings, games: Sequence[Game]) -> Ratings:
    """One rating period: every game scored against the ratings at the period's start."""
    games = [g for g in games if g.counted]
    if state.model is Model.GLICKO2:
        new = _glicko2(state, games)
    else:
        new = _weng_lin(state, games)
    if state.ratings and state.learnt:  # newcomers of this period: their mean after it (the founders are not)
        seen = [p for p in _by_player(games) if p not in state.ratings]
        new = replace(new, newcomers=state.newcomers + tuple(new.ratings[p].mu for p in seen))
    sided = [g for g in games if g.first_side is not None]
    corp = sum((Fraction(g.outcome) if _side(g) == 1 else 1 - Fraction(g.outcome) for g in sided), Fraction(0))
    return replace(new, corp_score=state.corp_score + corp, sided_games=state.sided_games + len(sided))


def _new(state: Ratings) -> Rating:
    """A player's rating before their first period: the newcomers' prior (the model's mean with `learnt` off), the
    starting uncertainty, and where it started."""
    scale = SCALES[state.model]
    mu = state.newcomer_prior() if state.learnt else scale.mu
    return Rating(mu, scale.sigma, 0, mu if state.learnt else None)


def _side(g: Game) -> int:
    """+1 when the first player is the Corp, -1 the Runner, 0 no side."""
    return 0 if g.first_side is None else (1 if Side(g.first_side) is Side.CORP else -1)


def _by_player(games: Sequence[Game]) -> dict:
    """player -> [(opponent, score, side sign)] in a deterministic order (the games', not a set's)."""
    out: dict = {}
    for g in games:
        s = float(g.outcome)
        out.setdefault(g.first, []).append((g.second, s, _side(g)))
        out.setdefault(g.second, []).append((g.first, 1 - s, -_side(g)))
    return out


def _weng_lin(state: Ratings, games: Sequence[Game]) -> Ratings:
    """Weng-Lin's Bradley-Terry update by openskill, per game against the period's start; a player's changes summed
    (mu) and multiplied (variance, as a sum of logs), so the games' order cannot matter."""
    from openskill.models import BradleyTerryFull

    scale = SCALES[Model.WENG_LIN]
    model = BradleyTerryFull(mu=scale.mu, sigma=scale.sigma, tau=0)
    beta2 = model.beta ** 2
    h = state.side_advantage
    before = dict(state.ratings)
    fresh = _new(state)  # once a period: the prior sums every rating
    for p in _by_player(games):
        before.setdefault(p, fresh)
    dmu: dict = {p: [] for p in before}
    dlog: dict = {p: [] for p in before}
    for g in games:
        a, b = before[g.first], before[g.second]
        c = math.sqrt(2 * beta2 + a.sigma ** 2 + b.sigma ** 2)
        shift = _side(g) * h * c / 2  # the Corp's edge, in this game's units (BT: P = logistic(diff / c))
        ra = model.rating(mu=a.mu + shift, sigma=a.sigma)
        rb = model.rating(mu=b.mu - shift, sigma=b.sigma)
        ranks: list[float] = [0, 1] if g.outcome == 1 else [1, 0] if g.outcome == 0 else [0, 0]
        [[na], [nb]] = model.rate([[ra], [rb]], ranks=ranks)
        dmu[g.first].append(na.mu - ra.mu)
        dmu[g.second].append(nb.mu - rb.mu)
        dlog[g.first].append(2 * math.log(na.sigma / a.sigma))
        dlog[g.second].append(2 * math.log(nb.sigma / b.sigma))
    played = {p: n for p, n in ((p, len(v)) for p, v in dmu.items()) if n}
    out = {}
    for p, r in before.items():
        var = r.sigma ** 2 * math.exp(math.fsum(dlog[p])) + scale.drift ** 2
        out[p] = Rating(r.mu + math.fsum(dmu[p]), math.sqrt(var), r.games + played.get(p, 0), r.start)
    return replace(state, ratings=out)


def _glicko2(state: Ratings, games: Sequence[Game]) -> Ratings:
    """Glickman's Glicko-2 (2012), one period; the Corp's edge added to its side of each expected score."""
    scale = SCALES[Model.GLICKO2]
    h = state.side_advantage
    by = _by_player(games)
    before = dict(state.ratings)
    fresh = _new(state)  # once a period: the prior sums every rating
    for p in by:
        before.setdefault(p, fresh)
    vol = dict(state.volatility)
    mu = {p: (before[p].mu - scale.mu) / GLICKO_Q for p in by}  # those who played (opponents too)
    phi = {p: before[p].sigma / GLICKO_Q for p in by}
    out = {}
    for p, r in before.items():
        s0 = vol.get(p, GLICKO_VOLATILITY)
        if p not in by:  # only their uncertainty grows
            out[p] = Rating(r.mu, min(GLICKO_Q * math.sqrt((r.sigma / GLICKO_Q) ** 2 + s0 ** 2), scale.sigma),
                            r.games, r.start)
            continue
        inv_v, delta = [], []
        for q, s, side in by[p]:
            g = 1 / math.sqrt(1 + 3 * phi[q] ** 2 / math.pi ** 2)
            e = 1 / (1 + math.exp(-g * (mu[p] - mu[q] + side * h)))
            inv_v.append(g * g * e * (1 - e))
            delta.append(g * (s - e))
        v = 1 / math.fsum(inv_v)
        d = v * math.fsum(delta)
        s1 = _volatility(phi[p], s0, v, d)
        phi_star = math.sqrt(phi[p] ** 2 + s1 ** 2)
        phi1 = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
        mu1 = mu[p] + phi1 ** 2 * math.fsum(delta)
        vol[p] = s1
        out[p] = Rating(scale.mu + GLICKO_Q * mu1, GLICKO_Q * phi1, r.games + len(by[p]), r.start)
    return replace(state, ratings=out, volatility=vol)


def _volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """Glicko-2 step 5: the new volatility by the Illinois algorithm."""
    a = math.log(sigma ** 2)
    tau2 = GLICKO_TAU ** 2

    def f(x):
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau2

    lo = a
    if delta ** 2 > phi ** 2 + v:
        hi = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * GLICKO_TAU) < 0:
            k += 1
        hi = a - k * GLICKO_TAU
    f_lo, f_hi = f(lo), f(hi)
    for _ in range(100):
        if abs(hi - lo) <= 1e-6:
            break
        c = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_c = f(c)
        if f_c * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2
        hi, f_hi = c, f_c
    return math.exp(lo / 2)


def strengths(state: Ratings, keys: dict) -> dict:
    """Exact integer strengths from these ratings: player id -> round(1000 x `Ratings.estimate`) of the rating
    behind its key (an unrated key: the newcomers' prior); the seeding's rule before the joint fit, kept for the
    benchmarks that compare them."""
    v = state.spread()
    return {pid: round(1000 * state.estimate(key, v)) for pid, key in keys.items()}


DEFAULT_MODEL = Model.GLICKO2  # ranks a club better after 8 and 12 events (docs/benchmarks.md, "Ratings")

"""Simulated series for `make bench-ranking`: does seeding by rating, with ratings from the series' earlier events
only, rank the last events better than SASS without it and than every peer's rule?

`python -m bench.bench_ranking --series N [--quick]`. Each series: a club of 40 players with fixed true skills
(standard normal); 12 weekly events, each of 16 to 28 attendees drawn at random from the club, single-sided swiss
of the recommended number of rounds, results as in the one-event benchmark (2 % ties, else the Corp wins with a
logistic of the skill difference), from a stream seeded by the event so every pairer meets the same attendees and
the same luck.

- sass-rating: the engine with `strengths` (seeding by rating, docs/domain.md 15.2) from the ratings
  (`app.core.ratings`, the default model) of the series' events before this one, played by sass-rating itself
  (event 1 has no ratings: plain sass). Never the true skill.
- sass-weng-lin (or sass-glicko2): the same with the other model's ratings (to compare the models as seeds).
- sass and the peers (deployed, article, cobra): their own rule, no rating.

Figures on the last 4 events of every series: Spearman of the final standings against true skill, the true top 8
in the swiss top 8, rematches and players sent home uneven per event. The differences sass-rating minus each other
are averaged per series first, SE = sd / sqrt(series) (a series' events share its ratings, so the series is the
unit). Then the models themselves: each one's Spearman against the club's true skill after 4, 8 and 12 events of
the same games (players who played), and the pre-event ratings' Spearman among each last event's attendees.
"""
from __future__ import annotations

import random
import statistics
from fractions import Fraction

from app.core import ratings as R
from app.core.pairing import Entrant, Format, pair_round
from app.core.pairing.formats import Side
from app.core.standings import recommended_rounds

from .bench_ranking import PAIRERS, PEERS, _accuracy, _mean_se, _play, final_orders, truth_order

CLUB = 40
EVENTS = 12
LAST = 4
SIZES = (16, 28)
OTHER_MODEL = next(m for m in R.Model if m is not R.DEFAULT_MODEL)
RATED = {"sass-rating": R.DEFAULT_MODEL, f"sass-{OTHER_MODEL.value}": OTHER_MODEL}
NAMES = [*RATED, "sass", *PEERS]


def _rated_sass(strengths):
    def pair(players, games, rnd, rng, skill=None):
        entrants = [Entrant(id=p.pid, name=str(p.pid)) for p in players]
        plan = pair_round(Format.SINGLE_SIDED, entrants, games, round_number=rnd, seed=rng.randrange(1 << 30),
                          strengths=strengths)
        pairs, bye = [], None
        for t in plan.pairings:
            if t.is_bye:
                bye = t.player
            else:
                pairs.append((t.corp, t.runner))
        return pairs, bye

    return pair


def schedule(seed):
    """The club's skills and its events: (attendees as club indices, rounds, the event's seed)."""
    rng = random.Random(f"series:{seed}")
    club = [rng.gauss(0, 1) for _ in range(CLUB)]
    events = []
    for e in range(EVENTS):
        n = rng.randint(*SIZES)
        events.append((rng.sample(range(CLUB), n), recommended_rounds(n), 10_000 * (seed + 1) + e))
    return club, events


def _rating_games(att, games, period):
    return [R.Game(att[g.player], att[g.opponent], Fraction(g.player_points, g.player_points + g.opponent_points),
                   Side.CORP, period) for g in games if g.opponent is not None]


def _figures(es, st, games, skill, rematches):
    order, _ = final_orders(es, st, games)
    spearman, top8 = _accuracy(order, truth_order(skill))
    uneven = sum(1 for p in st.values() if abs(p.bias) > p.games % 2)
    return spearman, top8, rematches, uneven


def _spearman(values: dict, truth: dict) -> float:
    keys = list(values)
    order = sorted(keys, key=lambda k: -values[k])
    return _accuracy([keys.index(k) for k in order], sorted(range(len(keys)), key=lambda i: -truth[keys[i]]))[0]


def series(args):
    """One series under one pairer: its last events' figures, and (rated pairers) the models' Spearmans."""
    name, seed = args
    club, events = schedule(seed)
    rows, extra = [], {}
    model = RATED.get(name)
    state = R.Ratings(model) if model else None
    history = []
    for e, (att, rounds, es) in enumerate(events):
        if model is None and e < EVENTS - LAST:
            continue
        skill = [club[p] for p in att]
        if model is not None:
            strengths = R.strengths(state, dict(enumerate(att))) if state.ratings else None
            if e >= EVENTS - LAST and state.ratings:
                extra.setdefault("pre-event", []).append(
                    _spearman({i: state[p].mu for i, p in enumerate(att)}, dict(enumerate(skill))))
            pairer = _rated_sass(strengths)
        else:
            pairer = PAIRERS[name]
        for _, st, games, rematches in _play(pairer, skill, rounds, es):
            pass
        if e >= EVENTS - LAST:
            rows.append(_figures(es, st, games, skill, rematches))
        if model is not None:
            period = _rating_games(att, games, e)
            history.extend(period)
            state = R.rate_period(state, period)
            if e + 1 in (4, 8, 12):
                for m in R.Model:
                    rated = R.rate(history, m)
                    extra[f"{m.value}@{e + 1}"] = _spearman({p: r.mu for p, r in rated.ratings.items()},
                                                           dict(enumerate(club)))
    return rows, extra


def run(n_series: int, pool) -> None:
    res = {name: pool.map(series, [(name, s) for s in range(n_series)], chunksize=2) for name in NAMES}
    print(f"\nSeries: a club of {CLUB}, {EVENTS} events of {SIZES[0]}-{SIZES[1]} attendees, the last {LAST} events "
          f"measured, {n_series} series (same attendees and luck for every pairer)\n")
    print("| pairer | Spearman | top-8 recall | rematches / event | sent home uneven / event |")
    print("|---|---|---|---|---|")
    per_series = {}
    for name, out in res.items():
        per_series[name] = [[statistics.mean(r[k] for r in rows) for k in range(4)] for rows, _ in out]
        cols = [statistics.mean(s[k] for s in per_series[name]) for k in range(4)]
        print(f"| {name} | {cols[0]:.4f} | {cols[1]:.3f} | {cols[2]:.2f} | {cols[3]:.2f} |")
    print(f"\n| {NAMES[0]} minus | Spearman (SE) | top-8 (SE) | 2 SE ahead on both |")
    print("|---|---|---|---|")
    for other in NAMES[1:]:
        cells, ahead = [], []
        for k in range(2):
            m, se = _mean_se([a[k] - b[k] for a, b in zip(per_series[NAMES[0]], per_series[other])])
            cells.append(f"{m:+.4f} ({se:.4f})" if k == 0 else f"{m:+.3f} ({se:.3f})")
            ahead.append(m >= 2 * se)
        print(f"| {other} | {' | '.join(cells)} | {'yes' if all(ahead) else 'no'} |")
    print("\n| ratings' Spearman against true skill | " + " | ".join(m.value for m in R.Model) + " |")
    print("|---|" + "---|" * len(R.Model))
    extras = [x for _, x in res[NAMES[0]]]
    for after in (4, 8, 12):
        cells = []
        for m in R.Model:
            mean, se = _mean_se([x[f"{m.value}@{after}"] for x in extras])
            cells.append(f"{mean:.4f} ({se:.4f})")
        print(f"| the club after {after} events | {' | '.join(cells)} |")
    diffs = [x[f"{R.Model.WENG_LIN.value}@12"] - x[f"{R.Model.GLICKO2.value}@12"] for x in extras]
    m, se = _mean_se(diffs)
    print(f"\nWeng-Lin minus Glicko-2 after 12 events: {m:+.4f} (SE {se:.4f})")
    for name in NAMES[:2]:
        pre = [v for _, x in res[name] for v in x.get("pre-event", [])]
        print(f"{name}: the pre-event ratings' Spearman among the last events' attendees {statistics.mean(pre):.4f}")

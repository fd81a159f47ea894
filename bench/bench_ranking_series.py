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

`--league churn` (`python -m bench.bench_ranking --series N --league churn`; `make bench-ranking` runs 1,000): a
held-out-style league, where the closed club above is the easy case. 60 members; every 4 events (a quarter) a
third of them (20, at random) leave and 20 newcomers join, weaker on average (skill N(-0.6, 1)) and improving
(+0.03 an event for their first 10 events); every member's skill drifts by a N(0, 0.08) step each week; a Corp of
equal skill wins 55 % of the decided games (logistic of the skill difference + log(55/45)); 2 % ties; in the last
round two players both at or above the 8th best score draw intentionally (1 point each, not a game of skill for
the ratings) with probability 0.7; 16 weekly events a season of 10 to 36 attendees drawn from the members, the
recommended number of rounds. Season s is seeded "league:s" (the schedule and skills), its events 20,000 (s + 1)
+ e (pairing and luck), seasons 0..N-1. Pairers: sass-rating (the app's seeding: one joint fit of every earlier
game, app/core/rating_fit.py), sass (no rating); `--pairers` chooses others: sass-rating-glicko2 (the rule before
2026-12-08: Glicko-2 with the newcomers' learnt prior and the seeding's estimate), sass-rating-mean (Glicko-2 with
newcomers at the club's mean, strengths from mu alone: `Ratings(learnt=False)`), sass-weng-lin, the peers,
sass-rating:RULE (the same strengths used by another order inside a cell: bench/seed_rules.py).
`--keep DIR` keeps every pairer's seasons between runs (by app/core's code; a shorter kept run is extended).
Figures on the season's last 8 events, averaged per season first, SE = sd / sqrt(seasons); then each model's
seeding estimate against true skill among the current members after the season, under both rules, on sass-rating's
games.
"""
from __future__ import annotations

import glob
import hashlib
import json
import math
import os
import random
import statistics
from fractions import Fraction

from app.core import rating_fit
from app.core import ratings as R
from app.core.pairing import Entrant, Format, pair_round
from app.core.pairing.formats import Side
from app.core.standings import recommended_rounds

from app.core.pairing import Game

from . import seed_rules
from .bench_ranking import PAIRERS, PEERS, TIE_P, Player, _accuracy, _mean_se, _play, final_orders, truth_order

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


# ---------------------------------------------------------------------------------------------------------------
# The churn league (`--league churn`): a held-out-style club, the one the closed club above is not.

LEAGUE = 60  # members at any time
LEAGUE_EVENTS = 16  # weekly events a season
QUARTER = 4  # events a quarter; at each new quarter a third of the members leave and as many newcomers join
LEAGUE_LAST = 8  # the measured events: the season's last 8 (9 to 16)
LEAGUE_SIZES = (10, 36)
NEWCOMER_MEAN, NEWCOMER_SD = -0.6, 1.0  # newcomers' skill: weaker on average
DRIFT = 0.08  # every member's skill moves by a normal step of this sd each week
LEARNING, LEARNING_EVENTS = 0.03, 10  # a newcomer gains this much an event for its first 10 events
CORP_EDGE = math.log(0.55 / 0.45)  # a Corp of equal skill wins 55 % of its decided games
ID_P = 0.7  # in the last round, two players both at or above the 8th best score draw intentionally this often
FIT = "fit"  # the app's seeding (app/services/ratings.py): one joint fit of every earlier game (rating_fit.py)
LEAGUE_RATED = {"sass-rating": (FIT, True), "sass-rating-glicko2": (R.Model.GLICKO2, True),
                "sass-rating-mean": (R.DEFAULT_MODEL, False), f"sass-{OTHER_MODEL.value}": (OTHER_MODEL, True),
                **{f"sass-rating:{rule}": (FIT, True) for rule in seed_rules.RULES[1:]}}  # seed_rules.py
LEAGUE_NAMES = ["sass-rating", "sass", *PEERS]
LEAGUE_MODELS = (R.Model.GLICKO2,)  # re-rated after each season beside the fit (Weng-Lin's re-rate costs more)


def league_schedule(seed):
    """The season: for every event, (attendees as person ids, their skills that week, rounds, the event's seed),
    and who joined as a newcomer (after the first quarter). Members are person ids; founders 0..59."""
    rng = random.Random(f"league:{seed}")
    skill = {p: rng.gauss(0, 1) for p in range(LEAGUE)}
    members, newcomers, played, nxt = list(range(LEAGUE)), set(), {}, LEAGUE
    events = []
    for e in range(LEAGUE_EVENTS):
        if e and e % QUARTER == 0:
            for p in rng.sample(members, LEAGUE // 3):
                members.remove(p)
            for _ in range(LEAGUE // 3):
                skill[nxt] = rng.gauss(NEWCOMER_MEAN, NEWCOMER_SD)
                members.append(nxt)
                newcomers.add(nxt)
                nxt += 1
        for p in members:
            skill[p] += rng.gauss(0, DRIFT)
        n = rng.randint(*LEAGUE_SIZES)
        att = rng.sample(members, n)
        events.append((att, [skill[p] for p in att], recommended_rounds(n), 20_000 * (seed + 1) + e,
                       {p: skill[p] for p in members}))
        for p in att:
            if p in newcomers and played.get(p, 0) < LEARNING_EVENTS:
                skill[p] += LEARNING
            played[p] = played.get(p, 0) + 1
    return events, newcomers


def _play_league(pairer, skill, rounds, seed):
    """`bench_ranking._play` with the league's results: the Corp's edge, 2 % ties, and intentional draws in the last
    round between two players both at or above the 8th best score (1 point each, not a game of skill)."""
    n = len(skill)
    pair_rng = random.Random(seed * 31 + 3)
    luck = random.Random(seed * 7 + 1)
    st = {i: Player(i) for i in range(n)}
    games: list[Game] = []
    for rnd in range(1, rounds + 1):
        pairs, bye = pairer(list(st.values()), games, rnd, pair_rng, skill)
        cut = sorted((p.score for p in st.values()), reverse=True)[min(7, n - 1)]
        for c, r in pairs:
            a, b = st[c], st[r]
            x, y, z = luck.random(), luck.random(), luck.random()
            intentional = rnd == rounds and a.score >= cut and b.score >= cut and z < ID_P
            if intentional or x < TIE_P:
                pc, pr = 1, 1
            elif y < 1 / (1 + math.exp(-(skill[c] - skill[r] + CORP_EDGE))):
                pc, pr = 3, 0
            else:
                pc, pr = 0, 3
            a.score += pc
            b.score += pr
            a.bias += 1
            b.bias -= 1
            a.games += 1
            b.games += 1
            a.corped_vs.add(r)
            games.append(Game(rnd, c, r, player_points=pc, opponent_points=pr, player_side=Side.CORP,
                              intentional_draw=intentional))
        if bye is not None:
            st[bye].had_bye = True
            st[bye].score += 3
            games.append(Game(rnd, bye, None, player_points=3))
    return st, games


def _league_games(att, games, period):
    return [R.Game(att[g.player], att[g.opponent], Fraction(g.player_points, g.player_points + g.opponent_points),
                   Side.CORP, period, g.intentional_draw) for g in games if g.opponent is not None]


def league(args):
    """One season under one pairer: its last events' figures, and (rated pairers) the ratings' Spearmans."""
    name, seed = args
    events, newcomers = league_schedule(seed)
    rows, extra = [], {}
    model, learnt = LEAGUE_RATED.get(name, (None, True))
    rule = name.split(":")[1] if ":" in name else "app"
    state = R.Ratings(model if model != FIT else R.DEFAULT_MODEL, learnt=learnt) if model else None
    history = []
    for e, (att, skill, rounds, es, club) in enumerate(events):
        measured = e >= LEAGUE_EVENTS - LEAGUE_LAST
        if model is None and not measured:
            continue
        if model is not None:
            keys = dict(enumerate(att))
            if model == FIT:
                strengths = rating_fit.fit(history).strengths(keys) if history else None
            else:
                strengths = R.strengths(state, keys) if state.ratings else None
            if measured and state.ratings:
                extra.setdefault("pre-event", []).append(_spearman(strengths, dict(enumerate(skill))))
            seed_rules.use(rule, rounds)
            pairer = seed_rules.at_round(_rated_sass(strengths))
        else:
            pairer = PAIRERS[name]
        st, games = _play_league(pairer, skill, rounds, es)
        if measured:
            rows.append(_figures(es, st, games, skill, 0))
        if model is not None:
            period = _league_games(att, games, e)
            history.extend(period)
            state = R.rate_period(state, period)
            if name == "sass-rating" and e + 1 == LEAGUE_EVENTS:  # the models on the same games: current members
                members = [p for p in club if any(p in (g.first, g.second) for g in history if g.counted)]
                for m in LEAGUE_MODELS:
                    for lt in (True, False):
                        rated = R.rate(history, m, start=R.Ratings(m, learnt=lt))
                        v = rated.spread()
                        extra[f"{m.value}:{lt}"] = _spearman({p: rated.estimate(p, v) for p in members},
                                                             {p: club[p] for p in members})
                        new = [p for p in members if p in newcomers]
                        extra[f"{m.value}:{lt}:new"] = (math.fsum(rated.estimate(p, v) for p in new) / len(new)
                                                        - rated.club_mean()) if new else 0.0
                fitted = rating_fit.fit(history)
                extra["fit"] = _spearman({p: fitted[p] for p in members}, {p: club[p] for p in members})
                new = [p for p in members if p in newcomers]
                extra["fit:new"] = (math.fsum(fitted[p] for p in new) / len(new)
                                    - math.fsum(fitted[p] for p in members) / len(members)) if new else 0.0
    return rows, extra


def _core_digest() -> str:
    """What a season's figures depend on besides the bench and the seeds: app/core (pairing, standings, ratings)."""
    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "app", "core")
    h = hashlib.sha256()
    for path in sorted(glob.glob(os.path.join(root, "**", "*.py"), recursive=True)):
        with open(path, "rb") as f:
            h.update(os.path.relpath(path, root).encode() + b"\0" + f.read())
    return h.hexdigest()[:12]


def _league_runs(name, n_seasons, pool, keep):
    """One pairer's seasons; with `keep` (a folder) read from, or written to, keep/DIGEST/NAME-N.json, DIGEST that of
    app/core's code: a run that changes one pairer's rule does not play the others again."""
    if keep:
        keep = os.path.join(keep, _core_digest())
    path = os.path.join(keep, f"{name}-{n_seasons}.json") if keep else None
    if path:  # a run of as many seasons or more: its first n_seasons are these (season s is seeded by s)
        kept = sorted((int(f[len(name) + 1:-5]), f) for f in (os.listdir(keep) if os.path.isdir(keep) else [])
                      if f.startswith(f"{name}-") and f[len(name) + 1:-5].isdigit())
        done: list = []
        for n, f in kept:  # the longest kept run; a shorter one is extended by the seasons it lacks
            with open(os.path.join(keep, f)) as fh:
                done = [(rows, extra) for rows, extra in json.load(fh)]
            if n >= n_seasons:
                return done[:n_seasons]
    else:
        done = []
    out = done + pool.map(league, [(name, s) for s in range(len(done), n_seasons)], chunksize=2)
    if path:
        os.makedirs(keep, exist_ok=True)
        with open(path, "w") as f:
            json.dump(out, f)
    return out


def run_league(n_seasons: int, pool, names=None, keep=None) -> None:
    names = names or LEAGUE_NAMES
    res = {name: _league_runs(name, n_seasons, pool, keep) for name in names}
    print(f"\nChurn league: {LEAGUE} members, a third replaced each quarter of {QUARTER} events (newcomers' skill "
          f"N({NEWCOMER_MEAN}, {NEWCOMER_SD}), +{LEARNING} an event for {LEARNING_EVENTS} events), skills drifting "
          f"{DRIFT} a week, Corp edge 55 %, intentional draws (p {ID_P}) in the last round at the top, "
          f"{LEAGUE_EVENTS} events of {LEAGUE_SIZES[0]}-{LEAGUE_SIZES[1]} attendees, the last {LEAGUE_LAST} measured, "
          f"{n_seasons} seasons (seeds 0..{n_seasons - 1})\n")
    print("| pairer | Spearman | top-8 recall | sent home uneven / event | pre-event strengths' Spearman |")
    print("|---|---|---|---|---|")
    per = {}
    for name, out in res.items():
        per[name] = [[statistics.mean(r[k] for r in rows) for k in range(4)] for rows, _ in out]
        cols = [statistics.mean(s[k] for s in per[name]) for k in range(4)]
        pre = [v for _, x in out for v in x.get("pre-event", [])]
        print(f"| {name} | {cols[0]:.4f} | {cols[1]:.3f} | {cols[3]:.2f} | "
              f"{statistics.mean(pre) if pre else float('nan'):.4f} |")
    for first in [n for n in names if n in LEAGUE_RATED]:
        print(f"\n| {first} minus | Spearman (SE) | top-8 (SE) | 2 SE ahead on both |")
        print("|---|---|---|---|")
        for other in names:
            if other == first:
                continue
            cells, ahead = [], []
            for k in range(2):
                m, se = _mean_se([a[k] - b[k] for a, b in zip(per[first], per[other])])
                cells.append(f"{m:+.4f} ({se:.4f})" if k == 0 else f"{m:+.3f} ({se:.3f})")
                ahead.append(m >= 2 * se)
            print(f"| {other} | {' | '.join(cells)} | {'yes' if all(ahead) else 'no'} |")
    if "sass-rating" in res:
        extras = [x for _, x in res["sass-rating"]]
        print("\n| after the season, current members who played | Spearman of the seeding estimate (SE) "
              "| newcomers' mean estimate minus the club's mean (model units) |")
        print("|---|---|---|")
        for m in LEAGUE_MODELS:
            for lt in (True, False):
                a, se = _mean_se([x[f"{m.value}:{lt}"] for x in extras])
                b, se_b = _mean_se([x[f"{m.value}:{lt}:new"] for x in extras])
                rule = "learnt prior + shrink" if lt else "club's mean, mu"
                print(f"| {m.value}, {rule} | {a:.4f} ({se:.4f}) | {b:+.2f} ({se_b:.2f}) |")
        a, se = _mean_se([x["fit"] for x in extras])
        b, se_b = _mean_se([x["fit:new"] for x in extras])
        print(f"| the joint fit (the app's seeding), log-odds | {a:.4f} ({se:.4f}) | {b:+.2f} ({se_b:.2f}) |")

"""Shared builders for the plain-swiss tests: entrants, games, simulated and random histories, invariants."""
from __future__ import annotations

import random
from collections import Counter

import networkx as nx

from app.core.pairing.plain import pair_plain
from app.core.pairing.types import Entrant, Game, PairingError

GHOST = "ghost"  # a dropped player: games against ghosts give points without any rematch constraint


def entrants(n, **kw):
    return [Entrant(i, f"P{i}", **kw) for i in range(n)]


def win(r, a, b):
    return Game(r, a, b, 3, 0, player_games=2)


def draw(r, a, b):
    return Game(r, a, b, 1, 1, player_games=1, opponent_games=1, drawn_games=1)


def bye(r, a):
    return Game(r, a, None, 3, player_games=2)


def play_round(plan, r, rnd, draws=0.1):
    out = []
    for p in plan.pairings:
        if p.opponent is None:
            out.append(bye(r, p.player))
            continue
        x = rnd.random()
        if x < draws:
            out.append(draw(r, p.player, p.opponent))
        elif x < (1 + draws) / 2:
            out.append(win(r, p.player, p.opponent))
        else:
            out.append(win(r, p.opponent, p.player))
    return out


def swiss_history(n, rounds, seed, power=False, drop_rate=0.0):
    """Up to `rounds` rounds of plain swiss played with random results (and random drops)."""
    rnd = random.Random(seed)
    ents, games = entrants(n), []
    for r in range(1, rounds + 1):
        try:
            plan = pair_plain(ents, games, r, seed, power)
        except PairingError:  # a small field can run out of legal pairings: the event ends there
            break
        games += play_round(plan, r, rnd)
        ents = [Entrant(e.id, e.name, dropped=e.dropped or rnd.random() < drop_rate) for e in ents]
    return ents, games


def random_history(n, rounds, seed, density=1.0):
    """Random (not swiss) pairings each round: rematch constraints scattered across all pods, byes at random."""
    rnd = random.Random(seed)
    games = []
    for r in range(1, rounds + 1):
        players = [i for i in range(n) if rnd.random() < density]
        rnd.shuffle(players)
        if len(players) % 2:
            games.append(bye(r, players.pop()))
        for a, b in zip(players[::2], players[1::2]):
            x = rnd.random()
            games.append(draw(r, a, b) if x < 0.15 else win(r, a, b) if x < 0.6 else win(r, b, a))
    return entrants(n), games


def ghost_history(points, byes=(), met=()):
    """Players ending with exactly `points`, having met only the `met` pairs (drawn games) among the field.

    The rest of their points come from games against a dropped ghost (no constraint) and from `byes`."""
    ents = entrants(len(points)) + [Entrant(GHOST, "ghost", dropped=True)]
    games = [draw(60 + k, a, b) for k, (a, b) in enumerate(met)]
    rest = list(points)
    for a, b in met:
        rest[a] -= 1
        rest[b] -= 1
    for i in byes:
        games.append(bye(50, i))
        rest[i] -= 3
    for i, pts in enumerate(rest):
        assert pts >= 0, "not enough points for the meetings and byes asked for"
        games += [win(r + 1, i, GHOST) for r in range(pts // 3)]
        games += [draw(40 + r, i, GHOST) for r in range(pts % 3)]
    return ents, games


def check_invariants(ents, games, plan, requested=()):
    """Everyone active paired once, nobody dropped, no rematch, no second bye while someone has fewer byes."""
    active = {e.id for e in ents if not e.dropped}
    seen = Counter(p for t in plan.pairings for p in (t.player, t.opponent) if p is not None)
    assert set(seen) == active and set(seen.values()) <= {1}
    met = {frozenset((g.player, g.opponent)) for g in games if g.opponent is not None}
    for t in plan.pairings:
        if t.opponent is not None:
            assert frozenset((t.player, t.opponent)) not in met, f"rematch {t.player}-{t.opponent}"
    byes = Counter(g.player for g in games if g.opponent is None)
    takers = [t.player for t in plan.pairings if t.opponent is None]
    assert set(requested) <= set(takers) and len(takers) - len(requested) == (len(active) - len(requested)) % 2
    field = active - set(requested)
    for p in set(takers) - set(requested):
        if byes[p] > min(byes[q] for q in field):  # allowed only if no pairing gives the bye to fewer byes
            assert not _pairable(field, met, {q for q in field if byes[q] < byes[p]}), "needless extra bye"
    assert [t.table for t in plan.pairings] == list(range(1, len(plan.pairings) + 1))
    assert all(t.opponent is not None for t in plan.pairings[: len(plan.pairings) - len(takers)])


def next_round(games):
    return max((g.round for g in games), default=0) + 1


def _pairable(field, met, bye_ok):
    """Independent check: a perfect matching of `field` plus a bye node open to `bye_ok` exists."""
    graph = nx.Graph()
    nodes = list(field) + ["BYE"]
    graph.add_nodes_from(nodes)
    graph.add_edges_from((a, b) for a in field for b in field if a != b and frozenset((a, b)) not in met)
    graph.add_edges_from((a, "BYE") for a in bye_ok)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)


def messy_history(n, rounds, seed, power=False):
    """Plain swiss with everything a real event has: 15 % draws, drops, late entries (a fifth of the field joins
    in round 3), requested first-round byes and fixed tables. Returns the entrants of the next round."""
    rnd = random.Random(seed)
    late = set(rnd.sample(range(n), n // 5))
    fixed = dict(zip(rnd.sample(range(n), min(3, n)), (1, 2, 5)))
    asks = set(rnd.sample(range(n), min(2, n)))
    ents = [Entrant(i, f"P{i}", fixed_table=fixed.get(i), first_round_bye=i in asks) for i in range(n)]
    games = []
    for r in range(1, rounds + 1):
        present = [e for e in ents if r >= 3 or e.id not in late]
        try:
            plan = pair_plain(present, games, r, seed, power)
        except PairingError:
            break
        games += play_round(plan, r, rnd, draws=0.15)
        ents = [Entrant(e.id, e.name, dropped=e.dropped or rnd.random() < 0.04, fixed_table=e.fixed_table,
                        first_round_bye=e.first_round_bye) for e in ents]
    r = next_round(games)
    return [e for e in ents if r >= 3 or e.id not in late], games


def one_draw(n):
    """Round 1 with one drawn match (its two players form a pod that cannot pair inside itself), every other
    match won, and a bye when n is odd."""
    games = [draw(1, 0, 1)] + [win(1, i, i + 1) for i in range(2, n - 1, 2)]
    if n % 2:
        games.append(bye(1, n - 1))
    return entrants(n), games

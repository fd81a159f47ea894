"""The random-pairing histories are legal: what the engine's bound is stated for must be a history it accepts."""
from collections import Counter, defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.pairing import Format, History
from app.core.pairing.random_pairings import random_history


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([Format.SINGLE_SIDED, Format.DOUBLE_SIDED]), st.integers(2, 40), st.integers(1, 15),
       st.sampled_from([0.0, 0.1]), st.integers(0, 10**6))
def test_random_histories_keep_the_hard_rules(fmt, n, rounds, drop, seed):
    ents, games = random_history(fmt, n, rounds, seed=seed, drop=drop)
    assert len(ents) == n
    byes: Counter = Counter()
    meetings: dict = defaultdict(list)
    for r in sorted({g.round for g in games}):
        played = [g for g in games if g.round == r]
        seen = [p for g in played for p in g.players()]
        assert len(seen) == len(set(seen))  # one game (or the bye) a player a round
        history = History(fmt, [g for g in games if g.round < r], [e.id for e in ents])
        for g in played:
            if g.is_bye:  # nobody playing this round had fewer byes
                assert byes[g.player] == min(byes[p] for p in seen)
                byes[g.player] += 1
                continue
            key = frozenset((g.player, g.opponent))
            corp = None
            if fmt is Format.DOUBLE_SIDED:
                assert not meetings[key]
            else:
                assert len(meetings[key]) < 2
                corp = g.player if g.player_side.value == "corp" else g.opponent
                if meetings[key]:  # reversed sides, no uneven bias pushed further
                    assert meetings[key][-1] != corp
                    runner = g.opponent if corp == g.player else g.player
                    for who, step in ((corp, 1), (runner, -1)):
                        bias = history[who].bias
                        assert not bias or abs(bias + step) <= abs(bias)
            meetings[key].append(corp if fmt is Format.SINGLE_SIDED else None)


def test_the_benchmark_shape_scatters_points_and_sides():
    """What makes these histories hard: after 10 random rounds points and side biases are spread wide."""
    ents, games = random_history(Format.SINGLE_SIDED, 400, 10, seed=1, drop=0.02)
    history = History(Format.SINGLE_SIDED, games, [e.id for e in ents])
    assert sum(e.dropped for e in ents) > 0
    assert len({history[e.id].points for e in ents}) >= 15
    assert max(abs(history[e.id].bias) for e in ents) >= 5

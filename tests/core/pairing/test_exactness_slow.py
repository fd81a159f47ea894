"""Slow exactness check: the fast solver against rustworkx on the full graph at 1,000 players."""
import pytest

from app.core.pairing import Format, pair_round
from app.core.pairing.playout import field, play_rounds


@pytest.mark.slow
@pytest.mark.parametrize("fmt,rounds", [(Format.SINGLE_SIDED, 4), (Format.SINGLE_SIDED, 8), (Format.DOUBLE_SIDED, 5)])
def test_fast_equals_full_graph_at_1000_players(fmt, rounds):
    ents = field(1000)
    games = play_rounds(fmt, ents, rounds, seed=rounds)
    fast = pair_round(fmt, ents, games, seed=1, solver="fast")
    full = pair_round(fmt, ents, games, seed=1, solver="rustworkx")
    assert fast.total_cost == full.total_cost
    assert fast.certified_optimal
    assert not any("full graph" in note for note in fast.notes)  # proven by its own bound

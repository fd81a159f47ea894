"""Simulated events (app/core/pairing/simulate_events.py): everyone paired once a round, reproducible from the
seed, points from the format, drops."""
from __future__ import annotations

import pytest

from app.core.pairing import Format
from app.core.pairing.simulate_events import Config, play_event


def _by_round(games):
    rounds = {}
    for g in games:
        rounds.setdefault(g.round, []).extend(g.players())
    return rounds


@pytest.mark.parametrize("fmt", list(Format))
def test_play_event_pairs_everyone_once_a_round_and_is_reproducible(fmt):
    config = Config(players=7, rounds=3, fmt=fmt)
    games, finishers, stats = play_event(config, 11)
    assert sorted(finishers) == list(range(1, 8))
    for players in _by_round(games).values():
        assert sorted(players) == list(range(1, 8))
    assert stats.violations == 0 and stats.byes == 3 and len(stats.round_seconds) == 3
    assert play_event(config, 11)[0] == games
    assert any(play_event(config, seed)[0] != games for seed in (12, 13, 14))


def test_points_come_from_the_format():
    scoring = Format.DOUBLE_SIDED.scoring
    games, _, _ = play_event(Config(players=8, rounds=2, fmt=Format.DOUBLE_SIDED, tie_rate=0.3), 5)
    per_game = {scoring.win + scoring.loss, 2 * scoring.tie}
    allowed = {a + b for a in per_game for b in per_game}
    assert all(g.player_points + g.opponent_points in allowed for g in games)
    assert any(g.player_points > scoring.win for g in games)  # someone won both games of a round


def test_dropped_players_are_not_paired_again_nor_counted_at_the_end():
    games, finishers, stats = play_event(Config(players=10, rounds=4, drop_rate=0.4), 3)
    assert stats.dropped == 10 - len(finishers) > 0
    last_round = {}
    for rnd, players in _by_round(games).items():
        for p in players:
            last_round[p] = rnd
    assert all(last_round[p] == 4 for p in finishers)
    assert any(last_round[p] < 4 for p in set(range(1, 11)) - set(finishers))
    assert stats.violations == 0

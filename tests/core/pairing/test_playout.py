"""Random events played out by the engine (app/core/pairing/playout.py), the tests' and benchmarks' source: every
round complete, points from the format, the same seed the same event."""
from __future__ import annotations

import random

import pytest

from app.core.pairing import Format
from app.core.pairing.playout import field, play_rounds, random_result


@pytest.mark.parametrize("fmt", list(Format))
def test_every_round_seats_everyone_once_and_a_seed_replays(fmt):
    entrants = field(7)
    games = play_rounds(fmt, entrants, 3, seed=4)
    for rnd in (1, 2, 3):
        seated = [p for g in games if g.round == rnd for p in g.players()]
        assert sorted(seated) == list(range(1, 8))
    assert play_rounds(fmt, entrants, 3, seed=4) == games


def test_a_result_is_worth_what_the_format_says():
    rnd = random.Random(1)
    s = Format.DOUBLE_SIDED.scoring
    per_game = {(s.win, s.loss), (s.loss, s.win), (s.tie, s.tie)}
    sums = {(a + c, b + d) for a, b in per_game for c, d in per_game}
    assert all(random_result(Format.DOUBLE_SIDED, rnd, tie_rate=0.3) in sums for _ in range(200))
    s = Format.SINGLE_SIDED.scoring
    assert {random_result(Format.SINGLE_SIDED, rnd, tie_rate=0.3) for _ in range(200)} == {
        (s.win, s.loss), (s.loss, s.win), (s.tie, s.tie)}

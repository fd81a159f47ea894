"""The formats and their scoring (app/core/pairing/formats.py), the one place the points for a win are written."""
from __future__ import annotations

from app.core.pairing.formats import Format, Side


def test_a_round_is_worth_a_clean_sweep():
    assert Format.SINGLE_SIDED.scoring.round_points == 3
    assert Format.DOUBLE_SIDED.scoring.round_points == 6 == Format.DOUBLE_SIDED.scoring.bye
    assert Format.PLAIN.scoring.bye_game_wins == 2


def test_the_formats_facts():
    assert [f for f in Format if f.sided_tables] == [Format.SINGLE_SIDED]
    assert [f for f in Format if not f.netrunner] == [Format.PLAIN] == [f for f in Format if f.counts_games]
    assert [f for f in Format if f.custom_results] == [Format.DOUBLE_SIDED, Format.PLAIN]
    assert Format("double").games_per_round == 2
    assert Side.CORP.other is Side.RUNNER and Side.RUNNER.other is Side.CORP

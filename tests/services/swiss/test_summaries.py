"""Each round with its matches still waiting for a result (app/services/swiss/summaries.py), in one query."""
from __future__ import annotations

from app.services.swiss.summaries import RoundSummary, round_summaries
from tests.cut_helpers import add_players, add_round


def test_rounds_count_their_matches_and_the_unreported_ones(make_user, make_tournament):
    t = make_tournament(make_user())
    a, b, c, d, e = add_players(t, "abcde")
    add_round(t, 1, [(a, b, "corp"), (c, d, "runner"), (e, None, None)])
    add_round(t, 2, [(a, c, None), (b, e, "corp"), (d, None, None)], published=False)
    assert round_summaries(t) == [RoundSummary(1, True, 3, 0), RoundSummary(2, False, 3, 1)]
    assert round_summaries(t, published_only=True) == [RoundSummary(1, True, 3, 0)]

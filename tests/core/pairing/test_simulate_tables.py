"""The target's verdict (app/core/pairing/simulate_tables.py): each failure with its margin."""
from __future__ import annotations

from collections import Counter

from app.core.pairing.simulate_metrics import EventStats
from app.core.pairing.simulate_tables import target_verdict


def test_target_verdict_reports_each_failure_with_its_margin():
    def events(mismatched, rematches=0, uneven=0):
        return [EventStats(games=10, mismatched=mismatched, rematches=rematches, uneven_players=uneven)]

    ok = target_verdict("12/5", {"sass": events(3), "deployed": events(4), "cobra": events(3)})
    assert all(" PASS " in line for line in ok)
    bad = target_verdict("12/5", {"sass": events(5, rematches=1, uneven=2), "deployed": events(4),
                                  "cobra": events(6)})
    assert Counter(line.split()[1] for line in bad) == {"FAIL": 3}
    assert "best baseline deployed 4.000 (diff +1.000)" in bad[2]

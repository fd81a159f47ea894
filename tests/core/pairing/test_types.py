"""The engine's values (app/core/pairing/types.py)."""
from app.core.pairing import Entrant


def test_requested_bye_only_in_round_one():
    asks, other = Entrant(1, first_round_bye=True), Entrant(2)
    assert asks.asks_bye(1) and not asks.asks_bye(2) and not other.asks_bye(1)

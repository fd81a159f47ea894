"""The pairing engine: pure Python, no Flask, no SQL. See docs/engine.md."""
from .formats import DEFAULT_FORMAT, Format, Scoring, Side
from .types import Entrant, Game, Pairing, PairingError, RoundPlan
from .history import History, Record
from .costs import DEFAULT_SCORE_FACTOR
from .api import pair_round

__all__ = [
    "DEFAULT_FORMAT", "Format", "Scoring", "Side", "Entrant", "Game", "Pairing", "PairingError", "RoundPlan",
    "History", "Record", "DEFAULT_SCORE_FACTOR", "pair_round",
]

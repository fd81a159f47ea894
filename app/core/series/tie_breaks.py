"""The tie-breaks a series' TO orders (docs/domain.md 14.2): each one entry that names, words and computes itself.

The form's choices, the check of what the TO chose, the reading of a stored series and the standings' order all
ask `TIE_BREAKS`, so a tie-break added here is offered, accepted and applied at once, and a name not here is
refused everywhere (`named`).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .points import PointsError


@dataclass(frozen=True)
class Standing:
    """What a tie-break may ask of a player's line: every result's total (in the standings' whole units), their
    placings in the order given, events won and played, and the most events any player of the series has."""

    every: int
    placings: tuple[int, ...]
    wins: int
    events: int
    longest: int


@dataclass(frozen=True)
class TieBreak:
    name: str  # as stored in the series' rules and written in its JSON
    label: str  # as the form offers it
    key: Callable[[Standing], object]  # smaller ranks higher


def _countback(s: Standing) -> tuple:
    """Placings best first, padded so that a missing result compares worse than any placing."""
    return tuple(sorted(s.placings)) + (float("inf"),) * (s.longest - len(s.placings))


TIE_BREAKS: dict[str, TieBreak] = {tb.name: tb for tb in (
    TieBreak("all_results", "Total of every result, not only the counted ones", lambda s: -s.every),
    TieBreak("countback", "Better placings: more 1st places, then more 2nd places, and so on", _countback),
    TieBreak("event_wins", "More events won", lambda s: -s.wins),
    TieBreak("events_played", "More events played", lambda s: -s.events),
)}


class UnknownTieBreak(PointsError):
    """A tie-break name SASS does not know, or one named twice."""


def named(names: Sequence[str]) -> tuple[TieBreak, ...]:
    """The tie-breaks of these names, in order; UnknownTieBreak naming any the registry lacks or any repeated."""
    unknown = [n for n in names if n not in TIE_BREAKS]
    if unknown:
        raise UnknownTieBreak(f"Unknown tie-break {unknown[0]!r}: choose from "
                              f"{', '.join(TIE_BREAKS)}.")
    if len(set(names)) != len(names):
        raise UnknownTieBreak("Choose each tie-break once.")
    return tuple(TIE_BREAKS[n] for n in names)

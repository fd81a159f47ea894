"""A series' points table: points per placing, the participation point, scaling by field size and by event tier.

Exact: every figure is a Fraction, so "2.5" is 5/2 and a scaled total never rounds (docs/domain.md 14.1).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Optional

MAX_PLACING = 100_000
MAX_POINTS = Fraction(1_000_000)
MAX_TEXT = 500


class PointsError(ValueError):
    """A points table or tier list that cannot be read, in words for the form."""


@dataclass(frozen=True)
class Band:
    """Placings `first`..`last` (1 is the winner) each earn `points`."""

    first: int
    last: int
    points: Fraction


def _number(text: str, what: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise PointsError(f"{what}: {text!r} is not a number.") from None
    if value < 0 or value > MAX_POINTS:
        raise PointsError(f"{what}: {text} is out of range (0 to {MAX_POINTS}).")
    return value


def figure(value: Fraction) -> str:
    """A Fraction as a TO writes it: 10, 2.5, 1/3."""
    if value.denominator == 1:
        return str(value.numerator)
    if 10**6 % value.denominator == 0:  # a decimal with at most six places
        whole, rest = divmod(value.numerator * (10**6 // value.denominator), 10**6)
        return f"{whole}.{rest:06d}".rstrip("0")
    return f"{value.numerator}/{value.denominator}"


_ORDINAL = r"(\d+)(?:st|nd|rd|th)?"
_BAND = re.compile(rf"^{_ORDINAL}\s*(?:(?:-|–|to)\s*{_ORDINAL})?\s*[:=]?\s*([0-9./]+)$", re.IGNORECASE)


def parse_table(text: str) -> tuple[Band, ...]:
    """Read "1st 10, 2nd 8, 3rd-4th 6, 5th-8th 4" (or "1: 10, 2: 8, 3-4: 6"): comma- or line-separated bands.

    The bands may not overlap, and a worse placing never earns more than a better one. Placings after the last
    band earn nothing (the participation point aside)."""
    if len(text) > MAX_TEXT:
        raise PointsError(f"The points table is longer than {MAX_TEXT} characters.")
    bands = []
    for part in re.split(r"[,;\n]", text):
        part = part.strip()
        if not part:
            continue
        match = _BAND.match(part)
        if match is None:
            raise PointsError(f"{part!r}: write a placing (or a range such as 3rd-4th) and its points.")
        first = int(match.group(1))
        last = int(match.group(2) or first)
        if not 1 <= first <= last <= MAX_PLACING:
            raise PointsError(f"{part!r}: the placings must run from the better to the worse, 1 or more.")
        bands.append(Band(first, last, _number(match.group(3), part)))
    if not bands:
        raise PointsError("Give at least one placing and its points, e.g. 1st 10, 2nd 8.")
    bands.sort(key=lambda b: b.first)
    for before, after in pairwise(bands):
        if after.first <= before.last:
            raise PointsError(f"Placing {after.first} is in two bands.")
        if after.points > before.points:
            raise PointsError(f"Placing {after.first} would earn more than placing {before.last}.")
    return tuple(bands)


def format_table(bands: tuple[Band, ...]) -> str:
    return ", ".join((f"{b.first}-{b.last}" if b.last != b.first else f"{b.first}") + f": {figure(b.points)}"
                     for b in bands)


def parse_tiers(text: str) -> dict[str, Fraction]:
    """Read "Store: 1, Regional: 2, National: 3": each tier's name and multiplier (names unique, ignoring case)."""
    if len(text) > MAX_TEXT:
        raise PointsError(f"The tier list is longer than {MAX_TEXT} characters.")
    tiers: dict[str, Fraction] = {}
    seen = set()
    for part in re.split(r"[,;\n]", text):
        part = part.strip()
        if not part:
            continue
        match = re.match(r"^(.{1,40}?)\s*[:=]\s*([0-9./]+)$", part)
        if match is None:
            raise PointsError(f"{part!r}: write a tier's name and its multiplier, e.g. Regional: 2.")
        name = " ".join(match.group(1).split())
        if name.casefold() in seen:
            raise PointsError(f"The tier {name} is named twice.")
        seen.add(name.casefold())
        tiers[name] = _number(match.group(2), part)
    return tiers


def format_tiers(tiers: dict[str, Fraction]) -> str:
    return ", ".join(f"{name}: {figure(m)}" for name, m in tiers.items())


@dataclass(frozen=True)
class Rules:
    """A series' scoring: the table, the participation point, how many results count (None: all), the field size
    whose points stand as written (None: no scaling by field), the tie-breaks' names in order
    (tie_breaks.TIE_BREAKS)."""

    bands: tuple[Band, ...]
    participation: Fraction = Fraction(0)
    best_n: Optional[int] = None
    field_reference: Optional[int] = None
    tie_breaks: tuple[str, ...] = ()


def placing_points(bands: tuple[Band, ...], placing: int) -> Fraction:
    for band in bands:
        if band.first <= placing <= band.last:
            return band.points
    return Fraction(0)


def event_points(rules: Rules, placing: int, field: int, multiplier: Fraction = Fraction(1)) -> Fraction:
    """One player's points from one event: the table's points for the placing, times field / reference when the
    series scales by field size, times the event's tier multiplier; plus the participation point (not scaled)."""
    points = placing_points(rules.bands, placing)
    if rules.field_reference:
        points *= Fraction(field, rules.field_reference)
    return points * multiplier + rules.participation

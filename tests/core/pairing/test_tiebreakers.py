"""The tiebreaker systems (app/core/pairing/tiebreakers.py): each format's default; the systems themselves are
checked by hand-computed events in tests/core/test_standings.py."""
from __future__ import annotations

from fractions import Fraction

from app.core.pairing.formats import Format
from app.core.pairing.tiebreakers import MTR_FLOOR, default_tiebreakers


def test_netrunner_formats_use_cobras_and_plain_swiss_the_mtr():
    assert default_tiebreakers(Format.SINGLE_SIDED) == default_tiebreakers("double") == "netrunner"
    assert default_tiebreakers(Format.PLAIN) == "magic"
    assert MTR_FLOOR == Fraction(33, 100)  # exact: a float 0.33 would compare unequal to the MTR's third

"""The helpers every template shares (app/web/template_helpers.py)."""


def test_tiebreakers_round_as_decimal_did():
    """The standings' integer formatting of tiebreakers matches Decimal's ROUND_HALF_UP, sign and all."""
    from decimal import ROUND_HALF_UP, Decimal
    from fractions import Fraction

    from app.web.template_helpers import _fixed

    for n in range(-2001, 2002, 7):
        for d in (1, 2, 3, 7, 8, 64, 2000, 4096):
            value = Fraction(n, d)
            for places in (1, 3):
                exact = (Decimal(n) / Decimal(d)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
                assert _fixed(value, places) == str(exact), (value, places)

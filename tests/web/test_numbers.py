"""Whole numbers a request names (app/web/numbers.py): ASCII digits within 64 bits, else no number (a form's
error, an address's 404), never a 500."""
from __future__ import annotations

from app.web.numbers import MAX_INT, whole_number


def test_ascii_digits_within_64_bits_are_numbers():
    assert whole_number("42") == 42 and whole_number(str(MAX_INT)) == MAX_INT
    assert whole_number("-7", signed=True) == -7


def test_anything_else_is_no_number():
    for text in ("-7", "³", "٣", "1_000", " 7 ", "", str(MAX_INT + 1), "9" * 20, None, 7):
        assert whole_number(text) is None, text


def test_an_id_past_64_bits_in_an_address_is_a_404(client):
    assert client.get("/tournaments/1").status_code == 302  # the route matches: log in first
    assert client.get("/tournaments/" + "9" * 20).status_code == 404

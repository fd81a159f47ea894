"""Where NetrunnerDB can send a player back after its sign-in (app/core/nrdb_sign_in.py): a public name only; a hall's
network, this computer, a bare IP or a local name never."""
from __future__ import annotations

import pytest

from app.core import nrdb_sign_in


@pytest.mark.parametrize("public_url", [
    "https://sass.example.org", "https://sass.example.org/", "https://tournaments.example.co.uk:8443/sass",
    "http://sass.example.org",
])
def test_a_public_name_can_sign_in(public_url):
    assert nrdb_sign_in.why_not(public_url) is None and nrdb_sign_in.possible(public_url)


@pytest.mark.parametrize("public_url, words", [
    ("", "PUBLIC_URL is not set"),
    ("   ", "PUBLIC_URL is not set"),
    ("http://192.168.1.20:5000", "a private range"),  # what `make venue` sets
    ("http://10.0.0.7:5000", "a private range"),
    ("http://172.16.4.2", "a private range"),
    ("http://[fd12:3456::1]:5000", "a private range"),
    ("http://127.0.0.1:5000", "this computer only"),
    ("http://[::1]:5000", "this computer only"),
    ("http://localhost:5000", "this computer only"),
    ("http://sass.localhost", "this computer only"),
    ("http://169.254.3.4:5000", "link-local"),
    ("http://[fe80::1]:5000", "link-local"),
    ("http://1.1.1.1", "a bare IP address"),
    ("https://8.8.8.8", "a bare IP address"),
    ("http://sass-laptop.local:5000", "only the local network knows"),
    ("http://SASS.LOCAL.", "only the local network knows"),
    ("http://sass.lan", "only the local network knows"),
    ("http://sass.home.arpa", "only the local network knows"),
    ("http://sass-laptop:5000", "a name without a domain"),
])
def test_a_local_address_cannot(public_url, words):
    why = nrdb_sign_in.why_not(public_url)
    assert why is not None and words in why and not nrdb_sign_in.possible(public_url)


def test_the_callback_address_is_public_url_and_the_callback_route():
    assert nrdb_sign_in.callback_address("https://sass.example.org/") == "https://sass.example.org/nrdb/callback"
    assert "PUBLIC_URL + /nrdb/callback" in nrdb_sign_in.WHAT_TO_DO

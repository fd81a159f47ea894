"""Whether this server may push (app/services/push/settings.py): only from a public https address unless told."""
from __future__ import annotations

import pytest

from app.services.push import settings


@pytest.mark.parametrize("mode, public, off", [
    ("auto", "https://sass.example.org", False),
    ("auto", "", True),  # a laptop used through its own address
    ("auto", "http://sass.example.org", True),  # browsers subscribe only from a secure page
    ("auto", "https://192.168.1.20:5000", True),  # a venue's network: no internet to reach the push services
    ("auto", "https://sass.local", True),
    ("on", "", False),
    ("off", "https://sass.example.org", True),
])
def test_push_is_offered_only_where_it_can_work(app, mode, public, off):
    app.config.update(PUSH=mode, PUBLIC_URL=public)
    why = settings.why_off(app)
    assert (why is not None) is off
    if off:
        assert "keep this page open" in why
    facts = settings.page(app)
    assert (facts["push_off"] is not None) is off and (facts["push_key"] is None) is off

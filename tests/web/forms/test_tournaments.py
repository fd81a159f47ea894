"""The new-event form keeps the score factor's default out of the way: under a closed "advanced" section,
opened only when the value needs attention (an error, or an event that changed it)."""
from __future__ import annotations

import re

import pytest

from app.web.forms.tournaments import default_score_factor


@pytest.fixture
def organizer(make_user, login):
    user = make_user()
    login()
    return user


def _advanced(page: str) -> str:
    match = re.search(r'<details class="advanced[^"]*"[^>]*>.*?</details>', page, re.S)
    assert match, "no advanced section"
    return match.group(0)


def test_score_factor_sits_closed_under_advanced(client, organizer):
    page = client.get("/tournaments/new").get_data(as_text=True)
    section = _advanced(page)
    assert 'name="score_factor"' in section and f'value="{default_score_factor()}"' in section
    assert " open" not in section.split(">", 1)[0]
    assert page.count('name="score_factor"') == 1
    assert "The default suits most events." in section


def test_advanced_opens_on_an_error_or_a_changed_value(client, organizer, make_tournament):
    response = client.post("/tournaments/new", data={"name": "X", "date": "2026-03-14", "format": "single",
                                                     "score_factor": "abc"})
    assert response.status_code == 422
    assert " open" in _advanced(response.get_data(as_text=True)).split(">", 1)[0]
    t = make_tournament(organizer, score_factor="5/2")
    page = client.get(f"/tournaments/{t.id}/edit").get_data(as_text=True)
    assert " open" in _advanced(page).split(">", 1)[0]
    assert "score factor 5/2" in client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    usual = make_tournament(organizer, name="Usual")
    assert "score factor" not in client.get(f"/tournaments/{usual.id}").get_data(as_text=True)

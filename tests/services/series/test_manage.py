"""A series' stored rules read back (app/services/series/manage.py): a stored tie-break SASS does not know is
reported on every page that reads it, never ignored, and the settings page lets the TO choose again."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Series
from app.services.series import manage

RULES = {"name": "Club League", "kind": "league", "points_table": "1st 10, 2nd 8", "participation": "0",
         "tie_breaks-0": "countback", "tie_breaks-1": "event_wins", "tie_breaks-2": "", "tie_breaks-3": "",
         "invite_top": "0"}


@pytest.fixture
def stored_unknown(client, make_user, login) -> Series:
    """A series whose stored tie-breaks name one SASS does not know (another version's, or a hand edit)."""
    make_user()
    login()
    assert client.post("/series/new", data=RULES).status_code == 303
    series = db.session.scalars(sa.select(Series)).one()
    series.tie_breaks = "countback,coin_toss"
    db.session.commit()
    return series


def test_the_stored_rules_are_read_through_the_registry(stored_unknown):
    with pytest.raises(manage.StoredRulesError, match="'coin_toss'"):
        manage.rules(stored_unknown)
    stored_unknown.tie_breaks = "event_wins,countback"
    assert manage.rules(stored_unknown).tie_breaks == ("event_wins", "countback")


def test_every_standings_page_reports_a_stored_unknown_tie_break(client, stored_unknown):
    for url in (f"/series/{stored_unknown.id}", f"/s/{stored_unknown.slug}", f"/s/{stored_unknown.slug}/standings.json",
                f"/s/{stored_unknown.slug}/standings.csv"):
        response = client.get(url)
        assert response.status_code == 409, url
        assert "coin_toss" in response.get_data(as_text=True) and "settings" in response.get_data(as_text=True)


def test_the_settings_page_names_it_and_choosing_again_mends_the_series(client, stored_unknown):
    page = client.get(f"/series/{stored_unknown.id}/edit").get_data(as_text=True)
    assert "The stored tie-break &#39;coin_toss&#39; is not one SASS knows" in page
    assert client.post(f"/series/{stored_unknown.id}/edit", data=RULES).status_code == 303
    assert db.session.get(Series, stored_unknown.id).tie_breaks == "countback,event_wins"
    assert client.get(f"/series/{stored_unknown.id}").status_code == 200


def test_an_unknown_tie_break_is_refused_on_input_and_nothing_changes(client, make_user, login):
    make_user()
    login()
    assert client.post("/series/new", data=RULES).status_code == 303
    series = db.session.scalars(sa.select(Series)).one()
    with pytest.raises(manage.PointsError, match="'coin_toss'"):
        manage.update(series, manage.Settings("Club League", "league", "1st 10", tie_breaks=("coin_toss",)))
    response = client.post(f"/series/{series.id}/edit", data={**RULES, "tie_breaks-1": "coin_toss"})
    assert response.status_code == 422 and "Unknown tie-break &#39;coin_toss&#39;" in response.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Series, series.id).tie_breaks == "countback,event_wins"

"""The series' heavy pages bounded (issue "Leagues, round two", point 4): the public standings built once per edition
(the series' and its events' versions) and shared by every worker through the page cache, a result in one event
working out that event's placings only; the managers' players page paged, with a search over every page."""
from __future__ import annotations

import pytest
import re
from datetime import date

from app import create_app
from app.extensions import db
from app.models import Series
from app.services.series import series_ratings
from app.services.series import standings as series_standings
from app.web import page_cache
from app.web.views import series as series_views
from tests.cut_helpers import add_players, add_round
from tests.web.views.test_series import _series, _small


def _another_worker(app):
    """Another gunicorn worker: its own app on the same database and shared page folder, nothing in its memory."""
    page_cache.clear_memory()
    series_standings.forget_cached()
    series_ratings.forget_cached()
    return create_app({key: app.config[key] for key in
                       ("TESTING", "SQLALCHEMY_DATABASE_URI", "PAGE_CACHE_DIR", "BACKUP_DIR", "NRDB_URL")})


@pytest.mark.slow
def test_the_public_standings_are_built_once_for_every_worker_until_a_result(app, client, make_user,
                                                                            make_tournament, login, monkeypatch):
    owner = make_user()
    login()
    series = _series(client)
    first, p1 = _small(owner, make_tournament, "Week 1", date(2026, 1, 5), ["Ann", "Ben", "Cat", "Dan"],
                       [[(0, 1, "corp"), (2, 3, "corp")]])
    second, p2 = _small(owner, make_tournament, "Week 2", date(2026, 1, 12), ["Eve", "Fay"], [[(0, 1, "corp")]])
    for t in (first, second):
        assert client.post(f"/series/{series.id}/events", data={"event": t.id}).status_code == 303
    anon = app.test_client()
    before = anon.get(f"/s/{series.slug}").get_data(as_text=True)
    assert before.index(">Eve<") < before.index(">Fay<")

    # a result in Week 2: its placings are worked out again, Week 1's are kept by its version
    worked = []
    placings = series_standings._placings
    monkeypatch.setattr(series_standings, "_placings", lambda t: worked.append(t.id) or placings(t))
    add_round(second, 2, [(p2[1], p2[0], "corp")])
    add_round(second, 3, [(p2[1], p2[0], "corp")])
    after = anon.get(f"/s/{series.slug}").get_data(as_text=True)
    assert worked == [second.id]
    assert after != before and after.index(">Fay<") < after.index(">Eve<")

    # another worker reads the page the first one built: nothing is built again
    other = _another_worker(app)

    def refuse(*_args):
        raise AssertionError("built again")

    monkeypatch.setattr(series_standings, "build", refuse)
    with other.app_context():
        assert other.test_client().get(f"/s/{series.slug}").get_data(as_text=True) == after
        monkeypatch.undo()
        # until a change: a result in Week 1 builds the page anew, in whichever worker asks first
        add_round(db.session.get(type(first), first.id), 2, [(db.session.get(type(p1[1]), p1[1].id),
                                                              db.session.get(type(p1[0]), p1[0].id), "corp")])
        changed = other.test_client().get(f"/s/{series.slug}").get_data(as_text=True)
        db.session.remove()
    assert changed != after
    assert anon.get(f"/s/{series.slug}").get_data(as_text=True) == changed
    family, _ = page_cache.key_of(series_views._pages_of(db.session.get(Series, series.id)), "standings")
    files = list(page_cache.folder().glob(f"{family}_*.page"))
    assert len(files) == 1, files  # the older editions are gone


def _names_on(page: str) -> list[str]:
    """The series player keys of the "Public names" rows shown."""
    return re.findall(r'id="name-([ae]\d+)"', page)


def test_the_players_page_is_paged_and_a_search_finds_a_player_on_any_page(client, make_user, make_tournament,
                                                                          login):
    owner = make_user()
    login()
    series = _series(client)
    t = make_tournament(owner, name="Big Week", date=date(2026, 3, 1), format="single")
    ps = add_players(t, [f"Player {i:03d}" for i in range(120)])
    add_round(t, 1, [(ps[i], ps[i + 1], "corp") for i in range(0, 120, 2)])
    assert client.post(f"/series/{series.id}/events", data={"event": t.id}).status_code == 303
    lines = series_standings.table(db.session.get(Series, series.id)).lines
    assert len(lines) == 120

    first = client.get(f"/series/{series.id}/players").get_data(as_text=True)
    assert _names_on(first) == [line.key for line in lines[:50]]
    assert 'aria-label="Pages of the players"' in first and "1–50 of 120" in first
    second = client.get(f"/series/{series.id}/players?page=2").get_data(as_text=True)
    assert _names_on(second) == [line.key for line in lines[50:100]]  # the next players
    assert re.search(r'<a href="[^"]*page=2[^"]*" aria-current="page">', second)
    assert _names_on(client.get(f"/series/{series.id}/players?page=3").get_data(as_text=True)) == \
        [line.key for line in lines[100:]]
    assert _names_on(client.get(f"/series/{series.id}/players?page=99").get_data(as_text=True)) == \
        [line.key for line in lines[100:]]  # out of range: the last page

    # a search finds a player on any page, folded as names are (case, spacing)
    wanted = lines[110]
    found = client.get(f"/series/{series.id}/players", query_string={"q": f"  {wanted.name.upper()} "})
    page = found.get_data(as_text=True)
    assert _names_on(page) == [wanted.key] and "1 player answers" in page
    assert _names_on(client.get(f"/series/{series.id}/players?q=nobody+here").get_data(as_text=True)) == []

    # a form sent from page 2 comes back to page 2
    response = client.post(f"/series/{series.id}/players/{lines[60].key}/name?page=2", data={"name": "Zed"})
    assert response.status_code == 303 and "page=2" in response.headers["Location"]
    assert "Zed" in client.get(response.headers["Location"]).get_data(as_text=True)

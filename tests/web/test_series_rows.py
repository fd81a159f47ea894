"""The series standings' rows drawn once while they stand (app/web/series_rows.py): after a result, a new public name
or a worker's restart, the pages are exactly what a worker drawing every row from nothing makes."""
from __future__ import annotations

from datetime import date

from app.extensions import db
from app.models import Series
from app.services.series import series_ratings
from app.services.series import standings as series_standings
from app.web import page_cache, series_rows
from tests.cut_helpers import add_round
from tests.web.views.test_series import _series, _small


def _from_nothing(client, path: str) -> str:
    """The page drawn by a worker that kept nothing (no rows, table, ratings nor page)."""
    page_cache.clear_memory()
    for file in page_cache.folder().glob("*.page"):
        file.unlink()
    series_rows.forget_cached()
    series_standings.forget_cached()
    series_ratings.forget_cached()
    return client.get(path).get_data(as_text=True)


def test_rows_kept_from_an_earlier_edition_draw_the_page_a_fresh_worker_draws(app, client, make_user,
                                                                             make_tournament, login):
    owner = make_user()
    login()
    series = _series(client)
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    first, p1 = _small(owner, make_tournament, "Week 1", date(2026, 1, 5), names,
                       [[(0, 1, "corp"), (2, 3, "corp"), (4, 5, "runner")]])
    second, p2 = _small(owner, make_tournament, "Week 2", date(2026, 1, 12), names[::-1],
                        [[(0, 1, "corp"), (2, 3, "runner"), (4, 5, "corp")]])
    for t in (first, second):
        assert client.post(f"/series/{series.id}/events", data={"event": t.id}).status_code == 303
    anon = app.test_client()
    public, staff = f"/s/{series.slug}", f"/series/{series.id}"
    pages = [anon.get(public).get_data(as_text=True), client.get(staff).get_data(as_text=True)]

    # a result in Week 2 moves players up and down: their points, wins, best placings and ranks change, also of
    # those who did not play it (their ratings stay)
    def idle():  # Week 2's last two players, who sit out its round 2
        table = series_standings.table(db.session.get(Series, series.id))
        return [(line.total, ratings.get(line.key)) for line in table.lines
                for ratings in [series_ratings.shown(db.session.get(Series, series.id), table)]
                if line.key in {table.roster.people.key_of[p.id] for p in p2[4:]}]
    before = idle()
    add_round(second, 2, [(p2[1], p2[0], "corp"), (p2[3], p2[2], "corp")])
    assert [rating for _, rating in idle()] == [rating for _, rating in before]
    assert [total for total, _ in idle()] != [total for total, _ in before]
    after = anon.get(public).get_data(as_text=True)
    staff_after = client.get(staff).get_data(as_text=True)
    assert (after, staff_after) != tuple(pages)
    assert after == _from_nothing(anon, public)
    assert staff_after == _from_nothing(client, staff)

    # a public name chosen (the series' version): that row is drawn again, every other kept
    key = series_standings.table(db.session.get(Series, series.id)).lines[3].key
    assert client.post(f"/series/{series.id}/players/{key}/name", data={"name": "Zed Zero"}).status_code == 303
    renamed = anon.get(public).get_data(as_text=True)
    assert ">Zed Zero</a>" in renamed and renamed == _from_nothing(anon, public)

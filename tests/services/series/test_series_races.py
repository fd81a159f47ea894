"""Two managers of one series acting at once (each on its own app and database connection, released together by a
barrier): the same event added twice, the same suggested match confirmed twice, the same player's invitation
recorded twice. Each leaves one row and a word for the loser, never a 500. Meant for PostgreSQL
(TEST_DATABASE_URL); runs on SQLite too."""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from cut_helpers import add_players, add_round
from tests.services.abr.test_abr_races import _at_once

from app import create_app
from app.extensions import db
from app.models import Series, SeriesEvent, SeriesLink, SeriesPlayer, Tournament, User
from app.services.series import manage, people


def _workers(database_uri: str, n: int):
    return [create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri}) for _ in range(n)]


def _in(worker, action):
    """Run `action(series, owner)` in the worker's own app and session; the error's words, or None."""
    def run():
        with worker.app_context():
            try:
                series = db.session.scalars(sa.select(Series)).one()
                action(series, db.session.get(User, series.owner_id))
                return None
            except manage.SeriesError as e:
                return str(e)
            finally:
                db.session.remove()
                db.engine.dispose()
    return run


@pytest.mark.slow
def test_racing_managers_leave_one_row_each(app, make_user, make_tournament, database_uri):
    owner = make_user()
    first = make_tournament(owner, name="Week 1")
    second = make_tournament(owner, name="Week 2")
    a1, b1 = add_players(first, ["Ann", "Ben"])
    a2, b2 = add_players(second, ["ann", "Dan"])
    add_round(first, 1, [(a1, b1, "corp")])
    add_round(second, 1, [(a2, b2, "corp")])
    series = manage.create(owner, manage.Settings(name="League", kind="league", points_table="1: 3, 2: 1"))
    manage.add_event(series, first)
    third = make_tournament(owner, name="Week 3")
    tid, entry, target = second.id, a2.id, f"e{a1.id}"  # plain values: the threads never touch this session

    def add(s, _owner):
        manage.add_event(s, db.session.get(Tournament, tid))
    words = _at_once([_in(w, add) for w in _workers(database_uri, 2)])
    assert sorted(words, key=str)[0] is None and words.count(None) == 1, words
    assert db.session.scalar(sa.select(sa.func.count()).select_from(SeriesEvent)) == 2

    words = _at_once([_in(w, lambda s, _o: people.confirm(s, entry, target)) for w in _workers(database_uri, 2)])
    assert words.count(None) == 1, words
    assert db.session.scalar(sa.select(sa.func.count()).select_from(SeriesLink)) == 1

    words = _at_once([_in(w, lambda s, _o: people.record(s, target, False, True, "busy"))
                      for w in _workers(database_uri, 3)])
    assert db.session.scalar(sa.select(sa.func.count()).select_from(SeriesPlayer)) == 1
    assert all(w is None or "try again" in w for w in words), words
    assert third.id  # an event of the owner's outside the series stays out of it


def test_two_link_alls_at_once_make_one_set_of_links(app, make_user, make_tournament, database_uri):
    owner = make_user()
    series = manage.create(owner, manage.Settings(name="League", kind="league", points_table="1: 3, 2: 1"))
    for week in range(3):
        t = make_tournament(owner, name=f"Week {week + 1}")
        a, b, c = add_players(t, ["Ann", "ben", "Cat"] if week % 2 else ["ann", "Ben", "cat"])
        add_round(t, 1, [(a, b, "corp"), (c, None, None)])
        manage.add_event(series, t)
    expected = len(people.roster(series).people.identical)
    assert expected == 6

    words = _at_once([_in(w, lambda s, _o: people.link_all(s)) for w in _workers(database_uri, 2)])
    # the second waits for the first (PostgreSQL: the series' row lock) and finds nothing left, or trips on the
    # first's links (SQLite) and says so: never a 500, never a second set
    assert None in words and all(w is None or "Another request just linked" in w for w in words), words
    db.session.expire_all()
    assert db.session.scalar(sa.select(sa.func.count()).select_from(SeriesLink)) == expected
    roster = people.roster(db.session.get(Series, series.id))
    assert len(roster.people.members) == 3 and roster.people.identical == []

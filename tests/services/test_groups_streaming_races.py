"""Event groups and streaming under real parallel requests (the app on a loopback port, each request on its own
connection). Meant for PostgreSQL (run with TEST_DATABASE_URL); SQLite runs the same tests."""
from __future__ import annotations

import sqlalchemy as sa

from app.extensions import db
from app.models import EventGroup, EventGroupMember, Player, Round
from tests.services.results.test_participation_races import event, fire, post, served, tables, to_opener  # noqa: F401, F811


def test_one_event_added_to_two_groups_at_once_joins_one(app, served, make_user):  # noqa: F811
    t = event(make_user, 4)
    groups = [EventGroup(owner_id=t.owner_id, name=f"Group {i}", slug=f"group-{i}") for i in range(2)]
    db.session.add_all(groups)
    db.session.commit()
    urls = [f"{served}/groups/{g.id}/events" for g in groups]
    to = to_opener(served)
    tid = t.id  # read here: the threads have no app context
    answers = fire([lambda u=u: post(to, u, {"tournament": tid}) for u in urls * 6], workers=12)
    assert sorted(answers) == [303] + [422] * 11
    db.session.expire_all()
    assert db.session.scalar(sa.select(sa.func.count(EventGroupMember.id))) == 1


def test_featuring_and_opting_out_at_once_never_feature_an_opted_out_player(app, served, make_user):  # noqa: F811
    t = event(make_user, 8)
    to = to_opener(served)
    feature = f"{served}/tournaments/{t.id}/rounds/1/feature"
    for match_id, corp, _runner in tables(t):
        number = next(m.table for m in db.session.scalars(sa.select(Round)).one().matches if m.id == match_id)
        edit, name = f"{served}/tournaments/{t.id}/players/{corp.id}/edit", corp.name  # no app context in threads
        answers = fire([lambda: post(to, feature, {"table": number}),
                        lambda: post(to, edit, {"name": name, "no_coverage": "y"})] * 3, workers=6)
        assert all(a in (302, 303) for a in answers), answers
        db.session.expire_all()
        featured = db.session.scalar(sa.select(Round.featured_table))
        shy = {p.id for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id, no_coverage=True))}
        assert corp.id in shy
        if featured is not None:  # the featured table has nobody who opted out
            seated = {s.player_id for m in db.session.scalars(sa.select(Round)).one().matches
                      if m.table == featured for s in m.seats}
            assert not seated & shy, (featured, seated, shy)

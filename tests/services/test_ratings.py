"""Seeding by rating for one event: off by default, the TO's switch in the settings, the players' explanation on
the public home, and round 1 paired by the ratings a registered source gives (never without the switch)."""
from __future__ import annotations

from fractions import Fraction

import pytest
import sqlalchemy as sa

from app.core import rating_fit
from app.core.pairing.formats import Side
from app.core.ratings import Game
from app.extensions import db
from app.models import Round, Tournament
from app.services import ratings

from tests.web.views.test_rounds import matches, pair, setup_event

SETTINGS = {"name": "Weekly", "date": "2026-03-14", "format": "single", "score_factor": "3/2", "planned_rounds": "",
            "tiebreakers": "magic", "round_minutes": "65"}


@pytest.fixture
def source():
    """A series stand-in: before this event, Ann beat everyone, Ben everyone but Ann, ... (a clear order by name
    index); Hal never played in the series (unrated: the mean). Records the events it was asked about."""
    asked = []

    def fn(t):
        asked.append(t.id)
        order = ["ann", "ben", "cat", "dan", "eve", "fay", "gus"]
        games = [Game(order[i], order[j], Fraction(1), Side.CORP if (i + j) % 2 else Side.RUNNER, period=k)
                 for k in range(3) for i in range(7) for j in range(i + 1, 7)]
        keys = {p.id: p.name.lower() for p in t.players if p.name != "Hal"}
        return games, keys

    ratings.register_rating_source(fn)
    yield asked
    ratings.unregister_rating_source(fn)


def test_the_switch_is_off_by_default_and_the_settings_form_sets_it(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login)
    assert t.seed_by_rating is False
    page = client.get(f"/tournaments/{t.id}/edit").get_data(as_text=True)
    assert "Seed by rating" in page and "never changes who meets whom by score" in page
    assert client.post(f"/tournaments/{t.id}/edit", data={**SETTINGS, "seed_by_rating": "y"}).status_code == 302
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).seed_by_rating is True
    # the switch alone promises players nothing: no round was seeded yet (nor could be: no rating source)
    assert 'id="seeding-note"' not in client.get(f"/t/{t.slug}").get_data(as_text=True)
    client.post(f"/tournaments/{t.id}/edit", data=SETTINGS)
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).seed_by_rating is False
    assert 'id="seeding-note"' not in client.get(f"/t/{t.slug}").get_data(as_text=True)


def test_round_one_folds_the_highest_rated_against_the_lowest_rated(make_user, make_tournament, login, source):
    client, t, players = setup_event(make_user, make_tournament, login, n=8, seed_by_rating=True)
    by_name = {p.name: p.id for p in players}
    strengths = ratings.strengths_before(t)
    assert set(strengths) == set(by_name.values())
    rated = [strengths[by_name[n]] for n in ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]]
    assert rated == sorted(rated, reverse=True) and len(set(rated)) == 7
    assert rated[3] - 1 <= strengths[by_name["Hal"]] <= rated[3] + 1  # unrated: the series' mean (Dan's, here)
    assert pair(client, t, 1).status_code == 303
    got = {frozenset(s.player_id for s in seats) for _, seats in matches(t, 1)}
    assert abs(strengths[by_name["Hal"]] - strengths[by_name["Dan"]]) <= 1  # a symmetric series: Dan is the mean
    # the fold: 1st-8th, 2nd-7th, 3rd-6th, 4th-5th; Dan and Hal (4th and 5th in either order) meet
    pairs = [("Ann", "Gus"), ("Ben", "Fay"), ("Cat", "Eve"), ("Dan", "Hal")]
    assert got == {frozenset((by_name[a], by_name[b])) for a, b in pairs}
    assert source == [t.id, t.id]
    # seeded, and said so to the players once the round is out
    assert db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id, number=1)).one().seeded_by_rating
    assert 'id="seeding-note"' not in client.get(f"/t/{t.slug}").get_data(as_text=True)  # not published yet
    assert client.post(f"/tournaments/{t.id}/rounds/1/publish").status_code < 400
    home = client.get(f"/t/{t.slug}").get_data(as_text=True)
    assert 'id="seeding-note"' in home and "Round 1 was paired with ratings" in home
    assert "the highest-rated player plays the lowest-rated" in home


def test_the_public_never_reads_of_ratings_when_nobody_had_one(make_user, make_tournament, login):
    """The switch is on, the source knows the event, but nobody in it has a rating: the round pairs as without
    ratings and the public page says nothing of them."""
    def nobody_rated(t):
        return [], {}

    ratings.register_rating_source(nobody_rated)
    try:
        client, t, _ = setup_event(make_user, make_tournament, login, n=8, seed_by_rating=True)
        assert ratings.seeding_before(t).rated == frozenset()
        assert pair(client, t, 1).status_code == 303
        assert client.post(f"/tournaments/{t.id}/rounds/1/publish").status_code < 400
        assert not db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id, number=1)).one().seeded_by_rating
        home = client.get(f"/t/{t.slug}").get_data(as_text=True)
        assert 'id="seeding-note"' not in home and "rating" not in home.lower()
    finally:
        ratings.unregister_rating_source(nobody_rated)


def test_without_the_switch_no_source_is_asked(make_user, make_tournament, login, source):
    client, t, _ = setup_event(make_user, make_tournament, login, n=8)
    assert pair(client, t, 1).status_code == 303
    assert source == []


def test_no_source_no_strengths(make_user, make_tournament, login):
    _, t, _ = setup_event(make_user, make_tournament, login, n=4, seed_by_rating=True)
    assert ratings.strengths_before(t) is None


def test_a_backup_carries_the_switch_and_a_restore_checks_it(make_user, make_tournament, login):
    import io
    import json

    import sqlalchemy as sa

    from app.services.event_files import backup

    client, t, _ = setup_event(make_user, make_tournament, login, n=4, seed_by_rating=True)
    doc = backup.backup(t)
    assert doc["tournament"]["seed_by_rating"] is True

    def restore(change):
        d = json.loads(json.dumps(doc))
        change(d["tournament"])
        return client.post("/tournaments/restore", data={"file": (io.BytesIO(json.dumps(d).encode()), "b.json")},
                           content_type="multipart/form-data")

    assert restore(lambda t: t.update(seed_by_rating="yes")).status_code == 400
    assert restore(lambda t: None).status_code in (302, 303)
    assert restore(lambda t: t.pop("seed_by_rating")).status_code in (302, 303)  # a backup made before the switch
    copies = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id).order_by(Tournament.id)).all()
    assert [c.seed_by_rating for c in copies] == [True, False]


def test_a_player_never_seen_starts_where_newcomers_are_and_the_fit_is_kept(make_user, make_tournament, login):
    """The strengths are the joint fit's (app/core/rating_fit.py): four founders play each other in the first event;
    four newcomers each lose to every founder in the second. An entry the source has never seen (Hal) starts at the
    newcomers' learnt mean, below the founders, not at the club's mean; a newcomer seen losing (Eve) is rated, and
    the round asks for the same games again without fitting them again."""
    founders, newcomers = ["ann", "ben", "cat", "dan"], ["eve", "n2", "n3", "n4"]
    games = [Game(a, b, Fraction(1, 2), Side.CORP, period=0) for k, a in enumerate(founders) for b in founders[k + 1:]]
    games += [Game(n, f, Fraction(0), Side.RUNNER, period=1) for n in newcomers for f in founders]

    def fn(t):
        return games, {p.id: p.name.lower() for p in t.players if p.name != "Hal"}

    ratings.register_rating_source(fn)
    try:
        _, t, players = setup_event(make_user, make_tournament, login, n=8, seed_by_rating=True)
        by_name = {p.name: p.id for p in players}
        fitted = rating_fit.fit(games)
        seeding = ratings.seeding_before(t)
        s = seeding.strengths
        assert s == fitted.strengths({pid: name.lower() for name, pid in by_name.items()})
        assert s[by_name["Hal"]] == round(1000 * fitted.newcomer) < -300
        assert s[by_name["Eve"]] < s[by_name["Hal"]] < min(s[by_name[n]] for n in ("Ann", "Ben", "Cat", "Dan"))
        assert by_name["Hal"] not in seeding.rated and by_name["Eve"] in seeding.rated
        before = len(ratings._FITTED)
        assert ratings.seeding_before(t) == seeding and len(ratings._FITTED) == before
    finally:
        ratings.unregister_rating_source(fn)

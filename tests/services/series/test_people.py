"""A league of regulars (docs/domain.md 14.4, 15.2): identical names linked in one step or by themselves, a
NetrunnerDB account joining its entries at once, a public name that stays, an old player link that still leads to
the player, the TO's seeding notice before pairing, and the series page counting an event's players."""
from __future__ import annotations

from datetime import date

import sqlalchemy as sa

from app.extensions import db
from app.models import NrdbAccount, Round, Series, SeriesLink, SeriesRejection, touch
from app.services import ratings
from app.services.results import participation
from app.services.series import people, seeding
from app.services.series import standings as series_standings
from tests.cut_helpers import add_players, add_round

from tests.web.views.test_series import _series, _small

REGULARS = ["Ann", "Ben", "Cat", "Dan"]
ROUNDS = [[(0, 1, "corp"), (2, 3, "corp")], [(0, 2, "corp"), (1, 3, "runner")]]


def _three_weeks(client, owner, make_tournament, third_names=("ann", "BEN", "Cät", "Dan", "Eve")):
    """Two played weeks of the same four (spelled alike but for case and accents), then a third, seeded by rating,
    not paired yet."""
    series = _series(client)
    w1, p1 = _small(owner, make_tournament, "Week 1", date(2026, 1, 5), REGULARS, ROUNDS)
    w2, p2 = _small(owner, make_tournament, "Week 2", date(2026, 1, 12), ["ann", "Ben", "Cat", "dan"], ROUNDS)
    w3 = make_tournament(owner, name="Week 3", date=date(2026, 1, 19), format="single", seed_by_rating=True)
    p3 = add_players(w3, list(third_names))
    for t in (w1, w2, w3):
        assert client.post(f"/series/{series.id}/events", data={"event": t.id, "tier": ""}).status_code == 303
    return db.session.get(Series, series.id), (w1, p1), (w2, p2), (w3, p3)


def _links():
    db.session.expire_all()
    return db.session.scalar(sa.select(sa.func.count()).select_from(SeriesLink))


def test_link_all_links_every_identical_name_once_each_with_an_undo(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    series, (w1, p1), (w2, p2), (w3, p3) = _three_weeks(client, owner, make_tournament)
    page = client.get(f"/series/{series.id}/players").get_data(as_text=True)
    assert "<strong>8 entries</strong> share their name" in page and 'id="link-all-button"' in page
    response = client.post(f"/series/{series.id}/players/link-all", data={}, follow_redirects=True)
    assert "Linked 8 entries by identical name" in response.get_data(as_text=True)
    assert _links() == 8
    table = series_standings.table(db.session.get(Series, series.id))
    assert [line.events for line in table.lines if line.key == f"e{p1[0].id}"] == [2]  # week 3 is not played yet
    assert {people.roster(series).people.key_of[p.id] for p in (p1[1], p2[1], p3[1])} == {f"e{p1[1].id}"}
    assert people.roster(series, suggest=True).people.suggestions == []
    # again: nothing left, nothing added
    response = client.post(f"/series/{series.id}/players/link-all", data={}, follow_redirects=True)
    assert "No identical names left to link." in response.get_data(as_text=True) and _links() == 8
    # each link has its undo: week 3's Ben stands alone again, and is suggested again
    assert client.post(f"/series/{series.id}/players/undo", data={"player": p3[1].id}).status_code == 303
    assert _links() == 7
    roster = people.roster(db.session.get(Series, series.id), suggest=True)
    assert roster.people.key_of[p3[1].id] == f"e{p3[1].id}"
    assert [s.player_id for s in roster.people.suggestions] == [p3[1].id]


def test_a_series_that_links_identical_names_by_itself(client, make_user, make_tournament, login):
    from tests.web.views.test_series import RULES

    owner = make_user()
    login()
    series, (w1, p1), _w2, (w3, p3) = _three_weeks(client, owner, make_tournament)
    assert series.link_identical is False
    assert client.post(f"/series/{series.id}/edit", data={**RULES, "link_identical": "y"}).status_code == 303
    series = db.session.get(Series, series.id)
    assert series.link_identical is True and _links() == 0  # nothing stored: the names join as they are read
    roster = people.roster(series, suggest=True)
    assert roster.people.key_of[p3[0].id] == f"e{p1[0].id}" and roster.people.suggestions == []
    seeded = ratings.seeding_before(w3)
    assert seeded.rated == {p.id for p in p3[:4]}  # Eve is new: no rating
    page = client.get(f"/series/{series.id}/players").get_data(as_text=True)
    assert "Joined by identical name" in page and "Different people" in page
    # "Different people": week 3's ann is kept apart, for good
    assert client.post(f"/series/{series.id}/players/separate", data={"player": p3[0].id}).status_code == 303
    roster = people.roster(db.session.get(Series, series.id), suggest=True)
    assert roster.people.key_of[p3[0].id] == f"e{p3[0].id}"
    assert p3[0].id not in {s.player_id for s in roster.people.suggestions}
    # a stale page: that entry is no longer joined by its name: a message, nothing changes
    before = db.session.scalar(sa.select(sa.func.count()).select_from(SeriesRejection))
    response = client.post(f"/series/{series.id}/players/separate", data={"player": p3[0].id},
                           follow_redirects=True)
    assert response.status_code == 200 and "not joined by its name" in response.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(SeriesRejection)) == before
    # an undo of a stored link holds even though the names would join it again
    client.post(f"/series/{series.id}/players/link-all", data={})
    assert client.post(f"/series/{series.id}/players/undo", data={"player": p3[1].id}).status_code == 303
    roster = people.roster(db.session.get(Series, series.id))
    assert roster.people.key_of[p3[1].id] == f"e{p3[1].id}"


def test_a_netrunnerdb_account_joins_its_entries_at_once_and_names_the_player(client, make_user, make_tournament,
                                                                              login):
    owner = make_user()
    login()
    account = NrdbAccount(nrdb_id=501, username="chloe_d")
    db.session.add(account)
    db.session.commit()
    series, (w1, p1), (w2, p2), (w3, p3) = _three_weeks(client, owner, make_tournament)
    for entry in (p1[0], p3[0]):  # week 1's Ann and week 3's ann signed in with the same account
        entry.nrdb_account_id = account.id
    db.session.commit()
    roster = people.roster(db.session.get(Series, series.id), suggest=True)
    assert roster.people.key_of[p1[0].id] == roster.people.key_of[p3[0].id] == f"a{account.id}"
    assert _links() == 0 and roster.name(f"a{account.id}") == "chloe_d"
    assert p3[0].id in ratings.seeding_before(w3).rated  # a rating at once, no confirmation


def test_a_public_name_is_the_most_used_spelling_or_the_tos_choice_and_stays(client, make_user, make_tournament,
                                                                             login):
    owner = make_user()
    login()
    series, (w1, p1), (w2, p2), (w3, p3) = _three_weeks(client, owner, make_tournament,
                                                        third_names=("chloe dupont", "Ben"))
    w0, p0 = _small(owner, make_tournament, "Week 0", date(2026, 1, 1), ["Chloé Dupont", "Zed"], [[(0, 1, "corp")]])
    w4, p4 = _small(owner, make_tournament, "Week 4", date(2026, 1, 26), ["Chloé Dupont"], [])
    for t in (w0, w4):
        client.post(f"/series/{series.id}/events", data={"event": t.id, "tier": ""})
    client.post(f"/series/{series.id}/players/link-all", data={})
    series = db.session.get(Series, series.id)
    roster = people.roster(series)
    chloe = roster.people.key_of[p0[0].id]
    assert roster.people.key_of[p3[0].id] == chloe
    assert roster.name(chloe) == "Chloé Dupont"  # twice against once: the newest lower case does not win
    ben = roster.people.key_of[p1[1].id]
    assert roster.name(ben) == "Ben"  # Ben twice, BEN never here (this week 3 spells it Ben)
    dan = roster.people.key_of[p1[3].id]
    assert roster.name(dan) == "Dan"  # Dan once, dan once: the earliest
    public = client.get(f"/s/{series.slug}").get_data(as_text=True)
    assert "Chloé Dupont" in public and "chloe dupont" not in public
    # the TO's choice wins, and an empty one goes back to the rule
    assert client.post(f"/series/{series.id}/players/{chloe}/name", data={"name": "  Chloé  D. "}).status_code == 303
    assert people.roster(db.session.get(Series, series.id)).name(chloe) == "Chloé D."
    assert "Chloé D." in client.get(f"/s/{series.slug}").get_data(as_text=True)
    # chosen under the key of an entry matched away later, it still holds
    late = people.roster(db.session.get(Series, series.id))
    assert late.name(late.people.key_of[p4[0].id]) == "Chloé D."
    # bad input: too long, or nobody: a message, nothing changes
    response = client.post(f"/series/{series.id}/players/{chloe}/name", data={"name": "x" * 81},
                           follow_redirects=True)
    assert response.status_code == 200 and "80" in response.get_data(as_text=True)
    response = client.post(f"/series/{series.id}/players/e999999/name", data={"name": "Nobody"},
                           follow_redirects=True)
    assert response.status_code == 200 and "No such player" in response.get_data(as_text=True)
    assert people.roster(db.session.get(Series, series.id)).name(chloe) == "Chloé D."
    client.post(f"/series/{series.id}/players/{chloe}/name", data={"name": ""})
    assert people.roster(db.session.get(Series, series.id)).name(chloe) == "Chloé Dupont"


def test_an_old_public_player_link_leads_to_the_matched_player(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    series, (w1, p1), (w2, p2), _w3 = _three_weeks(client, owner, make_tournament)
    old = f"/s/{series.slug}/players/e{p2[0].id}"  # week 2's ann, standing alone: her own page
    assert client.get(old).status_code == 200
    client.post(f"/series/{series.id}/players/link-all", data={})
    response = client.get(old)
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/players/e{p1[0].id}")
    assert client.get(response.headers["Location"]).status_code == 200
    assert client.get(f"/s/{series.slug}/players/e999999").status_code == 404  # nobody: still a 404


def test_the_seeding_notice_counts_the_unrated_and_links_them_in_one_step(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    series, _w1, _w2, (w3, p3) = _three_weeks(client, owner, make_tournament)
    page = client.get(f"/tournaments/{w3.id}").get_data(as_text=True)
    assert "Seeding by rating is on" in page
    assert '<strong id="seeding-count">5 of 5 have no rating</strong>, so ratings seed nothing yet' in page
    assert "ann, BEN, Cät, Dan, Eve" in page
    assert "4 of them share their name" in page and 'id="seeding-link-all"' in page
    rounds_page = client.get(f"/tournaments/{w3.id}/rounds").get_data(as_text=True)
    assert "5 of 5 have no rating" in rounds_page and 'id="seeding-link-all"' in rounds_page
    notice = seeding.notice(w3)
    assert (notice.players, notice.rated, notice.unrated, notice.linkable) == (5, 0, ("ann", "BEN", "Cät", "Dan",
                                                                                      "Eve"), 4)
    # the one step, from the dashboard, back to the dashboard
    response = client.post(f"/series/{series.id}/players/link-all", data={"event": w3.id})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/tournaments/{w3.id}#seeding")
    page = client.get(f"/tournaments/{w3.id}").get_data(as_text=True)
    assert "1 of 5 have no rating" in page and "Eve" in page and 'id="seeding-link-all"' not in page
    # paired now: seeded, and the players read it once it is published
    assert client.post(f"/tournaments/{w3.id}/rounds/pair", data={"number": 1}).status_code == 303
    assert db.session.scalars(sa.select(Round).filter_by(tournament_id=w3.id)).one().seeded_by_rating
    client.post(f"/tournaments/{w3.id}/rounds/1/publish")
    assert 'id="seeding-note"' in client.get(f"/t/{w3.slug}").get_data(as_text=True)


def test_without_seeding_no_notice_and_an_event_of_no_series_says_so(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    plain = make_tournament(owner, name="Casual")
    add_players(plain, ["Ann", "Ben"])
    assert "Seeding by rating is on" not in client.get(f"/tournaments/{plain.id}").get_data(as_text=True)
    alone = make_tournament(owner, name="Alone", seed_by_rating=True)
    add_players(alone, ["Ann", "Ben"])
    page = client.get(f"/tournaments/{alone.id}").get_data(as_text=True)
    assert "Seeding by rating is on" in page and "counts in no series" in page


def test_the_series_page_counts_the_players_of_an_event_under_way(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    series = _series(client)
    t = make_tournament(owner, name="Week 1", date=date(2026, 1, 5), format="single")
    ps = add_players(t, [f"Player {i}" for i in range(10)])
    client.post(f"/series/{series.id}/events", data={"event": t.id, "tier": ""})
    page = client.get(f"/series/{series.id}").get_data(as_text=True)
    assert "not started" in page and '<td class="num">10</td>' in page  # registered: counted already
    add_round(t, 1, [(ps[i], ps[i + 1], None) for i in range(0, 10, 2)])  # published, no result yet
    page = client.get(f"/series/{series.id}").get_data(as_text=True)
    assert "not started" not in page and "in progress" in page and '<td class="num">10</td>' in page
    public = client.get(f"/s/{series.slug}").get_data(as_text=True)
    assert "10 players" in public and "not started" not in public


def test_the_series_api_counts_who_played_and_starts_an_event_at_its_published_round_1(client, make_user,
                                                                                      make_tournament, login):
    """docs/api.md's `field` and `started`: every entry but those out before their first game; a round published."""
    owner = make_user()
    login()
    series = _series(client)
    t = make_tournament(owner, name="Week 1", date=date(2026, 1, 5), format="single")
    ps = add_players(t, [f"Player {i}" for i in range(6)])
    client.post(f"/series/{series.id}/events", data={"event": t.id, "tier": ""})

    def event():
        return client.get(f"/s/{series.slug}/standings.json").get_json()["events"][0]

    assert (event()["field"], event()["started"]) == (6, False)
    participation.drop(t, ps[5])  # out before they ever sat at a table: not in the field
    assert (event()["field"], event()["started"]) == (5, False)
    add_round(t, 1, [(ps[0], ps[1], None), (ps[2], ps[3], None), (ps[4], None, None)], published=False)
    assert (event()["field"], event()["started"]) == (5, False)  # paired, not published
    db.session.execute(sa.update(Round).where(Round.tournament_id == t.id).values(published=True))
    touch(db.session, [t.id])
    db.session.commit()
    assert (event()["field"], event()["started"]) == (5, True)  # published, no result in yet
    participation.drop(t, ps[0])  # dropped after sitting down: still counted
    assert (event()["field"], event()["started"]) == (5, True)

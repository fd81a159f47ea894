"""Rounds for the TO: pair, double-click, unpairable fields, undo, publish, manual edits and their warnings."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Player, Round, Seat
from app.core.pairing import Format
from app.services.swiss import rounds as service

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]


def setup_event(make_user, make_tournament, login, n=8, fmt="single", email="to@example.com", c=None, **fields):
    """A logged-in TO's tournament with `n` players; returns (client, tournament, players)."""
    owner = make_user(email=email)
    t = make_tournament(owner, format=fmt, **fields)
    players = [Player(tournament_id=t.id, name=name) for name in NAMES[:n]]
    db.session.add_all(players)
    db.session.commit()
    return login(email=email, c=c), t, players


def pair(client, t, number):
    return client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": number})


def matches(t, number):
    """(match, [seats in position order]) of a round, fresh from the database."""
    db.session.expire_all()
    rnd = db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id, number=number)).one()
    return [(m, sorted(m.seats, key=lambda s: s.position)) for m in rnd.matches]


def report_all(client, t, number, result="corp", past=False):
    """Every table of round `number` gets `result`; `past`: the TO chose "Edit results" (a later round exists)."""
    for m, _ in matches(t, number):
        if not m.is_bye:
            data = {"result": result, "past": "1"} if past else {"result": result}
            r = client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data=data)
            assert r.status_code == 303, r.get_data(as_text=True)[:300]


def count(model, **where):
    db.session.expire_all()
    return db.session.scalar(sa.select(sa.func.count()).select_from(model).filter_by(**where))


@pytest.fixture
def event(make_user, make_tournament, login):
    return setup_event(make_user, make_tournament, login)


def test_pair_writes_a_full_round(event):
    client, t, players = event
    r = pair(client, t, 1)
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/tournaments/{t.id}/rounds/1")
    ms = matches(t, 1)
    assert len(ms) == 4
    seated = [s.player_id for _, seats in ms for s in seats]
    assert sorted(seated) == sorted(p.id for p in players)
    assert all([s.side for s in seats] == ["corp", "runner"] for _, seats in ms)
    assert all(m.result is None for m, _ in ms)
    page = client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert "Corp win" in page and "Publish round 1" in page and "Runner win" in page


def test_odd_field_bye_is_scored_at_once(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=5)
    assert pair(client, t, 1).status_code == 303
    ms = matches(t, 1)
    byes = [(m, seats) for m, seats in ms if m.is_bye]
    assert len(byes) == 1
    m, (seat,) = byes[0]
    assert m.result == "bye" and seat.points == Format.SINGLE_SIDED.scoring.bye and seat.side is None
    assert m.table == max(x.table for x, _ in ms)


def test_double_post_of_pair_makes_one_round(event):
    client, t, _ = event
    assert pair(client, t, 1).status_code == 303
    second = pair(client, t, 1)
    assert second.status_code == 303
    assert "already paired" in client.get(second.headers["Location"]).get_data(as_text=True)
    assert count(Round, tournament_id=t.id) == 1
    assert count(Seat, tournament_id=t.id) == 8


def test_lost_race_on_the_unique_constraint_writes_nothing(event, monkeypatch):
    """Two requests computed the same next number; the second insert hits UNIQUE(tournament, number)."""
    client, t, _ = event
    assert pair(client, t, 1).status_code == 303
    report_all(client, t, 1)
    monkeypatch.setattr(service, "latest_number", lambda _t: 0)  # this request did not see round 1
    monkeypatch.setattr(service.state, "completed_games", lambda _t, before_round=None: [])
    with pytest.raises(service.AlreadyPaired):
        service.pair_next_round(t, 1)
    assert count(Round, tournament_id=t.id) == 1
    assert count(Match, tournament_id=t.id) == 4


def test_refuses_to_pair_with_results_missing(event):
    client, t, _ = event
    pair(client, t, 1)
    first, *rest = [m for m, _ in matches(t, 1)]
    client.post(f"/tournaments/{t.id}/matches/{first.id}/result", data={"result": "corp"})
    r = pair(client, t, 2)
    assert "3 unreported results" in client.get(r.headers["Location"]).get_data(as_text=True)
    assert count(Round, tournament_id=t.id) == 1
    report_all(client, t, 1)
    assert pair(client, t, 2).status_code == 303
    assert count(Round, tournament_id=t.id) == 2


def test_unpairable_field_names_players_and_writes_nothing(make_user, make_tournament, login):
    """Double-sided swiss forbids rematches: two players who met already cannot be paired again."""
    client, t, (a, b) = setup_event(make_user, make_tournament, login, n=2, fmt="double")
    assert pair(client, t, 1).status_code == 303
    report_all(client, t, 1, "6-0")
    r = pair(client, t, 2)
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "cannot be paired" in page and "Ann" in page and "Ben" in page
    assert count(Round, tournament_id=t.id) == 1
    assert count(Seat, tournament_id=t.id) == 2


def test_no_active_players(event):
    client, t, players = event
    for p in players:
        p.dropped = True
    db.session.commit()
    r = pair(client, t, 1)
    assert "no active players" in client.get(r.headers["Location"]).get_data(as_text=True)
    assert count(Round, tournament_id=t.id) == 0


def test_pair_garbage_number(event):
    client, t, _ = event
    for number in ["", "abc", "0", "-1", "9" * 10_000, "2", "1.5"]:
        assert pair(client, t, number).status_code in (303, 400), number
    assert client.post(f"/tournaments/{t.id}/rounds/pair").status_code == 400
    assert count(Round, tournament_id=t.id) == 0


def test_undo_latest_round_only(event):
    client, t, _ = event
    pair(client, t, 1)
    report_all(client, t, 1)
    pair(client, t, 2)
    r = client.post(f"/tournaments/{t.id}/rounds/1/undo")
    assert "Only the latest round" in client.get(r.headers["Location"]).get_data(as_text=True)
    assert count(Round, tournament_id=t.id) == 2
    assert client.post(f"/tournaments/{t.id}/rounds/2/undo").status_code == 303
    assert count(Round, tournament_id=t.id) == 1
    assert count(Seat, tournament_id=t.id) == 8
    assert count(Match, tournament_id=t.id) == 4
    assert pair(client, t, 2).status_code == 303  # re-pair
    assert count(Round, tournament_id=t.id) == 2


def test_publish(event):
    client, t, _ = event
    pair(client, t, 1)
    assert client.post(f"/tournaments/{t.id}/rounds/1/publish").status_code == 303
    assert db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id)).one().published
    assert client.post(f"/tournaments/{t.id}/rounds/7/publish").status_code == 404


def test_pages(event):
    client, t, _ = event
    assert "Pair round 1" in client.get(f"/tournaments/{t.id}/rounds").get_data(as_text=True)
    pair(client, t, 1)
    index = client.get(f"/tournaments/{t.id}/rounds").get_data(as_text=True)
    assert "Round 1" in index and "0 / 4" in index and "not published" in index
    assert client.get(f"/tournaments/{t.id}/rounds/2").status_code == 404
    assert client.get(f"/tournaments/{t.id}/rounds/{2**40}").status_code == 404
    assert client.get(f"/tournaments/{2**40}/rounds").status_code == 404
    assert client.post(f"/tournaments/{2**40}/matches/1/result", data={"result": "corp"}).status_code == 404


def test_round_page_shows_pair_next_when_complete(event):
    client, t, _ = event
    pair(client, t, 1)
    client.post(f"/tournaments/{t.id}/rounds/1/publish")
    assert "Pair round 2" not in client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    report_all(client, t, 1)
    assert "Pair round 2" in client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)


# ---------------------------------------------------------------- manual edits

def edit(client, t, number, action, first, second=None):
    data = {"action": action, "first": first}
    if second is not None:
        data["second"] = second
    return client.post(f"/tournaments/{t.id}/rounds/{number}/edit", data=data)


def table_of(t, number):
    """player id -> (table, position)"""
    return {s.player_id: (m.table, s.position) for m, seats in matches(t, number) for s in seats}


def test_swap_players_between_tables(event):
    client, t, _ = event
    pair(client, t, 1)
    before = table_of(t, 1)
    (_, (a, _)), (_, (_, d)) = matches(t, 1)[:2]
    a, d = a.player_id, d.player_id
    r = edit(client, t, 1, "swap", a, d)
    assert r.status_code == 303
    after = table_of(t, 1)
    assert after[a] == before[d] and after[d] == before[a]
    assert count(Seat, tournament_id=t.id) == 8
    seats = {s.player_id: s for _, ss in matches(t, 1) for s in ss}
    assert seats[d].side == "corp" and seats[a].side == "runner"


def test_swap_sides(event):
    client, t, _ = event
    pair(client, t, 1)
    m, (corp, runner) = matches(t, 1)[0]
    mid, corp, runner = m.id, corp.player_id, runner.player_id
    assert edit(client, t, 1, "sides", runner).status_code == 303
    _, (c2, r2) = [x for x in matches(t, 1) if x[0].id == mid][0]
    assert (c2.player_id, c2.side, r2.player_id, r2.side) == (runner, "corp", corp, "runner")


def test_sides_only_in_single_sided(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, fmt="double")
    pair(client, t, 1)
    m, (a, b) = matches(t, 1)[0]
    a, b = a.player_id, b.player_id
    r = edit(client, t, 1, "sides", a)
    assert "Only single-sided" in client.get(r.headers["Location"]).get_data(as_text=True)
    assert [s.player_id for s in matches(t, 1)[0][1]] == [a, b]


def test_make_bye_in_even_field_warns_and_join_repairs(event):
    client, t, _ = event
    pair(client, t, 1)
    m, (a, b) = matches(t, 1)[0]
    a, b = a.player_id, b.player_id
    r = edit(client, t, 1, "bye", a)
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "2 players have a bye this round" in page
    ms = matches(t, 1)
    byes = {seats[0].player_id: m for m, seats in ms if m.is_bye}
    assert set(byes) == {a, b}
    assert all(m.result == "bye" for m in byes.values())
    assert count(Seat, tournament_id=t.id) == 8
    r = edit(client, t, 1, "join", a, b)
    assert r.status_code == 303
    ms = matches(t, 1)
    assert not any(m.is_bye for m, _ in ms) and len(ms) == 4
    assert "a bye this round" not in client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)


def test_make_bye_in_odd_field_moves_the_bye(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=5)
    pair(client, t, 1)
    (_, (holder,)), = [(m, s) for m, s in matches(t, 1) if m.is_bye]
    m, (a, _) = matches(t, 1)[0]
    a, holder = a.player_id, holder.player_id
    assert edit(client, t, 1, "bye", a).status_code == 303
    now = {s.player_id: (m.is_bye, s.points) for m, seats in matches(t, 1) for s in seats}
    assert now[a] == (True, 3) and now[holder] == (False, None)
    assert len(matches(t, 1)) == 3


def test_second_bye_and_rematch_warnings(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=3)
    pair(client, t, 1)
    report_all(client, t, 1)
    (_, (holder,)), = [(m, s) for m, s in matches(t, 1) if m.is_bye]
    (_, (corp1, runner1)), = [(m, s) for m, s in matches(t, 1) if not m.is_bye]
    holder, corp1, runner1 = holder.player_id, corp1.player_id, runner1.player_id
    pair(client, t, 2)
    # give round 1's bye holder the bye again
    page = client.get(edit(client, t, 2, "bye", holder).headers["Location"]).get_data(as_text=True)
    assert "would get a second bye" in page
    # now round 1's Corp and Runner play each other with the same sides
    game = [seats for m, seats in matches(t, 2) if not m.is_bye][0]
    names = {p.id: p.name for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id))}
    assert {s.player_id for s in game} == {corp1, runner1}
    if game[0].player_id != corp1:
        edit(client, t, 2, "sides", corp1)
    page = client.get(f"/tournaments/{t.id}/rounds/2").get_data(as_text=True)
    assert f"{names[corp1]} and {names[runner1]} met before with the same sides" in page
    assert "would be Corp +2" in page


def test_edits_refused_after_results_and_for_strangers(event):
    client, t, players = event
    pair(client, t, 1)
    before = table_of(t, 1)
    (m, (a, _)), (_, (c, _)) = matches(t, 1)[:2]
    client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "corp"})
    r = edit(client, t, 1, "swap", a.player_id, c.player_id)
    assert "before any result" in client.get(r.headers["Location"]).get_data(as_text=True)
    assert table_of(t, 1) == before


def test_edit_garbage(event):
    client, t, _ = event
    pair(client, t, 1)
    before = table_of(t, 1)
    for data in [
        {}, {"action": "swap"}, {"action": "swap", "first": "x"}, {"action": "nope", "first": "1"},
        {"action": "swap", "first": "1" * 10_000, "second": "2"}, {"action": "x" * 10_000, "first": "1"},
        {"action": "swap", "first": "999999", "second": "999998"}, {"action": "bye", "first": str(2**40)},
        {"action": "join", "first": "1", "second": "2"}, {"action": ["swap", "bye"], "first": ["1", "2"]},
    ]:
        r = client.post(f"/tournaments/{t.id}/rounds/1/edit", data=data)
        assert r.status_code in (303, 400), data
        assert table_of(t, 1) == before, data


def test_edit_with_another_tournaments_player(event, make_user, make_tournament, login):
    client, t, _ = event
    pair(client, t, 1)
    other = make_tournament(make_user(email="other@example.com"), name="Other")
    stranger = Player(tournament_id=other.id, name="Mallory")
    db.session.add(stranger)
    db.session.commit()
    (_, (a, _)) = matches(t, 1)[0]
    before = table_of(t, 1)
    r = edit(client, t, 1, "swap", a.player_id, stranger.id)
    assert "in this round" in client.get(r.headers["Location"]).get_data(as_text=True)
    assert table_of(t, 1) == before
    assert edit(client, t, 9, "swap", a.player_id, stranger.id).status_code == 404
    # Adding to the round: never another event's player, a dropped one, or one seated already.
    gone = Player(tournament_id=t.id, name="Gone", dropped=True)
    db.session.add(gone)
    db.session.commit()
    for first, second, message in ((stranger.id, None, "a player of this tournament"),
                                   (gone.id, None, "has dropped"), (a.player_id, None, "in this round already"),
                                   (gone.id, a.player_id, "has dropped")):
        r = edit(client, t, 1, "add", first, second)
        assert message in client.get(r.headers["Location"]).get_data(as_text=True), message
        assert table_of(t, 1) == before
    r = edit(client, t, 1, "remove", a.player_id, stranger.id)
    assert "one who has a bye" in client.get(r.headers["Location"]).get_data(as_text=True)
    assert table_of(t, 1) == before


def test_csrf_is_required(csrf_app, make_user, make_tournament):
    client = csrf_app.test_client()
    user = make_user()
    t = make_tournament(user)
    with client.session_transaction() as s:
        s["_user_id"] = user.get_id()
        s["_fresh"] = True
    assert pair(client, t, 1).status_code == 400
    assert count(Round, tournament_id=t.id) == 0


"""Ratings from every event on the server by identity (docs/domain.md 15.2): an event of one series knows a player
from another town's series, or from an event of no series, by their NetrunnerDB account or a TO's confirmed match,
never by a name alone; later events are not read."""
from __future__ import annotations

from datetime import date

from app.extensions import db
from app.models import NrdbAccount, Series, SeriesEvent, SeriesLink
from app.services import ratings, server_ratings
from tests.cut_helpers import add_players, add_round


def _event(make_tournament, owner, name, day, names, series=(), **fields):
    t = make_tournament(owner, name=name, date=date(2026, 1, day), **fields)
    for s in series:
        db.session.add(SeriesEvent(series_id=s.id, tournament_id=t.id))
    db.session.commit()
    return t, add_players(t, names)


def _sweep(t, players, number=1):
    """The first player beats the second, the third the fourth (first seat: the Corp)."""
    add_round(t, number, [(players[0], players[1], "corp"), (players[2], players[3], "corp")])
    db.session.commit()


def test_a_player_is_known_across_series_by_account_or_a_confirmed_match(make_user, make_tournament):
    owner = make_user()
    north, south, circuit = (Series(owner_id=owner.id, name=n, slug=n.lower()) for n in ("North", "South", "Circuit"))
    account = NrdbAccount(nrdb_id=7, username="ann")
    db.session.add_all([north, south, circuit, account])
    db.session.commit()
    # an event of no series: Ann (signed in) wins twice; South's week: Bob wins twice
    alone, (ann0, x0, y0, z0) = _event(make_tournament, owner, "Open", 3, ["Ann", "Xia", "Yan", "Zoe"])
    ann0.nrdb_account_id = account.id
    _sweep(alone, [ann0, x0, y0, z0])
    _sweep(alone, [ann0, y0, x0, z0], 2)
    week, (bob1, cal1, dee1, eli1) = _event(make_tournament, owner, "South 1", 5, ["Bob", "Cal", "Dee", "Eli"],
                                            [south])
    _sweep(week, [bob1, cal1, dee1, eli1])
    _sweep(week, [bob1, dee1, cal1, eli1], 2)
    # North's event seeds by rating; it also counts in the circuit, where the TO confirmed its Bob is South's
    t, (ann, bob, cal, new) = _event(make_tournament, owner, "North 1", 12, ["Ann", "Bob", "Cal", "Ned"],
                                     [north, circuit], seed_by_rating=True)
    db.session.add(SeriesEvent(series_id=circuit.id, tournament_id=week.id))
    ann.nrdb_account_id = account.id
    db.session.add(SeriesLink(series_id=circuit.id, player_id=bob.id, target_player_id=bob1.id))
    db.session.commit()
    # a later event never counts: Ann and Bob lose everything there
    later, (x9, ann9, y9, z9) = _event(make_tournament, owner, "Later", 20, ["Xia", "Ann", "Yan", "Zoe"], [north])
    ann9.nrdb_account_id = account.id
    _sweep(later, [x9, ann9, y9, z9])

    games, keys = server_ratings.games_before(t)
    assert {g.period for g in games} == {alone.id, week.id}
    assert keys[ann.id] == f"a{account.id}" and keys[bob.id] == f"e{bob1.id}"
    assert keys[cal.id] == f"e{cal.id}"  # same name as South's Cal, nobody confirmed it: a stranger
    seeding = ratings.seeding_before(t)
    assert seeding.rated == frozenset({ann.id, bob.id})
    s = seeding.strengths
    assert s[ann.id] > s[new.id] and s[bob.id] > s[new.id] and s[cal.id] == s[new.id]  # the unrated: the prior


def test_an_event_of_no_series_has_no_source(make_user, make_tournament):
    owner = make_user()
    t, _ = _event(make_tournament, owner, "Open", 3, ["Ann", "Bob"], seed_by_rating=True)
    assert server_ratings.games_before(t) is None
    assert ratings.strengths_before(t) is None

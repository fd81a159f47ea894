"""Series through their pages: rules, events (one's own only), standings from each event's final placings (the cut
first), players across events (accounts, confirmed names, undo), invitations passing down, exports, privacy."""
from __future__ import annotations

import csv
import io
from datetime import date
from fractions import Fraction

import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Player, Series, SeriesEvent, SeriesLink, NrdbAccount
from app.services import ratings, server_ratings, state
from app.services.series import people
from app.services.series import series_ratings
from app.services.series import standings as series_standings
from app.services.series.games import series_games
from tests.cut_helpers import add_players, add_round, fixture_event

RULES = {"name": "Club League", "kind": "league", "points_table": "1st 10, 2nd 8, 3rd-4th 6, 5th-8th 4",
         "participation": "1", "best_n": "2", "field_reference": "", "tiers": "Store: 1, Regional: 2",
         "tie_breaks-0": "countback", "tie_breaks-1": "", "tie_breaks-2": "", "tie_breaks-3": "",
         "invite_top": "2", "invite_winners": ""}


def _series(client) -> Series:
    response = client.post("/series/new", data=RULES)
    assert response.status_code == 303, response.get_data(as_text=True)
    return db.session.scalars(sa.select(Series)).one()


def _small(owner, make_tournament, name, day, names, rounds):
    """A single-sided event of these players, `rounds` given as (corp, runner, result) by index."""
    t = make_tournament(owner, name=name, date=day, format="single")
    ps = add_players(t, names)
    for number, tables in enumerate(rounds, 1):
        add_round(t, number, [(ps[a], ps[b] if b is not None else None, key) for a, b, key in tables])
    return t, ps


def test_a_series_adds_up_its_events_placings(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    series = _series(client)
    first, p1 = _small(owner, make_tournament, "Week 1", date(2026, 1, 5), ["Ann", "Ben", "Cat"],
                       [[(0, 1, "corp"), (2, None, None)], [(2, 0, "runner"), (1, None, None)]])
    second, p2 = _small(owner, make_tournament, "Week 2", date(2026, 1, 12), ["ann", "Dan"], [[(1, 0, "corp")]])
    for t in (first, second):
        response = client.post(f"/series/{series.id}/events", data={"event": t.id, "tier": "regional" if t is second
                                                                       else ""})
        assert response.status_code == 303, response.get_data(as_text=True)
    # Week 1: Ann 6 pts (win + win as Runner), Cat 3, Ben 3... swiss order decides placings
    table = series_standings.table(db.session.get(Series, series.id))
    placing = {line.name: [(r.placing, r.points) for r in line.results] for line in table.lines}
    week1 = {s.player: s.rank for s in state.standings(first, published_only=True)}
    ann_rank = week1[p1[0].id]
    assert ann_rank == 1 and placing["Ann"] == [(1, Fraction(11))]  # 10 + participation 1
    # 'ann' of week 2 is a different entry until the TO confirms: suggested, not merged
    assert placing["ann"] == [(2, Fraction(8 * 2 + 1))]  # regional doubles the placing points
    page = client.get(f"/series/{series.id}/players").get_data(as_text=True)
    assert "Same person" in page and "Week 2" in page
    suggestion = people.roster(db.session.get(Series, series.id), suggest=True).people.suggestions[0]
    assert suggestion.player_id == p2[0].id and suggestion.target == f"e{p1[0].id}"
    # the public sees neither the suggestion nor the notes
    public = client.get(f"/s/{series.slug}").get_data(as_text=True)
    assert "Same person" not in public and "suggest" not in public.lower()
    client.post(f"/series/{series.id}/players/confirm", data={"player": p2[0].id, "target": suggestion.target})
    table = series_standings.table(db.session.get(Series, series.id))
    merged = table.line(f"e{p1[0].id}")
    # one spelling each: the earliest stands (the newest event's lower case does not take over)
    assert merged.events == 2 and merged.total == 11 + 17 and merged.name == "Ann"
    assert [line.name for line in table.lines][0] == "Ann"
    # undo: apart again
    client.post(f"/series/{series.id}/players/undo", data={"player": p2[0].id})
    table = series_standings.table(db.session.get(Series, series.id))
    assert table.line(f"e{p1[0].id}").events == 1 and table.line(f"e{p2[0].id}").events == 1
    # reject: no longer suggested
    client.post(f"/series/{series.id}/players/reject", data={"player": p2[0].id, "target": f"e{p1[0].id}"})
    table = series_standings.table(db.session.get(Series, series.id))
    assert people.roster(db.session.get(Series, series.id), suggest=True).people.suggestions == []


def test_best_n_and_the_participation_point_and_the_player_page(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    series = _series(client)
    account = NrdbAccount(nrdb_id=77, username="ann_nrdb")
    db.session.add(account)
    db.session.commit()
    events = []
    for week, (winner, loser) in enumerate([(0, 1), (1, 0), (0, 1)], 1):
        t, ps = _small(owner, make_tournament, f"Week {week}", date(2026, 2, week), ["Ann", "Ben"],
                       [[(winner, loser, "corp")]])
        ps[0].nrdb_account_id = account.id  # Ann's entries are linked: they join by themselves
        db.session.commit()
        client.post(f"/series/{series.id}/events", data={"event": t.id})
        events.append(t)
    table = series_standings.table(db.session.get(Series, series.id))
    ann = table.line(f"a{account.id}")
    assert ann.events == 3 and ann.wins == 2
    assert [r.counted for r in ann.results] == [True, False, True] and ann.total == 22  # best 2 of 11, 9, 11
    assert ann.all_results == 31
    page = client.get(f"/s/{series.slug}/players/a{account.id}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "ann_nrdb" in text and "not counted" in text  # an account's player goes by its username
    # record by side: Ann won twice as Corp and lost once as Runner
    games = series_games(db.session.get(Series, series.id))
    assert [(g.player, g.player_side, g.outcome) for g in games][:1] == [(f"a{account.id}", "corp", "win")]
    assert "As Corp" in text and "As Runner" in text
    assert client.get(f"/s/{series.slug}/players/e999999").status_code == 404


def test_the_cut_decides_the_top_placings(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    series = _series(client)
    t = fixture_event(owner, make_tournament)
    client.post(f"/series/{series.id}/events", data={"event": t.id})
    from app.services import cut as cut_service
    final = cut_service.load(t).final_standings()
    table = series_standings.table(db.session.get(Series, series.id))
    by_name = {line.name: line.results[0].placing for line in table.lines}
    assert by_name == {row["name"]: row["rank"] for row in final}
    champion = next(row["name"] for row in final if row["champion"])
    assert table.lines[0].name == champion


def test_invitations_pass_down_when_a_player_declines(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    series = _series(client)
    t, ps = _small(owner, make_tournament, "Week 1", date(2026, 3, 1), ["Ann", "Ben", "Cat", "Dan"],
                   [[(0, 1, "corp"), (2, 3, "corp")], [(0, 2, "corp"), (1, 3, "corp")]])
    client.post(f"/series/{series.id}/events", data={"event": t.id})
    table = series_standings.table(db.session.get(Series, series.id))
    order = [line.key for line in table.lines]
    assert [i.player for i in table.invitations] == order[:2]
    response = client.post(f"/series/{series.id}/players/{order[0]}/decision",
                           data={"declined": "y", "note": "moving abroad"})
    assert response.status_code == 303
    table = series_standings.table(db.session.get(Series, series.id))
    assert [i.player for i in table.invitations] == order[1:3]
    assert table.invitations[0].passed_over == (order[0],)
    assert "moving abroad" in client.get(f"/series/{series.id}/players").get_data(as_text=True)
    assert "moving abroad" not in client.get(f"/s/{series.slug}").get_data(as_text=True)
    assert "moving abroad" not in client.get(f"/s/{series.slug}/standings.json").get_data(as_text=True)


def test_exports_and_the_cache_follows_results(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    series = _series(client)
    t, ps = _small(owner, make_tournament, "Week 1", date(2026, 4, 1), ["Ann", "=Ben"], [[(0, 1, "corp")]])
    client.post(f"/series/{series.id}/events", data={"event": t.id})
    data = client.get(f"/s/{series.slug}/standings.json").get_json()
    assert data["standings"][0]["name"] == "Ann" and data["standings"][0]["points"] == "11"
    assert data["events"][0]["slug"] == t.slug and data["rules"]["best_n"] == 2
    rows = list(csv.reader(io.StringIO(client.get(f"/s/{series.slug}/standings.csv").get_data(as_text=True))))
    assert rows[0][:4] == ["rank", "name", "nrdb", "points"] and rows[1][1:4] == ["Ann", "", "11"]
    assert rows[2][1] == "'=Ben" and rows[1][-1] == "11"  # no formula; the event's points in its column
    # a result changes: the event's version moves, and the standings with it
    add_round(t, 2, [(ps[1], ps[0], "corp")])
    add_round(t, 3, [(ps[1], ps[0], "corp")])
    data = client.get(f"/s/{series.slug}/standings.json").get_json()
    assert data["standings"][0]["name"] == "=Ben"


def test_only_an_event_one_organizes_joins_and_bad_rules_are_refused(client, make_user, make_tournament, login):
    owner = make_user()
    other = make_user("other@example.com", "other password")
    theirs = make_tournament(other, name="Not Yours")
    login()
    series = _series(client)
    response = client.post(f"/series/{series.id}/events", data={"event": theirs.id})
    assert response.status_code == 422 and "must organize" in response.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(SeriesEvent)) == 0
    bad = client.post(f"/series/{series.id}/edit", data={**RULES, "points_table": "1st 5, 2nd 8"})
    assert bad.status_code == 422 and "more than placing 1" in bad.get_data(as_text=True)
    dup = client.post(f"/series/{series.id}/edit", data={**RULES, "tie_breaks-1": "countback"})
    assert dup.status_code == 422 and "once" in dup.get_data(as_text=True)
    assert db.session.get(Series, series.id).points_table == RULES["points_table"]
    # a tier in use cannot disappear from the list
    mine = make_tournament(owner, name="Mine")
    client.post(f"/series/{series.id}/events", data={"event": mine.id, "tier": "Regional"})
    gone = client.post(f"/series/{series.id}/edit", data={**RULES, "tiers": "Store: 1"})
    assert gone.status_code == 422 and "Regional" in gone.get_data(as_text=True)
    # the event's pages name its series
    assert "Club League" in client.get(f"/tournaments/{mine.id}").get_data(as_text=True)
    assert "Club League" in client.get(f"/t/{mine.slug}").get_data(as_text=True)
    # a new event made inside the series is the user's and counts in it
    response = client.post(f"/series/{series.id}/events/new", data={"name": "Week 9", "date": "2026-06-01",
                                                                   "format": "single", "tier": ""})
    assert response.status_code == 303
    assert db.session.scalar(sa.select(sa.func.count()).select_from(SeriesEvent)) == 2


def test_series_games_lists_every_game_in_time_order_for_ratings(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    series = _series(client)
    t = fixture_event(owner, make_tournament)  # 3 swiss rounds (byes, a tie, an intentional draw), a top-4 cut
    client.post(f"/series/{series.id}/events", data={"event": t.id})
    games = series_games(db.session.get(Series, series.id))
    from app.services import cut as cut_service
    played = [g for g in cut_service.load(t).bracket.games if g.reported]
    assert len(games) == 9 + len(played)
    assert [g.stage for g in games] == ["swiss"] * 9 + ["cut"] * len(played)
    assert [g.round for g in games[:9]] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert sum(g.bye for g in games) == 3 and all(g.outcome == "bye" for g in games if g.bye)
    assert [g.intentional_draw for g in games].count(True) == 1
    assert {g.outcome for g in games if not g.bye} <= {"win", "loss", "draw"} and any(g.outcome == "draw" for g in games)
    assert all(g.player_side == "corp" for g in games if not g.bye)  # the first named side is the Corp
    keys = {line.key for line in series_standings.table(db.session.get(Series, series.id)).lines}
    assert {g.player for g in games} | {g.opponent for g in games if g.opponent} <= keys


def test_garbage_in_the_series_forms_is_a_form_error_and_changes_nothing(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    series = _series(client)
    t = make_tournament(owner, name="Mine")
    client.post(f"/series/{series.id}/events", data={"event": t.id})
    before = db.session.get(Series, series.id).version
    cases = {"points_table": ["1: 1e999", "1: 2000000", "x" * 600, "1: 10\x00", "1-99999999: 1", "1:"],
             "participation": ["0.1234567890123456", "abc", "1/0", "-1", "5000", "1\x00"],
             "best_n": ["0", "-3", "x", "99999999999"], "field_reference": ["0", "1e3"],
             "tiers": ["Store", "Store: x", "A: 1, a: 2", "S\x00: 1", "Store: 1/0"],
             "invite_top": ["-1", "1e9"], "tie_breaks-0": ["nonsense"], "kind": ["cup"], "name": ["", "x\x00"]}
    for field, values in cases.items():
        for value in values:
            response = client.post(f"/series/{series.id}/edit", data={**RULES, field: value})
            assert response.status_code == 422, (field, value, response.status_code)
    for data in ({"tier": "Nope"}, {"tier": "\x00"}, {"tier": "x" * 41}):
        row = db.session.scalars(sa.select(SeriesEvent)).one()
        response = client.post(f"/series/{series.id}/events/{row.id}/tier", data=data)
        assert response.status_code == 303
    for data in ({"player": "x", "target": "e1"}, {"player": "1", "target": "zzz"}, {"player": "99999999999"}):
        assert client.post(f"/series/{series.id}/players/confirm", data=data).status_code == 303
        assert client.post(f"/series/{series.id}/players/reject", data=data).status_code == 303
        assert client.post(f"/series/{series.id}/players/undo", data=data).status_code == 303
    assert client.post(f"/series/{series.id}/players/nobody/decision", data={"note": "x"}).status_code == 303
    assert client.post(f"/series/{series.id}/players/e1/decision", data={"note": "x" * 300}).status_code == 303
    assert db.session.get(Series, series.id).version == before
    assert db.session.scalars(sa.select(SeriesEvent)).one().tier == ""


# --- ratings (docs/domain.md 15) ---

def _league(client, owner, make_tournament):
    """Week 1: Ann beats Ben and Cat, Ben loses twice; week 2: Ann and Ben again (a later event, not played)."""
    series = _series(client)
    first, p1 = _small(owner, make_tournament, "Week 1", date(2026, 1, 5), ["Ann", "Ben", "Cat", "Dan"],
                       [[(0, 1, "corp"), (2, 3, "corp")], [(0, 2, "corp"), (1, 3, "runner")]])
    second, p2 = _small(owner, make_tournament, "Week 2", date(2026, 1, 12), ["Ann", "Ben"], [])
    for t in (first, second):
        assert client.post(f"/series/{series.id}/events", data={"event": t.id, "tier": ""}).status_code == 303
    return db.session.get(Series, series.id), first, p1, second, p2


def test_ratings_on_the_standings_and_a_players_page_follow_a_changed_result(client, make_user, make_tournament,
                                                                            login):
    owner = make_user()
    login()
    series, first, p1, _second, _p2 = _league(client, owner, make_tournament)
    table = series_standings.table(series)
    shown = series_ratings.shown(series, table)
    ann, ben = f"e{p1[0].id}", f"e{p1[1].id}"
    assert shown[ann] > shown[ben]  # Ann won both games, Ben lost both
    page = client.get(f"/s/{series.slug}").get_data(as_text=True)
    assert "Rating" in page and str(shown[ann]) in page
    assert str(shown[ann]) in client.get(f"/s/{series.slug}/players/{ann}").get_data(as_text=True)
    # Ann's last win (round 2, against Cat) becomes a loss: rated again (the event's version changed)
    game = db.session.scalars(sa.select(Match).filter_by(tournament_id=first.id, table=1)
                              .order_by(Match.round_id.desc())).first()
    assert client.post(f"/tournaments/{first.id}/matches/{game.id}/result",
                       data={"result": "runner"}).status_code < 400
    again = series_ratings.shown(series, series_standings.table(series))
    cat = f"e{p1[2].id}"
    assert again[ann] < shown[ann] and again[cat] > shown[cat]


def test_a_later_event_of_the_series_is_seeded_by_the_ratings_before_it(client, make_user, make_tournament, login):
    owner = make_user()
    login()
    _series_, first, p1, second, p2 = _league(client, owner, make_tournament)
    games, keys = server_ratings.games_before(second)
    assert {g.period for g in games} == {first.id}  # only what came before week 2
    assert keys == {p2[0].id: f"e{p2[0].id}", p2[1].id: f"e{p2[1].id}"}  # names alone join nobody
    strengths = ratings.strengths_before(second)
    assert strengths[p2[0].id] == strengths[p2[1].id]  # both unrated: the series' mean
    for new, old in zip(p2, p1):  # the TO confirms week 2's Ann and Ben are week 1's
        assert client.post(f"/series/{_series_.id}/players/confirm",
                           data={"player": new.id, "target": f"e{old.id}"}).status_code < 400
    assert server_ratings.games_before(second)[1] == {p2[0].id: f"e{p1[0].id}", p2[1].id: f"e{p1[1].id}"}
    strengths = ratings.strengths_before(second)
    assert strengths[p2[0].id] > strengths[p2[1].id]
    assert server_ratings.games_before(first)[0] == []  # week 1 has nothing before it
    solo = make_tournament(owner, name="Not in a series")
    assert server_ratings.games_before(solo) is None and ratings.strengths_before(solo) is None

"""Reporting results: one-tap buttons per format, custom results, garbage, and a constant query count."""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlalchemy import event as sa_event

from app.extensions import db
from app.models import Match, Player
from tests.web.views.test_rounds import matches, pair, report_all, setup_event


def report(client, t, match_id, **data):
    return client.post(f"/tournaments/{t.id}/matches/{match_id}/result", data=data)


def seat_points(t, number, match_id):
    (m, seats), = [(m, s) for m, s in matches(t, number) if m.id == match_id]
    return m, [(s.player_id, s.points, s.games_won) for s in seats]


def first_game(t, number=1):
    m, seats = [(m, s) for m, s in matches(t, number) if not m.is_bye][0]
    return m.id, [s.player_id for s in seats]


def test_single_sided_buttons(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    pair(client, t, 1)
    mid, (c, r) = first_game(t)
    table = db.session.get(Match, mid).table
    for key, corp, runner, draw in [("corp", 3, 0, False), ("runner", 0, 3, False), ("tie", 1, 1, False),
                                    ("id", 1, 1, True)]:
        resp = report(client, t, mid, result=key)
        assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/rounds/1#t{table}")
        m, seats = seat_points(t, 1, mid)
        assert m.result == key and m.intentional_draw is draw
        assert [(p, pts) for p, pts, _ in seats] == [(c, corp), (r, runner)]


def test_corp_win_follows_the_sides_not_the_seat(make_user, make_tournament, login):
    """After a manual side swap the Corp sits at position 1 again; a Corp win scores that player."""
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    pair(client, t, 1)
    mid, (c, r) = first_game(t)
    client.post(f"/tournaments/{t.id}/rounds/1/edit", data={"action": "sides", "first": c})
    report(client, t, mid, result="corp")
    points = {p: pts for p, pts, _ in seat_points(t, 1, mid)[1]}
    assert points == {r: 3, c: 0}


def test_result_can_be_changed_and_page_shows_it(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4)
    pair(client, t, 1)
    mid, (c, r) = first_game(t)
    report(client, t, mid, result="corp")
    report(client, t, mid, result="runner")
    assert [pts for _, pts, _ in seat_points(t, 1, mid)[1]] == [0, 3]
    page = client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert 'value="runner" class="chosen"' in page


def test_double_sided(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, fmt="double")
    pair(client, t, 1)
    mid, _ = first_game(t)
    for data, points, key in [
        ({"result": "3-0/3-0"}, [6, 0], "3-0/3-0"), ({"result": "3-0/0-3"}, [3, 3], "3-0/0-3"),
        ({"result": "0-3/3-0"}, [3, 3], "0-3/3-0"), ({"result": "0-3/0-3"}, [0, 6], "0-3/0-3"),
        ({"result": "3-3"}, [3, 3], "3-0/0-3"),  # a bare total: the documented default, the Corps won
        # custom: seat 1's points in game 1 (as Corp), then in game 2 (as Runner)
        ({"result": "custom", "first": "3", "second": "1"}, [4, 1], "3-0/1-1"),
        ({"result": "custom", "first": "1", "second": "1"}, [2, 2], "1-1/1-1"),
        ({"result": "custom", "first": "0", "second": "3"}, [3, 3], "0-3/3-0"),
    ]:
        assert report(client, t, mid, **data).status_code == 303
        m, seats = seat_points(t, 1, mid)
        assert [pts for _, pts, _ in seats] == points
        assert m.result == key
    page = client.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert "3-3 Runners won" in page and "won as Corp</option>" in page
    for bad in ({"result": "custom", "first": "2", "second": "1"}, {"result": "custom", "first": "3"},
                {"result": "3-0/3-3"}, {"result": "4-1/0-0"}):
        assert report(client, t, mid, **bad).status_code == 400
    assert seat_points(t, 1, mid)[0].result == "0-3/3-0"  # unchanged


def test_plain_swiss(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, fmt="plain")
    pair(client, t, 1)
    mid, _ = first_game(t)
    for data, points, games, drawn in [
        ({"result": "2-0"}, [3, 0], [2, 0], 0), ({"result": "2-1"}, [3, 0], [2, 1], 0),
        ({"result": "1-2"}, [0, 3], [1, 2], 0), ({"result": "0-2"}, [0, 3], [0, 2], 0),
        ({"result": "1-1"}, [1, 1], [1, 1], 0),
        ({"result": "custom", "first": "1", "second": "1", "drawn": "1"}, [1, 1], [1, 1], 1),
        ({"result": "custom", "first": "1", "second": "0", "drawn": "2"}, [3, 0], [1, 0], 2),
    ]:
        assert report(client, t, mid, **data).status_code == 303
        m, seats = seat_points(t, 1, mid)
        assert [pts for _, pts, _ in seats] == points and [g for _, _, g in seats] == games
        assert m.drawn_games == drawn


GARBAGE = {
    "single": [{}, {"result": ""}, {"result": "x" * 10_000}, {"result": "6-0"},
               {"result": "custom", "first": "3", "second": "0"}, {"result": "bye"}],
    "double": [{"result": "custom", "first": "5", "second": "0"}, {"result": "custom", "first": "6"},
               {"result": "custom", "first": "x", "second": "y"}, {"result": "corp"}, {"result": "7-0"},
               {"result": "custom", "first": "9" * 10_000, "second": "0"}],
    "plain": [{"result": "custom", "first": "4", "second": "0"}, {"result": "custom", "first": "-1", "second": "2"},
              {"result": "custom", "first": "1", "second": "1", "drawn": "abc"}, {"result": "3-3-3-3"}],
}


@pytest.mark.parametrize("fmt", list(GARBAGE))
def test_garbage_results_change_nothing(make_user, make_tournament, login, fmt):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, fmt=fmt)
    pair(client, t, 1)
    mid, _ = first_game(t)
    for data in GARBAGE[fmt]:
        assert report(client, t, mid, **data).status_code == 400, data
        m, seats = seat_points(t, 1, mid)
        assert m.result is None and all(pts is None for _, pts, _ in seats), data


def test_bye_and_foreign_matches(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=3)
    pair(client, t, 1)
    (bye,) = [m for m, _ in matches(t, 1) if m.is_bye]
    assert report(client, t, bye.id, result="corp").status_code == 400
    # another organizer's tournament and match: never reachable through this tournament
    other_owner = make_user(email="other@example.com")
    other = make_tournament(other_owner, name="Other")
    db.session.add_all([Player(tournament_id=other.id, name=n) for n in ("X", "Y")])
    db.session.commit()
    from app.services.swiss.rounds import pair_next_round
    pair_next_round(other, 1)
    (foreign, _), = matches(other, 1)
    assert report(client, t, foreign.id, result="corp").status_code == 404
    assert report(client, other, foreign.id, result="corp").status_code == 403
    assert matches(other, 1)[0][0].result is None
    assert report(client, t, 2**40, result="corp").status_code == 404
    assert report(client, t, 987654, result="corp").status_code == 404
    assert client.post(f"/tournaments/{t.id}/matches/abc/result", data={"result": "corp"}).status_code == 404


def _count_queries(fn) -> int:
    seen = []

    def listener(*args):
        seen.append(args[2])

    sa_event.listen(db.engine, "before_cursor_execute", listener)
    try:
        fn()
    finally:
        sa_event.remove(db.engine, "before_cursor_execute", listener)
    return len(seen)


def test_report_runs_the_same_queries_in_every_round(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=12)
    counts = []
    for number in range(1, 5):
        pair(client, t, number)
        mid, _ = first_game(t, number)
        counts.append(_count_queries(lambda: report(client, t, mid, result="runner")))
        report_all(client, t, number)
    assert len(set(counts)) == 1, counts
    assert counts[0] <= 8, counts
    assert db.session.scalar(sa.select(sa.func.count(Match.id)).where(Match.result.is_(None))) == 0

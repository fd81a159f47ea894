"""Whole rounds read as plain rows (app/services/swiss/round_tables.py): each round's tables by number with their
seats by position; a round without tables, and no round at all, read as empty."""
from __future__ import annotations

from app.extensions import db
from app.models import Round
from app.services.swiss.round_tables import by_round
from tests.cut_helpers import add_players, add_round


def test_each_rounds_tables_in_order_with_their_seats(make_user, make_tournament):
    t = make_tournament(make_user())
    a, b, c = add_players(t, "abc")
    one = add_round(t, 1, [(a, b, "runner"), (c, None, None)])
    empty = Round(tournament_id=t.id, number=2)
    db.session.add(empty)
    db.session.commit()
    tables = by_round([one.id, empty.id])
    assert tables[empty.id] == []
    assert [(x.table, x.is_bye, x.result) for x in tables[one.id]] == [(1, False, "runner"), (2, True, "bye")]
    assert [(s.player_id, s.position, s.side) for s in tables[one.id][0].seats] == [
        (a.id, 1, "corp"), (b.id, 2, "runner")]
    assert [s.player_id for s in tables[one.id][1].seats] == [c.id]
    assert by_round([]) == {}

"""Random deck checks through the routes: a draw picks players from a stored seed (again the same pick from it),
the picked players' lists open, a check is marked once per round, checked players are flagged in later draws."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import DeckCheck, DeckCheckDraw, Player, Staff
from app.services.penalties import deck_checks
from cut_helpers import paired_event


@pytest.fixture
def event(app, make_user):
    owner = make_user("to@example.com", "correct horse")
    keeper = make_user("sam@example.com", "correct horse")
    t = paired_event(owner, "Check Open", ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"])
    db.session.add(Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"))
    db.session.commit()
    return t


def test_draw_open_mark_and_flag(event, login):
    t = event
    keeper = login("sam@example.com", "correct horse")
    r = keeper.post(f"/tournaments/{t.id}/deck-checks/draw", data={"count": "2", "pool": "field", "top_tables": "4"})
    assert r.status_code == 303
    (row,) = db.session.scalars(sa.select(DeckCheckDraw)).all()
    assert len(row.picked) == 2 and len(row.candidates) == 6 and deck_checks.replay(row) == row.picked
    page = keeper.get(f"/tournaments/{t.id}/deck-checks").get_data(as_text=True)
    first = db.session.get(Player, row.picked[0])
    assert first.name in page and f"/decklists/{first.id}/sheet" in page and "gives this pick again" in page
    assert keeper.get(f"/tournaments/{t.id}/decklists/{first.id}/sheet").status_code == 200

    r = keeper.post(f"/tournaments/{t.id}/deck-checks/{first.id}/check", data={"draw": str(row.id)})
    assert r.status_code == 303
    again = keeper.post(f"/tournaments/{t.id}/deck-checks/{first.id}/check", data={"draw": str(row.id)})
    assert "already checked" in keeper.get(again.headers["Location"]).get_data(as_text=True)
    (check,) = db.session.scalars(sa.select(DeckCheck)).all()
    assert (check.player_id, check.round_number, check.draw_id) == (first.id, 1, row.id)

    # a check from before round 1 (a list checked at registration): the next draw, everyone picked, flags it and
    # shows this round's check as done
    other = next(p for p in db.session.scalars(sa.select(Player)) if p.id != first.id)
    db.session.add(DeckCheck(tournament_id=t.id, player_id=other.id, round_number=0, checked_by="Sam"))
    db.session.commit()
    r = keeper.post(f"/tournaments/{t.id}/deck-checks/draw", data={"count": "6", "pool": "field", "top_tables": "4"})
    page = keeper.get(r.headers["Location"]).get_data(as_text=True)
    newest = page.split('class="card draw"')[1]
    assert "checked before: before round 1" in newest and newest.count("checked by sam@example.com") == 1


def test_top_tables_and_refusals(event, login):
    t = event
    keeper = login("sam@example.com", "correct horse")
    keeper.post(f"/tournaments/{t.id}/deck-checks/draw", data={"count": "4", "pool": "top", "top_tables": "1"})
    (row,) = db.session.scalars(sa.select(DeckCheckDraw)).all()
    at_table_one = {pid for pid, table, _ in row.candidates if table == 1}
    assert set(row.picked) == at_table_one and len(at_table_one) == 2
    for data in ({"count": "0", "pool": "field", "top_tables": "4"}, {"count": "2", "pool": "all", "top_tables": "4"},
                 {"count": "99", "pool": "field", "top_tables": "4"}):
        assert keeper.post(f"/tournaments/{t.id}/deck-checks/draw", data=data).status_code == 400
    assert keeper.post(f"/tournaments/{t.id}/deck-checks/999999/check", data={}).status_code == 404
    assert db.session.scalar(sa.select(sa.func.count(DeckCheckDraw.id))) == 1
    assert db.session.scalar(sa.select(sa.func.count(DeckCheck.id))) == 0

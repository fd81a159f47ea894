"""app/services/prepared.py: a statement PostgreSQL plans once per connection reads the same rows, typed the same,
as the statement itself; each connection prepares it once, and a new connection again."""
from __future__ import annotations

import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Player, Seat
from app.services.prepared import Prepared
from cut_helpers import add_players, add_round

_TABLE = Prepared("test_table", sa.select(Match.table, Match.result, Seat.side, Player.name, Match.is_bye)
                  .join(Seat, Seat.match_id == Match.id).join(Player, Player.id == Seat.player_id)
                  .where(Match.tournament_id == sa.bindparam("tid"), Seat.player_id != sa.bindparam("pid"))
                  .order_by(Match.table, Seat.position).limit(10))


def _prepares(run) -> int:
    sent = []

    def keep(conn, cursor, statement, parameters, context, executemany):
        sent.append(statement)

    sa.event.listen(db.engine, "before_cursor_execute", keep)
    try:
        run()
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", keep)
    return sum(s.startswith("PREPARE") for s in sent)


def test_the_rows_and_their_types_are_the_statements(app, make_user, make_tournament):
    t = make_tournament(make_user())
    a, b, c, d = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    add_round(t, 1, [(a, b, "corp"), (c, d, "runner")])
    db.session.commit()
    params = {"tid": t.id, "pid": a.id}
    plain = db.session.execute(_TABLE.statement, params).all()
    assert len(plain) == 3
    for _ in range(7):  # past PostgreSQL's five custom plans: its generic plan reads the same
        assert _TABLE.execute(params).all() == plain
    assert [type(v) for v in _TABLE.execute(params).first()] == [type(v) for v in plain[0]]


def test_each_connection_prepares_once(app, make_user, make_tournament):
    t = make_tournament(make_user())
    params = {"tid": t.id, "pid": 0}
    expected = 1 if db.engine.dialect.name == "postgresql" else 0
    db.session.commit()
    db.engine.dispose()
    assert _prepares(lambda: [_TABLE.execute(params).all() for _ in range(3)]) == expected
    db.session.commit()
    assert _prepares(lambda: _TABLE.execute(params).all()) == 0  # the same connection, back from the pool
    db.session.commit()
    db.engine.dispose()  # a new connection: prepared again
    assert _prepares(lambda: _TABLE.execute(params).all()) == expected

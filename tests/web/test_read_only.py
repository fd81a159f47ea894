"""The polls run their statements outside a transaction on PostgreSQL (app/web/read_only.py), and the connection
they used is back in transactions for the next request that takes it: a write is never left without one."""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from cut_helpers import add_players, add_round

from app.extensions import db
from app.models import Player
from app.services.players import player_links


def _sent(client, method: str, url: str, **kwargs) -> list[tuple[int, bool, str]]:
    """(the DBAPI connection, whether it was in autocommit, the statement) for each statement of one request."""
    sent = []

    def keep(conn, cursor, statement, parameters, context, executemany):
        dbapi = conn.connection.dbapi_connection
        sent.append((id(dbapi), bool(dbapi.autocommit), statement))

    sa.event.listen(db.engine, "before_cursor_execute", keep)
    try:
        answer = getattr(client, method)(url, **kwargs)
        assert answer.status_code in (200, 303, 304), (url, answer.status_code)
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", keep)
    return [s for s in sent if "abr_uploads" not in s[2]]  # the results uploader's own thread


@pytest.mark.database("postgresql")  # autocommit polls are PostgreSQL's
def test_a_players_poll_runs_outside_a_transaction_and_the_next_write_inside_one(app, make_user, make_tournament):
    t = make_tournament(make_user())
    a, b = add_players(t, ["Ann", "Ben"])
    match_id = add_round(t, 1, [(a, b, None)]).matches[0].id
    link = f"/t/{t.slug}/p/{player_links.token(db.session.get(Player, a.id))}"
    db.session.remove()
    phone = app.test_client()
    polls = _sent(phone, "get", f"{link}/live") + _sent(phone, "get", f"/t/{t.slug}/status.json")
    assert polls and all(autocommit for _, autocommit, _ in polls)
    report = _sent(phone, "post", f"{link}/report", data={"match": match_id, "result": "corp"})
    assert any(s.lstrip().upper().startswith("INSERT") for _, _, s in report)
    assert not any(autocommit for _, autocommit, _ in report)
    assert {c for c, _, _ in polls} & {c for c, _, _ in report}, "the report reused a poll's connection"
    page = _sent(phone, "get", link)  # a page is not a poll: its statements share a transaction
    assert page and not any(autocommit for _, autocommit, _ in page)


@pytest.mark.both_backends
def test_polls_answer_the_same_on_every_database(app, make_user, make_tournament):
    """The mark changes how statements are sent, not what the poll reads: a report shows on the next check."""
    t = make_tournament(make_user())
    a, b = add_players(t, ["Ann", "Ben"])
    match_id = add_round(t, 1, [(a, b, None)]).matches[0].id
    link = f"/t/{t.slug}/p/{player_links.token(db.session.get(Player, b.id))}"
    mine = f"/t/{t.slug}/p/{player_links.token(db.session.get(Player, a.id))}"
    db.session.remove()
    phone = app.test_client()
    first = phone.get(f"{link}/live")
    assert first.status_code == 200
    assert phone.get(f"{link}/live", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    assert app.test_client().post(f"{mine}/report", data={"match": match_id, "result": "corp"}).status_code == 303
    after = phone.get(f"{link}/live", headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200 and "Ann reported" in after.get_json()["fragments"]["me-card"]

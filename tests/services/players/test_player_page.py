"""A player's page and its poll after a publish cost a few index probes, whatever other events hold: every
statement they send reaches `seats`, `matches`, the judge calls, the check-ins and the waitlist through an index
condition (PostgreSQL's plans, with another event's 24,000 seats, 2,000 judge calls, check-ins and waitlist
entries in the tables and the statistics fresh), never a scan of any of them."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import CheckIn, JudgeCall, Player, WaitlistEntry
from app.services.event_files import event_writer
from app.services.players import player_links
from app.services.prepared import EVERY
from app.services.event_files import restore as restore_service
from bench.bench_uploads import make_backup
from cut_helpers import add_players, add_round

WATCHED = {"seats", "matches", "judge_calls", "check_ins", "waitlist"}


def _scans(plan: dict):
    """(table, node type, has an index condition) for every node of the plan reading a watched table."""
    if plan.get("Relation Name") in WATCHED:
        probe = "Index Cond" in plan or any("Index Cond" in c for c in plan.get("Plans", [])
                                            if c["Node Type"] == "Bitmap Index Scan")
        yield plan["Relation Name"], plan["Node Type"], probe
    for child in plan.get("Plans", []):
        yield from _scans(child)


def _statements(client, urls: list[tuple[str, dict]]) -> list[tuple[str, object]]:
    sent = []

    def keep(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith(("SELECT", "EXECUTE")):  # EXECUTE: app/services/prepared.py
            sent.append((statement, parameters))

    sa.event.listen(db.engine, "before_cursor_execute", keep)
    try:
        for url, headers in urls:
            assert client.get(url, headers=headers).status_code in (200, 304), url
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", keep)
    return sent


def test_a_players_page_and_its_poll_probe_seats_and_matches_by_index(app, make_user, make_tournament):
    if db.engine.dialect.name != "postgresql":
        pytest.skip("the plan is PostgreSQL's (set TEST_DATABASE_URL)")
    owner = make_user()
    other = event_writer.write(restore_service.read(make_backup(2000, 6)), owner, "backup")  # 24,000 seats
    others = db.session.scalars(sa.select(Player.id).where(Player.tournament_id == other.id)).all()
    db.session.add_all(JudgeCall(tournament_id=other.id, player_id=p, state="resolved") for p in others)
    db.session.add_all(CheckIn(tournament_id=other.id, player_id=p, round=1) for p in others)
    db.session.add_all(WaitlistEntry(tournament_id=other.id, player_id=p, position=i) for i, p in enumerate(others, 1))
    t = make_tournament(owner)
    a, b, c, d = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    add_round(t, 1, [(a, b, "corp"), (c, d, "runner")])
    add_round(t, 2, [(a, c, None), (b, d, None)])
    db.session.execute(sa.text("ANALYZE"))
    db.session.commit()
    link = f"/t/{t.slug}/p/{player_links.token(db.session.get(Player, a.id))}"
    phone = app.test_client()
    first = phone.get(f"{link}/live")
    assert first.status_code == 200
    sent = _statements(phone, [(link, {}), (f"{link}/live", {}), (f"{link}/live?parts=me-card,me-tabs", {}),
                               (f"{link}/live", {"If-None-Match": first.headers["ETag"]})])
    assert sent
    bad = []
    assert any(statement.startswith("EXECUTE player_facts") for statement, _ in sent)
    with db.engine.connect() as conn:
        done = conn.connection.info.setdefault("sass_prepared", set())  # a pooled connection may have them
        for prepared in EVERY:
            if prepared.name not in done:
                conn.exec_driver_sql(prepared.compiled(conn.dialect)[0])
                done.add(prepared.name)
        for statement, parameters in sent:
            plan = conn.exec_driver_sql(f"EXPLAIN (FORMAT JSON) {statement}", parameters).scalar()
            for table, node, probe in _scans(plan[0]["Plan"]):
                if not probe:
                    bad.append((table, node, " ".join(statement.split())[:300]))
    assert not bad, "\n".join(map(str, bad))

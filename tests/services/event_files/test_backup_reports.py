"""Backups carry the players' reports and the result log (version 3): a TO who backs up mid-round and restores
elsewhere keeps the pending claims, the disputes and the history; files that could not have come from SASS are
refused with nothing written; older versions still restore."""
from __future__ import annotations

import copy
import html
import json
from dataclasses import replace

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Player, ResultChange, ResultClaim, Tournament
from app.services.event_files import backup as backup_service
from app.services.results import participation
from bench.bench_uploads import make_backup
from tests.services.event_files.test_backup import _restore, _snapshot
from tests.services.results.test_participation import link, player_report, published_round, table
from tests.web.views.test_rounds_page import live_counts
from tests.web.views.test_rounds import report_all, setup_event
from sql_statements import counted_statements

WAITING, DISPUTED, AGREED, OVERRIDDEN, OPEN = range(5)  # round 2's tables, by index


def _mid_round_event(app, client, t):
    """Round 1 reported by the TO, one of its results edited after round 2 was paired; round 2 published with a
    waiting claim, a dispute, an agreed result, an agreed result the TO then changed, an unreported table and a
    bye. Returns round 2's tables (match, Corp, Runner) and the edited table of round 1."""
    published_round(client, t, 1)
    report_all(client, t, 1, "corp")
    published_round(client, t, 2)
    m1, _, _ = table(t, 1, 0)
    assert client.post(f"/tournaments/{t.id}/matches/{m1.id}/result",
                       data={"result": "runner", "past": "1"}).status_code == 303
    tables = [table(t, 2, i) for i in range(5)]
    m, corp, runner = tables[WAITING]
    player_report(app, t, corp, m.id, "corp")
    m, corp, runner = tables[DISPUTED]
    player_report(app, t, corp, m.id, "corp")
    player_report(app, t, runner, m.id, "runner")
    m, corp, runner = tables[AGREED]
    player_report(app, t, runner, m.id, "tie")
    player_report(app, t, corp, m.id, "tie")
    m, corp, runner = tables[OVERRIDDEN]
    player_report(app, t, corp, m.id, "corp")
    player_report(app, t, runner, m.id, "corp")
    assert client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "id"}).status_code == 303
    return tables, m1.table


def _restored(t) -> Tournament:
    return db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)
                              .order_by(Tournament.id.desc())).first()


def _same_player(copy_t, player) -> Player:
    return db.session.scalars(sa.select(Player).filter_by(tournament_id=copy_t.id, name=player.name)).one()


@pytest.fixture
def mid_round(app, make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=11)
    tables, edited = _mid_round_event(app, client, t)
    return client, t, players, tables, edited


@pytest.mark.slow
def test_a_mid_round_backup_restores_the_claims_and_the_log(app, mid_round):
    client, t, players, tables, _ = mid_round
    response = client.get(f"/tournaments/{t.id}/backup.json")
    first = json.loads(response.data)
    assert first["version"] == backup_service.VERSION
    before = _snapshot()
    assert _restore(client, first).status_code in (302, 303)
    copy_t = _restored(t)
    # the same file again: every claim and change with its time (the original untouched)
    second = backup_service.backup(copy_t)
    for doc in (first, second):
        doc["tournament"].pop("slug"), doc["tournament"].pop("name")
        for p in doc["players"]:
            p.pop("link")
    assert second == first
    after = _snapshot()
    assert all(set(rows) <= set(after[name]) for name, rows in before.items())
    assert (db.session.scalar(sa.select(sa.func.count()).select_from(ResultClaim).filter_by(tournament_id=copy_t.id))
            == 7)
    assert (db.session.scalar(sa.select(sa.func.count()).select_from(ResultChange).filter_by(tournament_id=copy_t.id))
            == 5 + 1 + 3)  # round 1: five results and the edit; round 2: agreed, agreed, then the TO's

    # every player's phone reads the same table, claims and state
    for p in players:
        mine, theirs = participation.my_table(t, p), participation.my_table(copy_t, _same_player(copy_t, p))
        assert replace(theirs, match_id=0) == replace(mine, match_id=0), p.name
    m, corp, runner = tables[WAITING]
    page = client.get(link(copy_t, _same_player(copy_t, runner))).get_data(as_text=True)
    assert f"{corp.name} reported: you lost as Runner" in page and "Yes: I lost as Runner" in page

    # the TO's round pages: the same exchange and the same history, accounts named by their kind
    old = html.unescape(client.get(f"/tournaments/{t.id}/rounds/2").get_data(as_text=True))
    new = html.unescape(client.get(f"/tournaments/{copy_t.id}/rounds/2").get_data(as_text=True))
    m, corp, runner = tables[DISPUTED]
    for text in (f"Disputed: {corp.name} says Corp win; {runner.name} says Runner win",
                 f"Reported by {tables[WAITING][1].name}: Corp win, waiting for {tables[WAITING][2].name}",
                 f"by {tables[AGREED][1].name} (player)", "History (2)"):
        assert text in old and text in new, text
    assert "an organizer account (deleted, or from before a restore)" in new
    assert live_counts(client, copy_t, 2) == live_counts(client, t, 2) == {
        "confirmed": 2, "waiting": 1, "disputed": 1, "unreported": 1}
    r1 = html.unescape(client.get(f"/tournaments/{copy_t.id}/rounds/1").get_data(as_text=True))
    assert "Corp win → <strong>Runner win</strong>" in r1 and "History (2)" in r1

    # the exchange carries on in the copy: the waiting claim is confirmed by the opponent
    m, corp, runner = tables[WAITING]
    copy_match = participation.my_table(copy_t, _same_player(copy_t, corp)).match_id
    assert player_report(app, copy_t, _same_player(copy_t, runner), copy_match, "corp").status_code == 303
    assert participation.my_table(copy_t, _same_player(copy_t, corp)).state == participation.CONFIRMED
    assert participation.my_table(t, corp).state == participation.WAITING


def test_single_report_is_kept(app, make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, single_report=True)
    published_round(client, t, 1)
    m, corp, runner = table(t, 1, 0)
    player_report(app, t, runner, m.id, "runner")
    assert _restore(client, backup_service.backup(t)).status_code in (302, 303)
    copy_t = _restored(t)
    assert copy_t.single_report is True
    assert backup_service.backup(copy_t)["rounds"] == backup_service.backup(t)["rounds"]


def _match(d, number, table_no):
    return next(m for m in d["rounds"][number - 1]["matches"] if m["table"] == table_no)


def _hostile(data: dict, tables: list, edited: int) -> list:
    """(label, file, words the refusal must contain)."""
    cases = []
    WAITING_, DISPUTED_, AGREED_, OPEN_ = (tables[i][0].table for i in (WAITING, DISPUTED, AGREED, OPEN))

    def case(label, words, change):
        d = copy.deepcopy(data)
        change(d)
        cases.append((label, d, words))

    def stranger(d):  # a player of another table of the same round
        return _match(d, 2, OPEN_)["seats"][0]["player"]

    def claims(d, table_no):
        return _match(d, 2, table_no)["claims"]

    def changes(d, number, table_no):
        return _match(d, number, table_no)["changes"]

    def bye(d):
        return next(m for m in d["rounds"][1]["matches"] if m["is_bye"])

    case("a claim by a player from another table", "not at this table",
         lambda d: claims(d, WAITING_)[0].update(player=stranger(d)))
    case("a claim by a player not in the file", "not at this table",
         lambda d: claims(d, WAITING_)[0].update(player=999))
    case("an unknown claimed result", "result buttons", lambda d: claims(d, WAITING_)[0].update(result="9-9"))
    case("a claimed bye", "result buttons", lambda d: claims(d, WAITING_)[0].update(result="bye"))
    case("a player claims twice", "claims twice",
         lambda d: claims(d, DISPUTED_)[1].update(player=claims(d, DISPUTED_)[0]["player"]))
    case("two agreeing claims and no result", "would have made it the result",
         lambda d: claims(d, DISPUTED_)[1].update(result="corp"))
    case("a claim contradicting the result it agreed to", "claim says otherwise",
         lambda d: [c.update(result="runner") for c in claims(d, AGREED_)])
    case("the agreed result's claims missing", "claim says otherwise", lambda d: claims(d, AGREED_).clear())
    case("a claim on a bye", "a bye has no result to report",
         lambda d: bye(d)["claims"].append({"player": bye(d)["seats"][0]["player"], "result": "corp",
                                            "at": "2026-11-23T10:00:00+00:00"}))
    case("a logged change on a bye", "a bye has no result to change",
         lambda d: bye(d)["changes"].append({"actor": "organizer", "player": None, "old": None, "new": "corp",
                                             "at": "2026-11-23T10:00:00+00:00"}))
    case("a claim without its time", "at", lambda d: claims(d, WAITING_)[0].pop("at"))
    case("a claim time without offset", "offset", lambda d: claims(d, WAITING_)[0].update(at="2026-11-23T10:00:00"))
    case("a claim time that is not a time", "at", lambda d: claims(d, WAITING_)[0].update(at="yesterday"))
    case("a version 3 match without claims", "claims", lambda d: _match(d, 2, OPEN_).pop("claims"))
    case("a version 3 match without a log", "changes", lambda d: _match(d, 2, OPEN_).pop("changes"))
    case("a log that does not end at the result", "does not end",
         lambda d: changes(d, 1, edited)[-1].update(new="tie"))
    case("a log with a gap", "does not start from",
         lambda d: changes(d, 1, edited)[-1].update(old="tie"))
    case("a change that changes nothing", "as it was",
         lambda d: changes(d, 1, edited)[-1].update(old="runner"))
    case("a log on an unreported table", "does not end",
         lambda d: changes(d, 2, OPEN_).append({"actor": "staff", "player": None, "old": None, "new": "corp",
                                              "at": "2026-11-23T10:00:00+00:00"}))
    case("a change by a player from another table", "not at this table",
         lambda d: changes(d, 2, AGREED_)[0].update(player=stranger(d)))
    case("an account's change naming a player", "not at this table",
         lambda d: changes(d, 1, edited)[0].update(player=_match(d, 1, edited)["seats"][0]["player"]))
    case("an unknown kind of account", "actor", lambda d: changes(d, 1, edited)[0].update(actor="admin"))
    case("an impossible logged result", "change 1 new", lambda d: changes(d, 1, edited)[0].update(new="9-9"))
    case("a version 3 file without single_report", "single_report", lambda d: d["tournament"].pop("single_report"))
    return cases


@pytest.mark.slow
def test_hostile_reports_are_refused_with_nothing_written(client, mid_round):
    _, t, _, tables, edited = mid_round
    data = backup_service.backup(t)
    assert _restore(client, data).status_code in (302, 303)  # the untouched file is fine
    before = _snapshot()
    failures = []
    for label, doc, words in _hostile(data, tables, edited):
        response = _restore(client, doc)
        text = html.unescape(response.get_data(as_text=True))
        if response.status_code != 400 or "Nothing was created" not in text or words.lower() not in text.lower():
            failures.append(f"{label}: {response.status_code} {text[text.find('Nothing') - 200:text.find('Nothing')]!r}")
        if _snapshot() != before:
            failures.append(f"{label}: changed the database")
    assert not failures, failures


def test_version_2_files_restore_without_reports(client, mid_round):
    """A file written before claims were kept: the event restores with none, one report not sufficing."""
    _, t, _, _, _ = mid_round
    old = backup_service.backup(t)
    old["version"] = 2
    old["tournament"].pop("single_report")
    for r in old["rounds"]:
        for m in r["matches"]:
            m.pop("claims"), m.pop("changes")
    assert _restore(client, old).status_code in (302, 303)
    copy_t = _restored(t)
    assert copy_t.single_report is False
    assert not db.session.scalars(sa.select(ResultClaim).filter_by(tournament_id=copy_t.id)).all()
    assert not db.session.scalars(sa.select(ResultChange).filter_by(tournament_id=copy_t.id)).all()
    again = backup_service.backup(copy_t)
    assert [[m["result"] for m in r["matches"]] for r in again["rounds"]] == [
        [m["result"] for m in r["matches"]] for r in old["rounds"]]


def _with_reports(doc: dict) -> dict:
    """A bench backup as version 3 of a single-report event: earlier rounds' results logged as staff's, the last
    round's as its Corp players' reports, with their claims."""
    doc["version"], doc["tournament"]["single_report"] = 3, True
    at = "2026-05-30T14:05:00+00:00"
    for r in doc["rounds"]:
        last = r is doc["rounds"][-1]
        for m in r["matches"]:
            corp = m["seats"][0]["player"]
            m["changes"] = [{"actor": "player" if last else "staff", "player": corp if last else None, "old": None,
                             "new": m["result"], "at": at}]
            m["claims"] = [{"player": corp, "result": m["result"], "at": at}] if last else []
    return doc


def test_claims_and_log_are_written_in_bulk(client, make_user, login):
    """Claims and log rows add one INSERT each, whatever the event's size."""
    make_user()
    login()
    counts = []
    for players in (40, 400):
        with counted_statements() as counted:
            response = _restore(client, _with_reports(make_backup(players, 3, seed=players)))
        assert response.status_code == 302, html.unescape(response.get_data(as_text=True))[-1500:]
        counts.append(len(counted))
    assert counts[1] <= counts[0] + 4 and counts[1] < 60, counts
    t = db.session.scalars(sa.select(Tournament).order_by(Tournament.id.desc())).first()
    assert db.session.scalar(sa.select(sa.func.count()).select_from(ResultChange).filter_by(tournament_id=t.id)) == 600
    assert db.session.scalar(sa.select(sa.func.count()).select_from(ResultClaim).filter_by(tournament_id=t.id)) == 200

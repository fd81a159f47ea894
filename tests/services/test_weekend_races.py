"""The weekend's measure (issue 33): a penalty, a check-in and a waitlist promotion racing each other leave coherent
rows. One burst of real parallel requests against the served app, over two events of the weekend:

- a side event before round 1, full under its cap with a waitlist and a roll call: the TO disqualifies a player
  (one who is checking in from their phone at that instant) and a player still waiting in line, players check in
  from their phones, the staff tick others off, the TO drops the no-shows, players drop themselves, late players
  register onto the waitlist;
- the main event, round 1 paired: two scorekeepers each record the same game loss on every table, and the TO
  disqualifies a player after the round.

Coherent afterwards: never more in than the cap; nobody waiting while a place is free; promotions in the line's
order and once each; a disqualified player never let in by the waitlist (the one who was waiting is out of the
line); nobody both checked in and dropped, except a player disqualified after their check-in (their check-in row is
older than the disqualification: the check-in happened, then the judge acted); each penalty stored once; every
game loss is its table's result, logged once. Meant for PostgreSQL (row locks); SQLite runs it too (one writer:
a request that outwaits its busy timeout is answered 503 with nothing written, and tried again).
"""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.core.penalties import Kind
from app.extensions import db
from app.models import (CheckIn, CheckInSettings, Match, Penalty, Player, ResultChange, Staff, Tournament,
                        WaitlistEntry)
from app.services.players import player_links, registration
from cut_helpers import paired_event
from tests.services.test_judge_call_races import _keeper
from tests.services.results.test_participation_races import (PASSWORD, assert_coherent, fire, player_opener, post,  # noqa: F401
                                      retry_busy, served, tables, to_opener)

CAP = 12
WAITING = 6
LATE = 4
KEEPERS = 2


def _side_event(owner) -> Tournament:
    t = Tournament(owner=owner, name="Sunday Side Event", format="single", registration_open=True,
                   registration_cap=CAP)
    db.session.add(t)
    db.session.flush()
    db.session.add(CheckInSettings(tournament_id=t.id, enabled=True, round=1, no_shows="drop", waitlist=True))
    db.session.commit()
    for i in range(CAP + WAITING):
        registration.register(t, f"Early {i:02d}")
    return t


def _main_event(owner, make_user) -> Tournament:
    t = paired_event(owner, "Saturday Main Event", [f"Main {i}" for i in range(8)])
    for i in range(KEEPERS):
        keeper = make_user(f"keeper{i}@example.com", PASSWORD)
        db.session.add(Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"))
    db.session.commit()
    return t


@pytest.mark.slow
def test_penalties_check_ins_and_waitlist_promotions_racing_leave_coherent_rows(app, served, make_user,
                                                                                database_uri):
    owner = make_user("to@example.com", PASSWORD)
    side, main = _side_event(owner), _main_event(owner, make_user)
    tries = 4 if database_uri.startswith("sqlite") else 1
    active = db.session.scalars(sa.select(Player).filter_by(tournament_id=side.id, dropped=False)
                                .order_by(Player.id)).all()
    line = db.session.scalars(sa.select(WaitlistEntry).filter_by(tournament_id=side.id)
                              .order_by(WaitlistEntry.position)).all()
    assert len(active) == CAP and len(line) == WAITING
    dq_in, checking, ticked, leaving = active[0], active[1:6], active[6:8], active[8:10]
    dq_waiting = line[1].player_id  # second in line: the first free place would be theirs next
    games = tables(main)
    dq_main = games[-1][2]  # a runner of round 1, disqualified after it (their table also takes a game loss)

    link = lambda p: f"{served}/t/{side.slug}/p/{player_links.token(p)}"  # noqa: E731
    sid, mid, register_url = side.id, main.id, f"{served}/t/{side.slug}/register"  # plain values for the threads
    to = to_opener(served)
    keepers = [_keeper(served, i) for i in range(KEEPERS)]
    dq = lambda pid, rnd: {"player": str(pid), "round": rnd, "infraction": "cheating",  # noqa: E731
                           "kind": "disqualification", "past": "y"}
    jobs = [lambda pid=pid: retry_busy(lambda: post(to, f"{served}/tournaments/{sid}/penalties/new", dq(pid, "")),
                                   tries) for pid in (dq_in.id, dq_waiting)]
    jobs += [lambda u=link(p): retry_busy(lambda: post(player_opener(), f"{u}/check-in", {}), tries)
             for p in [dq_in, *checking]]
    jobs += [lambda pid=p.id: retry_busy(lambda: post(to, f"{served}/tournaments/{sid}/check-in/{pid}", {}), tries)
             for p in ticked]
    jobs += [lambda u=link(p): retry_busy(lambda: post(player_opener(), f"{u}/drop", {}), tries) for p in leaving]
    jobs += [lambda: retry_busy(lambda: post(to, f"{served}/tournaments/{sid}/check-in/no-shows", {}), tries)]
    jobs += [lambda i=i: retry_busy(lambda: post(player_opener(), register_url,
                                            {"name": f"Late {i:02d}"}), tries) for i in range(LATE)]
    losses = []
    for _m, corp, _runner in games:
        data = {"player": str(corp.id), "round": "1", "infraction": "tardiness", "kind": "game_loss"}
        losses += [lambda k=k, data=data: retry_busy(lambda: post(k, f"{served}/tournaments/{mid}/penalties/new",
                                                              data), tries) for k in keepers]
    jobs += losses
    dq_main_data = dq(dq_main.id, "1")
    jobs += [lambda: retry_busy(lambda: post(to, f"{served}/tournaments/{mid}/penalties/new", dq_main_data), tries)]
    statuses = fire(jobs, workers=len(jobs))
    side_statuses, loss_statuses = statuses[:len(jobs) - len(losses) - 1], statuses[-len(losses) - 1:-1]
    assert set(side_statuses) <= {302, 303}, side_statuses
    # the disqualified runner's table: its corp's game loss came first (applied), or the disqualification did (it
    # ended the table as the runner's loss, and the game loss is refused: both losing is no result)
    dq_first = sorted(loss_statuses).count(303) == len(games) - 1
    applied = len(games) - dq_first
    assert sorted(loss_statuses) == sorted([303] * applied + [409] * (len(losses) - applied)), loss_statuses
    assert statuses[-1] == 303

    db.session.expire_all()
    # --- the side event: the cap, the line, the roll call
    rows = db.session.execute(sa.select(Player.id, Player.name, Player.dropped).filter_by(tournament_id=side.id)).all()
    assert len(rows) == CAP + WAITING + LATE  # every registration stored, in or waiting
    dropped = {pid for pid, _, d in rows if d}
    now_in = [pid for pid, _, d in rows if not d]
    entries = db.session.execute(sa.select(WaitlistEntry.player_id, WaitlistEntry.position, WaitlistEntry.promoted_at)
                                 .filter_by(tournament_id=side.id).order_by(WaitlistEntry.position)).all()
    waiting = [pid for pid, _, at in entries if at is None]
    promoted = [pid for pid, _, at in entries if at is not None]
    checked = dict(db.session.execute(sa.select(CheckIn.player_id, CheckIn.at).filter_by(tournament_id=side.id)).all())
    penalties = db.session.scalars(sa.select(Penalty).filter_by(tournament_id=side.id)).all()
    disqualified = {p.player_id: p for p in penalties if p.kind == Kind.DISQUALIFICATION.value}

    assert len(now_in) <= CAP
    # no free place while someone who is here waits (while the roll call runs a place goes only to a waiting
    # player who checked in: app/core/check_in.py promotions)
    present_waiting = [pid for pid in waiting if pid in checked]
    assert not present_waiting or len(now_in) == CAP, (len(now_in), present_waiting)
    assert set(waiting) <= dropped  # a waiting player is never paired
    assert max((pos for _, pos, at in entries if at is not None), default=0) < \
        min((pos for _, pos, at in entries if at is None), default=10**9)  # promotions in the line's order
    assert len(promoted) == len(set(promoted))
    assert len(penalties) == 2 and set(disqualified) == {dq_in.id, dq_waiting}  # each penalty once
    assert set(disqualified) <= dropped  # disqualified: out, whatever ran before or after
    # out of the line once disqualified: let in before the judge acted (then dropped by it), or never
    let_in = {pid: at for pid, _, at in entries}
    assert dq_waiting not in let_in or let_in[dq_waiting] is not None and \
        let_in[dq_waiting] <= disqualified[dq_waiting].created_at
    assert dq_in.id not in promoted
    assert {p.id for p in leaving} <= dropped
    # nobody both checked in and dropped, but a player disqualified after checking in
    both = set(checked) & dropped
    assert both <= {dq_in.id}, both
    for pid in both:
        assert checked[pid] <= disqualified[pid].created_at
    # the no-show drop ran: everyone in now was checked in, or came in from the waitlist or late afterwards
    assert set(now_in) <= set(checked) | set(promoted) | {pid for pid, name, _ in rows if name.startswith("Late")}

    # --- the main event: each game loss once, and it is its table's result
    losses = db.session.scalars(sa.select(Penalty).filter_by(tournament_id=main.id, kind=Kind.GAME_LOSS.value)).all()
    lost = [c.id for m, c, _r in games if not (dq_first and m == games[-1][0])]
    assert sorted(p.player_id for p in losses) == sorted(lost)
    if dq_first:
        log = db.session.scalars(sa.select(ResultChange).filter_by(match_id=games[-1][0])).all()
        assert [c.new_result for c in log] == ["corp"] and "Disqualification" in log[0].reason
    for p in losses:
        table = next(m for m, c, _r in games if c.id == p.player_id)
        assert db.session.get(Match, table).result == p.result_after == "runner"
        log = db.session.scalars(sa.select(ResultChange).filter_by(match_id=table).order_by(ResultChange.id)).all()
        assert [c.new_result for c in log if c.reason] == ["runner"]  # applied once
        assert log[-1].new_result == "runner"
    assert db.session.scalar(sa.select(sa.func.count(Penalty.id)).filter_by(
        tournament_id=main.id, kind=Kind.DISQUALIFICATION.value)) == 1
    assert db.session.scalars(sa.select(Player.id).filter_by(tournament_id=main.id, dropped=True)).all() == [dq_main.id]
    assert_coherent(main)


def test_staff_voiding_the_same_penalty_at_once_void_it_once(app, served, make_user, database_uri):
    owner = make_user("to@example.com", PASSWORD)
    main = _main_event(owner, make_user)
    tries = 4 if database_uri.startswith("sqlite") else 1
    keepers = [_keeper(served, i) for i in range(KEEPERS)]
    _mid, corp, _runner = tables(main)[0]
    status = post(keepers[0], f"{served}/tournaments/{main.id}/penalties/new",
                  {"player": str(corp.id), "round": "1", "infraction": "tardiness", "kind": "game_loss"})
    assert status == 303
    penalty = db.session.scalars(sa.select(Penalty).filter_by(tournament_id=main.id)).one()
    url = f"{served}/tournaments/{main.id}/penalties/{penalty.id}/void"
    jobs = [lambda k=k, i=i: retry_busy(lambda: post(k, url, {"reason": f"Mistake, says keeper {i}"}), tries)
            for i, k in enumerate(keepers)]
    jobs += [lambda: retry_busy(lambda: post(to_opener(served), url, {"reason": "Mistake, says the TO"}), tries)]
    assert set(fire(jobs, workers=len(jobs))) == {303}
    db.session.expire_all()
    row = db.session.get(Penalty, penalty.id)
    assert row.voided_at is not None and row.void_reason.startswith("Mistake, says")
    assert row.voided_by in {"to@example.com", *(f"keeper{i}@example.com" for i in range(KEEPERS))}
    assert db.session.scalar(sa.select(sa.func.count(ResultChange.id))) == 1  # the result untouched by the void
    assert_coherent(main)

"""Penalties under real parallel requests (the app served on a loopback port, each request on its own
connection): staff recording the same game loss at once store and apply it once; a game loss racing the TO's
result on the same table leaves one coherent table. Meant for PostgreSQL (run with TEST_DATABASE_URL); SQLite runs
the same tests."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Penalty, Player, ResultChange, Staff
from cut_helpers import paired_event
from tests.services.results.test_participation_races import (PASSWORD, assert_coherent, fire, post, served, tables,  # noqa: F401, F811
                                      to_opener)
from tests.services.test_judge_call_races import _keeper

KEEPERS = 6


def _event(make_user):
    owner = make_user("to@example.com", PASSWORD)
    t = paired_event(owner, "Race Penalties", [f"Player {i}" for i in range(8)])
    for i in range(KEEPERS):
        keeper = make_user(f"keeper{i}@example.com", PASSWORD)
        db.session.add(Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"))
    db.session.commit()
    return t


@pytest.mark.slow
def test_the_same_game_loss_at_once_counts_once(app, served, make_user):  # noqa: F811
    t = _event(make_user)
    keepers = [_keeper(served, i) for i in range(KEEPERS)]
    url = f"{served}/tournaments/{t.id}/penalties/new"
    games = tables(t)
    for _mid, corp, _runner in games:
        data = {"player": str(corp.id), "round": "1", "infraction": "tardiness", "kind": "game_loss"}
        answers = fire([lambda k=k, data=data: post(k, url, data) for k in keepers], workers=KEEPERS)
        assert sorted(answers) == [303] + [409] * (KEEPERS - 1), answers
    db.session.expire_all()
    assert db.session.scalar(sa.select(sa.func.count(Penalty.id))) == len(games)
    assert db.session.scalar(sa.select(sa.func.count(ResultChange.id))) == len(games)
    for mid, _corp, _runner in games:
        assert db.session.get(Match, mid).result == "runner"
    assert_coherent(t)


@pytest.mark.slow
def test_a_game_loss_racing_the_tos_result_leaves_one_coherent_table(app, served, make_user):  # noqa: F811
    t = _event(make_user)
    keepers = [_keeper(served, i) for i in range(KEEPERS)]
    to = to_opener(served)
    games = tables(t)
    jobs = []
    for mid, corp, _runner in games:
        data = {"player": str(corp.id), "round": "1", "infraction": "slow_play", "kind": "game_loss"}
        jobs += [lambda k=k, data=data: post(k, f"{served}/tournaments/{t.id}/penalties/new", data)
                 for k in keepers[:3]]
        jobs.append(lambda mid=mid: post(to, f"{served}/tournaments/{t.id}/matches/{mid}/result",
                                         {"result": "corp"}))
    answers = fire(jobs, workers=len(jobs))
    assert all(a < 500 for a in answers), answers
    db.session.expire_all()
    penalties = db.session.scalars(sa.select(Penalty)).all()
    assert sorted(p.player_id for p in penalties) == sorted(c.id for _m, c, _r in games)  # one each
    for p in penalties:  # each table's log ends at its result; the penalty's change is in it
        match = db.session.get(Match, next(m for m, c, _r in games if c.id == p.player_id))
        log = db.session.scalars(sa.select(ResultChange).filter_by(match_id=match.id)
                                 .order_by(ResultChange.id)).all()
        assert log[-1].new_result == match.result
        assert any(c.reason and c.new_result == "runner" for c in log)
    assert_coherent(t)
    assert db.session.scalar(sa.select(sa.func.count(Player.id)).filter_by(dropped=True)) == 0


def test_the_same_disqualification_sent_six_times_at_once_counts_once(app, served, make_user):  # noqa: F811
    """Six organizers (or one impatient tap, six times) disqualify the same player at once: one standing
    disqualification, one result change (the open game it ends), the player dropped once; the others hear it is
    recorded already (409), never a 500."""
    owner = make_user("to@example.com", PASSWORD)
    t = paired_event(owner, "Race Disqualification", [f"Player {i}" for i in range(8)])
    for i in range(KEEPERS):
        organizer = make_user(f"keeper{i}@example.com", PASSWORD)
        db.session.add(Staff(tournament_id=t.id, user_id=organizer.id, role="organizer"))
    db.session.commit()
    organizers = [_keeper(served, i) for i in range(KEEPERS)]
    mid, corp, _runner = tables(t)[0]
    data = {"player": str(corp.id), "round": "1", "infraction": "cheating", "kind": "disqualification"}
    url = f"{served}/tournaments/{t.id}/penalties/new"
    answers = fire([lambda o=o: post(o, url, data) for o in organizers], workers=KEEPERS)
    assert sorted(answers) == [303] + [409] * (KEEPERS - 1), answers
    db.session.expire_all()
    assert db.session.scalar(sa.select(sa.func.count(Penalty.id))) == 1
    assert db.session.scalar(sa.select(sa.func.count(ResultChange.id))) == 1
    change = db.session.scalars(sa.select(ResultChange)).one()
    assert change.match_id == mid and "Disqualification" in change.reason
    assert db.session.get(Match, mid).result == "runner"  # the Corp's game is lost
    player = db.session.get(Player, corp.id)
    assert player.dropped and player.drop_reason == "disqualified"
    assert_coherent(t)

"""What pairing a roll call's round does first, in the database (app/services/check_in/roll_call.py plan and
at_pairing, app/services/swiss/rounds.py pair_next_round): the no-shows dropped with the defaults (no deadline),
the places going to waiting players who checked in, in line order, a stale plan refused, a failed pairing leaving
nothing behind, and a check-in made while waiting carried over."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.core.check_in import PairingPlan
from app.extensions import db
from app.models import CheckIn, CheckInSettings, Player, Round, Seat, Tournament, WaitlistEntry
from app.services.check_in import roll_call
from app.services.players import registration, states
from app.services.swiss import rounds


def _event(make_user, cap=6, waiting=4, no_shows="drop", names=None) -> tuple[Tournament, dict[str, Player]]:
    """`cap` players in, `waiting` more on the waitlist; the roll call on with the defaults (no deadline)."""
    t = Tournament(owner=make_user(), name="Regional", format="single", registration_open=True,
                   registration_cap=cap)
    db.session.add(t)
    db.session.flush()
    db.session.add(CheckInSettings(tournament_id=t.id, enabled=True, round=1, no_shows=no_shows, waitlist=True))
    db.session.commit()
    names = names or [f"In {i}" for i in range(1, cap + 1)] + [f"Wait {i}" for i in range(1, waiting + 1)]
    for name in names:
        registration.register(t, name)
    return t, {p.name: p for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id))}


def _check_in(t, *players):
    for p in players:
        assert roll_call.check_in(t, p, by_staff=True)


def _seated(t) -> set[str]:
    return set(db.session.scalars(sa.select(Player.name).join(Seat, Seat.player_id == Player.id)
                                  .where(Seat.tournament_id == t.id)))


def test_the_days_bug_pairing_with_the_defaults_drops_the_absent_and_lets_in_the_present_waiting(app, make_user):
    t, p = _event(make_user)
    _check_in(t, *(p[f"In {i}"] for i in range(1, 5)), p["Wait 2"], p["Wait 4"])  # In 5, In 6 absent
    preview = roll_call.plan(t, 1)
    assert preview.drops == ["In 5", "In 6"] and preview.let_in == ["Wait 2", "Wait 4"] and not preview.left_in
    assert preview.summary() == ("Drops 2 not checked in: In 5, In 6; lets in 2 from the waitlist: "
                                 "Wait 2, Wait 4.")
    rounds.pair_next_round(t, 1, preview.digest)
    assert _seated(t) == {"In 1", "In 2", "In 3", "In 4", "Wait 2", "Wait 4"}
    now = states.of_event(t)
    assert [now[p[n].id].state.value for n in ("In 5", "In 6")] == ["no_show", "no_show"]
    assert now[p["Wait 1"].id].waiting and now[p["Wait 3"].id].waiting  # absent: skipped, still in line
    # their check-ins, made while waiting, are kept
    assert db.session.scalar(sa.select(sa.func.count(CheckIn.id)).where(
        CheckIn.player_id.in_([p["Wait 2"].id, p["Wait 4"].id]))) == 2


def test_a_stale_plan_does_nothing_and_says_what_pairing_does_now(app, make_user):
    t, p = _event(make_user, cap=4, waiting=1)
    _check_in(t, p["In 1"], p["In 2"], p["In 3"])
    seen = roll_call.plan(t, 1).digest  # drops In 4
    _check_in(t, p["In 4"])  # she arrives meanwhile
    with pytest.raises(rounds.PlanChanged) as refused:
        rounds.pair_next_round(t, 1, seen)
    assert not refused.value.preview.changes
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 0
    assert not db.session.get(Player, p["In 4"].id).dropped
    # the one click that saw nothing to change pairs once nothing changes
    rounds.pair_next_round(t, 1, PairingPlan(1).digest)
    assert _seated(t) == {"In 1", "In 2", "In 3", "In 4"}


def test_a_pairing_the_engine_refuses_leaves_no_drop_and_no_let_in(app, make_user, monkeypatch):
    from app.core import pairing

    t, p = _event(make_user, cap=4, waiting=1)
    _check_in(t, p["In 1"], p["In 2"], p["In 3"], p["Wait 1"])
    preview = roll_call.plan(t, 1)
    assert preview.drops == ["In 4"] and preview.let_in == ["Wait 1"]

    def refuse(*args, **kwargs):
        raise pairing.PairingError("In 1 and In 2 cannot meet")
    monkeypatch.setattr(pairing, "pair_round", refuse)
    with pytest.raises(rounds.RoundError, match="In 1 and In 2 cannot meet"):
        rounds.pair_next_round(t, 1, preview.digest)
    db.session.expire_all()
    assert not db.session.get(Player, p["In 4"].id).dropped
    assert db.session.scalar(sa.select(WaitlistEntry.promoted_at).filter_by(player_id=p["Wait 1"].id)) is None
    assert roll_call.plan(t, 1).digest == preview.digest  # the same plan stands, to try again


def test_left_in_the_absent_are_paired_and_shown_and_nobody_absent_is_let_in(app, make_user):
    t, p = _event(make_user, cap=4, waiting=2, no_shows="decide")
    _check_in(t, p["In 1"], p["In 2"], p["Wait 2"])
    preview = roll_call.plan(t, 1)
    assert preview.left_in == ["In 3", "In 4"] and not preview.drops and not preview.let_in
    rounds.pair_next_round(t, 1, preview.digest)
    assert _seated(t) == {"In 1", "In 2", "In 3", "In 4"}


def test_a_waiting_player_who_checks_in_takes_a_place_free_then_and_the_roll_call_counts_them(app, make_user):
    t, p = _event(make_user, cap=3, waiting=2)
    _check_in(t, p["In 1"])
    db.session.execute(sa.update(Player).where(Player.id == p["In 2"].id).values(dropped=True))  # a place frees
    db.session.commit()
    from app.services.check_in import waitlist
    assert waitlist.fill(t) == [] and db.session.commit() is None  # nobody waiting is here: nobody let in
    _check_in(t, p["Wait 2"])  # the second in line arrives: the free place is hers (Wait 1 is not here)
    now = states.of_event(t)
    assert not now[p["Wait 2"].id].waiting and now[p["Wait 2"].id].present and now[p["Wait 1"].id].waiting
    sheet = roll_call.sheet(t)
    assert sheet.checked == 2 and sheet.not_yet == 1  # In 1 and Wait 2 checked in, In 3 not yet
    assert [r.name for r in sheet.waiting] == ["Wait 1"]

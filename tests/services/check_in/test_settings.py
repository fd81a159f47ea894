"""An event's check-in settings (app/services/check_in/settings.py): no row reads as all off; saving sets the
deadline from now; the waitlist switch alone leaves the roll call as it was."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.core.check_in import FIRST_ROUND, NoShows, RollCall
from app.extensions import db
from app.services.check_in import settings


def test_no_row_is_all_off_and_a_saved_one_reads_back(make_user, make_tournament):
    t = make_tournament(make_user())
    assert settings.roll_call(t) == RollCall() and not settings.keeps_waitlist(t)
    now = datetime(2026, 6, 13, 9, 0, tzinfo=timezone.utc)
    settings.save(t, enabled=True, no_shows=NoShows.DECIDE, waitlist=True, closes_in=15, now=now)
    db.session.commit()
    assert settings.roll_call(t) == RollCall(True, FIRST_ROUND, now + timedelta(minutes=15), NoShows.DECIDE)
    assert settings.keeps_waitlist(t)


def test_the_waitlist_switch_alone_keeps_the_roll_call(make_user, make_tournament):
    t = make_tournament(make_user())
    settings.keep_waitlist(t, False)
    assert settings.row(t) is None  # off with no row: nothing written
    settings.keep_waitlist(t, True)
    db.session.commit()
    assert settings.keeps_waitlist(t) and not settings.roll_call(t).enabled


def test_a_second_days_roll_call_starts_without_a_deadline(make_user, make_tournament):
    t = make_tournament(make_user())
    settings.save(t, enabled=False, no_shows=NoShows.DROP, waitlist=False, closes_in=5)
    settings.next_roll_call(t, 4)
    db.session.commit()
    call = settings.roll_call(t)
    assert (call.enabled, call.round, call.deadline) == (True, 4, None)

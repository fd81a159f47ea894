"""The event's write lock (app/services/locks.py): the holder reads what the last writer committed, and an event
deleted meanwhile is TournamentGone (a 404), not a crash."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Tournament
from app.services.locks import TournamentGone, lock_tournament


def test_the_lock_reloads_what_was_committed(make_user, make_tournament):
    t = make_tournament(make_user(), name="Before")
    db.session.execute(sa.update(Tournament).where(Tournament.id == t.id).values(name="After")
                       .execution_options(synchronize_session=False))
    assert t.name == "Before"  # the session's copy is stale
    assert lock_tournament(t).name == "After"


def test_a_deleted_event_is_gone(make_user, make_tournament):
    t = make_tournament(make_user())
    db.session.execute(sa.delete(Tournament).where(Tournament.id == t.id))
    with pytest.raises(TournamentGone):
        lock_tournament(t)

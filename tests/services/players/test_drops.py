"""Dropping a player and bringing them back (app/services/players/drops.py): who did it is recorded, a player
already out is refused with words, and a standing disqualification keeps them out."""
from __future__ import annotations

import pytest

from app.core.player_state import DropReason
from app.extensions import db
from app.models import Player
from app.services.players import drops
from tests.cut_helpers import add_players


def test_a_drop_records_who_did_it_and_a_second_is_refused(make_user, make_tournament):
    t = make_tournament(make_user())
    ana, _ = add_players(t, ["Ana", "Bo"])
    drops.drop(t, ana, DropReason.ORGANIZER)
    db.session.commit()
    row = db.session.get(Player, ana.id)
    assert row.dropped and row.drop_reason == DropReason.ORGANIZER.value
    with pytest.raises(drops.Refused, match="Ana is not in the event any more"):
        drops.drop(t, row, DropReason.PLAYER)


def test_bringing_back_clears_the_drop(make_user, make_tournament):
    t = make_tournament(make_user())
    (ana,) = add_players(t, ["Ana"])
    drops.drop(t, ana, DropReason.PLAYER)
    db.session.commit()
    drops.bring_back(t, ana)
    db.session.commit()
    row = db.session.get(Player, ana.id)
    assert not row.dropped and row.drop_reason is None

"""The penalty log's tables (app/models/penalties.py): STANDING_DISQUALIFICATION, the one condition for "this
player is disqualified", holds a disqualification until it is voided and nothing else."""
from __future__ import annotations

import sqlalchemy as sa

from app.core.penalties import Infraction, Kind
from app.extensions import db
from app.models import Penalty
from app.models.penalties import STANDING_DISQUALIFICATION, utcnow
from tests.cut_helpers import add_players


def test_only_a_disqualification_not_voided_stands(make_user, make_tournament):
    t = make_tournament(make_user())
    ana, bo, cy = add_players(t, ["Ana", "Bo", "Cy"])
    for player, kind, voided in ((ana, Kind.DISQUALIFICATION, None), (bo, Kind.DISQUALIFICATION, utcnow()),
                                 (cy, Kind.WARNING, None)):
        db.session.add(Penalty(tournament_id=t.id, player_id=player.id, infraction=Infraction.MISSED_TRIGGER.value,
                               kind=kind.value, voided_at=voided, voided_by=voided and "Judge",
                               void_reason=voided and "wrong player"))
    db.session.commit()
    standing = db.session.scalars(sa.select(Penalty.player_id).where(STANDING_DISQUALIFICATION)).all()
    assert standing == [ana.id]

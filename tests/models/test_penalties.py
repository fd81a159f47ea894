"""Which penalties lose has one home, Kind.loses (app/core/penalties.py): the model's constraints and partial
indexes are written from the enums (app/models/penalties.py), and the database the migrations made must hold the
same values. The migrations are history, never rewritten: this test is what catches an enum changed without one."""
from __future__ import annotations

import re
import pytest
import sqlalchemy as sa
from app.core.penalties import Kind
from app.extensions import db
from app.models import penalties as model
from app.core.penalties import Infraction
from app.models import Penalty
from app.models.penalties import STANDING_DISQUALIFICATION, utcnow
from tests.cut_helpers import add_players


def quoted(sql: str) -> set[str]:
    return set(re.findall(r"'(\w+)'", sql))


def migrated_sql(name: str) -> str:
    """The text the migrated database keeps for an index or check constraint (either backend)."""
    if db.engine.dialect.name == "sqlite":
        index = db.session.scalar(sa.text("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = :n"),
                                  {"n": name})
        if index is not None:
            return index
        table = db.session.scalar(sa.text("SELECT sql FROM sqlite_master WHERE name = 'penalties'"))
        part = table.split(f"CONSTRAINT {name} ")[1]
        return part.split("CONSTRAINT ")[0]
    return db.session.scalar(sa.text(
        "SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indexrelid = to_regclass(:n) "
        "UNION ALL SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = :n"), {"n": name})


def test_the_losing_kinds_are_the_ones_the_enum_says_lose():
    assert model.LOSING == [Kind.GAME_LOSS, Kind.MATCH_LOSS]
    assert quoted(model.LOSSES) == {"game_loss", "match_loss"}
    assert quoted(model.STANDING_DQ) == {k.value for k in Kind if k.drops}


@pytest.mark.parametrize("name, written", [
    ("uq_penalties_one_loss", model.STANDING_LOSSES),
    ("uq_penalties_one_disqualification", model.STANDING_DQ),
    ("ck_penalties_penalty_loss_round", model.LOSSES),
    ("ck_penalties_penalty_kind", model.KINDS),
    ("ck_penalties_penalty_infraction", model.INFRACTIONS),
])
def test_the_migrated_database_holds_what_the_enums_write(app, name, written):
    stored = migrated_sql(name)
    assert stored, name
    assert quoted(stored) == quoted(written)
    assert ("voided_at" in stored) == ("voided_at" in written)  # a voided penalty never counts


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

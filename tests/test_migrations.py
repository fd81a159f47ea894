"""Walking the migration chain down and up keeps the data and rebuilds the same schema.

On SQLite, batch mode rebuilds a table by copying it, dropping the old one and renaming the copy; with the
app's foreign keys on, the drop cascaded to every row referring to it (a rebuilt tournaments table took all
players, rounds, results and cuts with it, upgrading as well as downgrading)."""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask import current_app
from flask_migrate import downgrade, upgrade

from app.extensions import db
from app.models import Match, ResultChange, ResultClaim, Staff, Tournament, User
from cut_helpers import fixture_event

BEFORE_STAFF = "c4d1e7a9b3f2"  # the revision below 5e1f7a3c9b20, whose downgrade rebuilds players and tournaments


def _revisions() -> list[str]:
    """Every revision, head first."""
    config = current_app.extensions["migrate"].migrate.get_config()
    return [script.revision for script in ScriptDirectory.from_config(config).walk_revisions()]


def _fill() -> None:
    """A finished event with every kind of row: players, rounds, results, a claim, a change, staff, a cut."""
    owner = User(email="to@example.com")
    owner.set_password("correct horse")
    keeper = User(email="sam@example.com")
    keeper.set_password("correct horse")
    db.session.add_all([owner, keeper])
    db.session.commit()

    def make_tournament(user, **fields):
        t = Tournament(owner=user, **fields)
        db.session.add(t)
        db.session.commit()
        return t

    t = fixture_event(owner, make_tournament)
    match = db.session.scalars(sa.select(Match).where(Match.tournament_id == t.id, ~Match.is_bye)).first()
    player = match.seats[0].player
    db.session.add_all([
        ResultClaim(tournament_id=t.id, match_id=match.id, player_id=player.id, result=match.result),
        ResultChange(tournament_id=t.id, match_id=match.id, actor="player", player_id=player.id,
                     new_result=match.result),
        Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"),
    ])
    db.session.commit()


def _rows() -> dict[str, list[dict]]:
    """Every row of every table (but alembic_version), by primary key."""
    db.session.remove()
    inspector = sa.inspect(db.engine)
    found = {}
    for table in inspector.get_table_names():
        if table != "alembic_version":
            order = ", ".join(f'"{c}"' for c in inspector.get_pk_constraint(table)["constrained_columns"])
            query = sa.text(f'SELECT * FROM "{table}" ORDER BY {order}')
            found[table] = [dict(r._mapping) for r in db.session.execute(query)]
    db.session.remove()
    return found


def _columns() -> dict[str, set[str]]:
    inspector = sa.inspect(db.engine)
    columns = {t: {c["name"] for c in inspector.get_columns(t)} for t in inspector.get_table_names()}
    db.session.remove()
    return columns


def _kept(rows: dict[str, list[dict]], columns: dict[str, set[str]]) -> dict[str, list[dict]]:
    """`rows` cut down to `columns`' tables and columns (those an older revision has)."""
    return {t: [{c: v for c, v in row.items() if c in columns[t]} for row in table_rows]
            for t, table_rows in rows.items() if t in columns}


def _schema() -> dict:
    """Tables, columns, keys, indexes and checks, in an order that does not depend on how a table was rebuilt."""
    inspector = sa.inspect(db.engine)
    schema = {}
    for t in inspector.get_table_names():
        schema[t] = {
            "columns": sorted((c["name"], str(c["type"]), c["nullable"]) for c in inspector.get_columns(t)),
            "primary": inspector.get_pk_constraint(t)["constrained_columns"],
            "foreign": sorted((fk["name"], tuple(fk["constrained_columns"]), fk["referred_table"],
                               tuple(fk["referred_columns"]), fk["options"].get("ondelete"))
                              for fk in inspector.get_foreign_keys(t)),
            "unique": sorted((u["name"], tuple(u["column_names"])) for u in inspector.get_unique_constraints(t)),
            "indexes": sorted((i["name"], tuple(i["column_names"]), bool(i["unique"]))
                              for i in inspector.get_indexes(t)),
            "checks": sorted(c["name"] for c in inspector.get_check_constraints(t)),
        }
    db.session.remove()
    return schema


@pytest.mark.slow
def test_going_below_the_staff_migration_and_back_keeps_every_row(unmigrated_app):
    upgrade()
    _fill()
    before = _rows()
    downgrade(revision=BEFORE_STAFF)
    below, older = _rows(), _columns()
    assert below == _kept(before, older)
    assert all(below[t] for t in ("players", "rounds", "matches", "seats", "result_claims", "result_changes",
                                  "cut_entries", "cut_results"))
    upgrade()
    after = _rows()
    assert _kept(after, older) == below
    assert after["staff"] == []  # the one table the downgrade drops by design


@pytest.mark.slow
def test_every_migration_steps_down_and_up(unmigrated_app):
    """One step at a time, so a failing step is named: down to the initial schema (the last that holds data)
    and up again, keeping every row; then below it and up, to the same schema as a fresh upgrade. (Every test
    session upgrades an empty database from base first: tests/conftest.py.)"""
    revisions = _revisions()
    upgrade()
    head_schema = _schema()
    _fill()
    rows = _rows()
    for revision in revisions[1:]:
        downgrade(revision=revision)
        older = _rows()
        assert older == _kept(rows, _columns()), f"rows lost or changed going down to {revision}"
        rows = older
    assert all(rows.values())
    for revision in reversed(revisions[:-1]):
        columns = _columns()
        upgrade(revision=revision)
        newer = _rows()
        assert _kept(newer, columns) == rows, f"rows lost or changed going up to {revision}"
        rows = newer
    assert _schema() == head_schema
    downgrade(revision="base")
    assert sa.inspect(db.engine).get_table_names() == ["alembic_version"]
    db.session.remove()
    upgrade()
    assert _schema() == head_schema


@pytest.mark.slow
def test_sqlite_migration_fails_loudly_on_a_dangling_row(unmigrated_app, capfd):
    """Foreign keys are off while migrating on SQLite, so the check after the migrations is what catches a bad one
    (SQLite's DDL is not transactional: the steps already run stay run)."""
    if db.engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL checks foreign keys on every statement")
    revisions = _revisions()
    upgrade(revision=revisions[1])
    with db.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        conn.exec_driver_sql("INSERT INTO cut_entries (tournament_id, player_id, seed) VALUES (1, 1, 1)")
        conn.commit()
    with pytest.raises(SystemExit):  # Flask-Migrate logs the error and exits, as `flask db upgrade` would
        upgrade()
    assert "foreign keys point nowhere: [('cut_entries'" in capfd.readouterr().err

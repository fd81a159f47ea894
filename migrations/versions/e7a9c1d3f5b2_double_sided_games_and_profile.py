"""double-sided results keep both games; the account's display name and NetrunnerDB username

A double-sided result used to be the round's total ("6-0", "3-3", "4-1"); it is now both games, seat 1's game as
Corp first: "3-0/0-3" (see app/core/results.py). A total that does not say which side won (3-3, 4-1, 1-4) is converted
by the documented default: the Corp players won (3-3 -> "3-0/0-3", each player won as Corp; 4-1 -> "3-0/1-1", a
Corp win then a tie; 1-4 -> "1-1/0-3"). Points, and so standings, do not change. Downgrade writes totals back.

Revision ID: e7a9c1d3f5b2
Revises: d8e2f4a6b1c3
Create Date: 2026-11-23 09:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'e7a9c1d3f5b2'
down_revision = 'd8e2f4a6b1c3'
branch_labels = None
depends_on = None

# The nine pairs of games and their totals; where totals repeat, the first listed is the default (Corps won).
GAMES = {
    "6-0": "3-0/3-0", "4-1": "3-0/1-1", "3-3": "3-0/0-3", "2-2": "1-1/1-1", "1-4": "1-1/0-3", "0-6": "0-3/0-3",
}
OTHERS = {"1-1/3-0": "4-1", "0-3/3-0": "3-3", "0-3/1-1": "1-4"}

# Tables whose result strings are converted; result_changes keeps the history readable in the new form too.
COLUMNS = [("matches", "result"), ("result_claims", "result"), ("result_changes", "old_result"),
           ("result_changes", "new_result")]


def _convert(mapping: dict) -> None:
    for table, column in COLUMNS:
        for old, new in mapping.items():
            op.execute(sa.text(
                f"UPDATE {table} SET {column} = :new WHERE {column} = :old AND tournament_id IN "
                "(SELECT id FROM tournaments WHERE format = 'double')").bindparams(old=old, new=new))


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('display_name', sa.String(length=80), server_default='', nullable=False))
        batch_op.add_column(sa.Column('nrdb_username', sa.String(length=40), server_default='', nullable=False))
    _convert(GAMES)


def downgrade():
    _convert({**{games: total for total, games in GAMES.items()}, **OTHERS})
    # Not batch mode: on SQLite it copies and drops the users table, and with foreign keys on, dropping it
    # deletes every tournament (ON DELETE CASCADE). SQLite 3.35+ drops a column in place.
    op.drop_column('users', 'nrdb_username')
    op.drop_column('users', 'display_name')

"""player name key: names unique ignoring case and accents

Revision ID: b7c8d9e0f1a2
Revises: a1b2c3d4e5f6
Create Date: 2026-11-23 06:05:00

"""
import unicodedata

from alembic import op
import sqlalchemy as sa


revision = 'b7c8d9e0f1a2'
down_revision = 'a1b2c3d4e5f6'
branch_labels = None
depends_on = None


def _key(name):  # a copy of app.core.names.name_key as it was when this migration was written
    decomposed = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name_key', sa.String(length=200), nullable=True))
    players = sa.table('players', sa.column('id', sa.Integer), sa.column('tournament_id', sa.Integer),
                       sa.column('name', sa.String), sa.column('name_key', sa.String))
    conn = op.get_bind()
    seen = set()
    for pid, tid, name in conn.execute(sa.select(players.c.id, players.c.tournament_id, players.c.name)
                                       .order_by(players.c.id)).all():
        key = _key(name)
        if (tid, key) in seen:  # an older pair that differs only in case or accents keeps both rows
            key = f"{key}#{pid}"
        seen.add((tid, key))
        conn.execute(players.update().where(players.c.id == pid).values(name_key=key))
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('name_key', existing_type=sa.String(length=200), nullable=False)
        batch_op.drop_constraint('uq_players_tournament_id_name', type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_players_tournament_id_name_key'),
                                          ['tournament_id', 'name_key'])


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_players_tournament_id_name_key'), type_='unique')
        batch_op.create_unique_constraint('uq_players_tournament_id_name', ['tournament_id', 'name'])
        batch_op.drop_column('name_key')

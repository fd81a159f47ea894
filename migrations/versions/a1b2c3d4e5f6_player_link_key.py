"""player link key

Revision ID: a1b2c3d4e5f6
Revises: 0411080ff785
Create Date: 2026-11-23 06:00:00

"""
import secrets

from alembic import op
import sqlalchemy as sa


revision = 'a1b2c3d4e5f6'
down_revision = '0411080ff785'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('link_key', sa.String(length=32), nullable=True))
    players = sa.table('players', sa.column('id', sa.Integer), sa.column('link_key', sa.String))
    conn = op.get_bind()
    for (pid,) in conn.execute(sa.select(players.c.id)).all():
        conn.execute(players.update().where(players.c.id == pid).values(link_key=secrets.token_hex(16)))
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('link_key', existing_type=sa.String(length=32), nullable=False)


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('link_key')

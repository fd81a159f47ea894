"""moved player links: a moved event's players keep the links printed on the machine it came from

Revision ID: f18a0b1c2d3e
Revises: f19a5c0de5e1
Create Date: 2026-11-26 05:20:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f18a0b1c2d3e'
down_revision = 'f19a5c0de5e1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('moved_link', sa.String(length=64), nullable=True))
        batch_op.create_index('ix_players_moved_link', ['moved_link'], unique=False)


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index('ix_players_moved_link')
        batch_op.drop_column('moved_link')

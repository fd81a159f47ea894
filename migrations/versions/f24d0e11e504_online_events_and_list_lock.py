"""online events (jinteki.net and Discord handles per player) and the TO's lock of the decklists before round 1

Revision ID: f24d0e11e504
Revises: f24a0b7e5a01
Create Date: 2026-11-27 14:10:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f24d0e11e504'
down_revision = 'f24a0b7e5a01'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('lists_locked', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column('online', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('jinteki_name', sa.String(length=40), nullable=False, server_default=''))
        batch.add_column(sa.Column('discord', sa.String(length=40), nullable=False, server_default=''))


def downgrade():
    with op.batch_alter_table('players') as batch:
        batch.drop_column('discord')
        batch.drop_column('jinteki_name')
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('online')
        batch.drop_column('lists_locked')

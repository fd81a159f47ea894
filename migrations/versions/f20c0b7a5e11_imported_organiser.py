"""the organiser an imported NRTM file names, written back in the event's NRTM export unless the account sets one

Revision ID: f20c0b7a5e11
Revises: e7a9c1d3f5b2
Create Date: 2026-11-26 05:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f20c0b7a5e11'
down_revision = 'e7a9c1d3f5b2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('organiser_name', sa.String(length=80), nullable=False, server_default=''))
        batch.add_column(sa.Column('organiser_nrdb_username', sa.String(length=40), nullable=False,
                                   server_default=''))
        batch.add_column(sa.Column('organiser_nrdb_id', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('organiser_nrdb_id')
        batch.drop_column('organiser_nrdb_username')
        batch.drop_column('organiser_name')

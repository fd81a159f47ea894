"""seeding by rating: a per-event switch letting the series' ratings choose among equal-cost pairings

Revision ID: f25b2a7e1502
Revises: f25a1c0e5e01
Create Date: 2026-11-27 17:20:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f25b2a7e1502'
down_revision = "f25a1c0e5e01"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('seed_by_rating', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('seed_by_rating')

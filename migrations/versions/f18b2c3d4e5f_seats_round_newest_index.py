"""seats (round_id, id) index: the status poll's newest seat of a round in one probe

Revision ID: f18b2c3d4e5f
Revises: f18a0b1c2d3e
Create Date: 2026-11-26 05:40:00

"""
from alembic import op


revision = 'f18b2c3d4e5f'
down_revision = 'f18a0b1c2d3e'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index('ix_seats_round_id_id', ['round_id', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index('ix_seats_round_id_id')

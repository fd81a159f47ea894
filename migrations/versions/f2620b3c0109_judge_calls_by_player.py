"""a player's judge calls by their id, newest first: the player page's facts find the newest call in one probe

Revision ID: f2620b3c0109
Revises: f2610a1d0108
Create Date: 2026-11-28 00:30:00
"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'f2620b3c0109'
down_revision = "f2610a1d0108"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('judge_calls', schema=None) as batch_op:
        batch_op.create_index('ix_judge_calls_player_id_id', ['player_id', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('judge_calls', schema=None) as batch_op:
        batch_op.drop_index('ix_judge_calls_player_id_id')

"""round timer: the event's default round length and each round's clock

Revision ID: c4d1e7a9b3f2
Revises: c3d4e5f6a7b8
Create Date: 2026-11-23 06:10:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'c4d1e7a9b3f2'
down_revision = 'c3d4e5f6a7b8'
branch_labels = None
depends_on = None

TIMER_CHECK = (
    "(timer_state IS NULL AND timer_ends_at IS NULL AND timer_remaining_ms IS NULL)"
    " OR (timer_state IS NOT NULL AND ("
    "(timer_state = 'running' AND timer_ends_at IS NOT NULL AND timer_remaining_ms IS NULL)"
    " OR (timer_state = 'paused' AND timer_ends_at IS NULL AND timer_remaining_ms IS NOT NULL"
    " AND timer_remaining_ms BETWEEN 0 AND 36000000)"
    " OR (timer_state = 'called' AND timer_ends_at IS NULL AND timer_remaining_ms IS NULL)))")


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('round_minutes', sa.Integer(), server_default='65', nullable=False))
        batch_op.create_check_constraint('round_minutes', 'round_minutes BETWEEN 1 AND 600')
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('timer_state', sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column('timer_ends_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('timer_remaining_ms', sa.Integer(), nullable=True))
        batch_op.create_check_constraint('timer', TIMER_CHECK)


def downgrade():
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_rounds_timer'), type_='check')
        batch_op.drop_column('timer_remaining_ms')
        batch_op.drop_column('timer_ends_at')
        batch_op.drop_column('timer_state')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_tournaments_round_minutes'), type_='check')
        batch_op.drop_column('round_minutes')

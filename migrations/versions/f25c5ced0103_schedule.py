"""the event's schedule: days and items, the event's time zone, and when each round began

Revision ID: f25c5ced0103
Revises: f25b2a7e1502
Create Date: 2026-11-27 17:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f25c5ced0103'
down_revision = "f25b2a7e1502"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('time_zone', sa.String(length=64), nullable=False, server_default='UTC'))
    with op.batch_alter_table('rounds') as batch:
        batch.add_column(sa.Column('started_at', sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        'schedule_days',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('turnaround', sa.Integer(), server_default='10', nullable=False),
        sa.CheckConstraint('number BETWEEN 1 AND 7', name='day_number'),
        sa.CheckConstraint('turnaround BETWEEN 0 AND 120', name='turnaround'),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tournament_id', 'number'),
    )
    op.create_table(
        'schedule_items',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('day', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=8), nullable=False),
        sa.Column('minutes', sa.Integer(), nullable=False),
        sa.Column('label', sa.String(length=60), server_default='', nullable=False),
        sa.Column('fixed_end', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.CheckConstraint("kind IN ('round', 'cut', 'break')", name='kind'),
        sa.CheckConstraint('minutes BETWEEN 1 AND 600', name='minutes'),
        sa.CheckConstraint('day BETWEEN 1 AND 7', name='item_day'),
        sa.CheckConstraint('position > 0', name='position_positive'),
        sa.CheckConstraint("fixed_end = false OR kind = 'break'", name='fixed_end_break'),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tournament_id', 'position'),
    )


def downgrade():
    op.drop_table('schedule_items')
    op.drop_table('schedule_days')
    with op.batch_alter_table('rounds') as batch:
        batch.drop_column('started_at')
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('time_zone')

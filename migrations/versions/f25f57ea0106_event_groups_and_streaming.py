"""event groups (one public page for a weekend's main and side events) and streaming (a player's coverage opt-out,
the event's stream link, a round's featured table)

Revision ID: f25f57ea0106
Revises: f25e9e4a1705
Create Date: 2026-11-27 17:20:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f25f57ea0106'
down_revision = "f25e9e4a1705"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'event_groups',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('owner_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('slug', sa.String(length=40), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['owner_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('slug'),
    )
    op.create_index(op.f('ix_event_groups_owner_id'), 'event_groups', ['owner_id'], unique=False)
    op.create_table(
        'event_group_members',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['event_groups.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tournament_id'),
    )
    op.create_index(op.f('ix_event_group_members_group_id'), 'event_group_members', ['group_id'], unique=False)
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('stream_url', sa.String(length=300), nullable=False, server_default=''))
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('no_coverage', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('rounds') as batch:
        batch.add_column(sa.Column('featured_table', sa.Integer(), nullable=True))
        batch.create_check_constraint(batch.f('ck_rounds_featured_table_positive'), 'featured_table IS NULL OR featured_table > 0')


def downgrade():
    with op.batch_alter_table('rounds') as batch:
        batch.drop_constraint(batch.f('ck_rounds_featured_table_positive'), type_='check')
        batch.drop_column('featured_table')
    with op.batch_alter_table('players') as batch:
        batch.drop_column('no_coverage')
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('stream_url')
    op.drop_index(op.f('ix_event_group_members_group_id'), table_name='event_group_members')
    op.drop_table('event_group_members')
    op.drop_index(op.f('ix_event_groups_owner_id'), table_name='event_groups')
    op.drop_table('event_groups')

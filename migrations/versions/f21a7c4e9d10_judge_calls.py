"""judge_calls: a player's call for a judge, claimed and resolved by staff

Revision ID: f21a7c4e9d10
Revises: f21d0c4d1157
Create Date: 2026-11-26 07:45:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f21a7c4e9d10'
down_revision = 'f21d0c4d1157'
branch_labels = None
depends_on = None

OPEN = sa.text("state IN ('open', 'claimed')")


def upgrade():
    op.create_table(
        'judge_calls',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('round_number', sa.Integer(), nullable=True),
        sa.Column('table', sa.Integer(), nullable=True),
        sa.Column('reason', sa.String(length=100), server_default='', nullable=False),
        sa.Column('state', sa.String(length=9), nullable=False),
        sa.Column('version', sa.Integer(), server_default='1', nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('claimed_by_id', sa.Integer(), nullable=True),
        sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('resolved_by_id', sa.Integer(), nullable=True),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("state IN ('open', 'claimed', 'resolved', 'cancelled')",
                           name=op.f('ck_judge_calls_state')),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_judge_calls_tournament_id_tournaments'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id', 'tournament_id'], ['players.id', 'players.tournament_id'],
                                name=op.f('fk_judge_calls_player_id_tournament_id_players'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['claimed_by_id'], ['users.id'], name=op.f('fk_judge_calls_claimed_by_id_users'),
                                ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['resolved_by_id'], ['users.id'], name=op.f('fk_judge_calls_resolved_by_id_users'),
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_judge_calls')),
    )
    op.create_index('ix_judge_calls_tournament_id_id', 'judge_calls', ['tournament_id', 'id'], unique=False)
    op.create_index('uq_judge_calls_one_open', 'judge_calls', ['player_id'], unique=True,
                    sqlite_where=OPEN, postgresql_where=OPEN)


def downgrade():
    op.drop_index('uq_judge_calls_one_open', table_name='judge_calls')
    op.drop_index('ix_judge_calls_tournament_id_id', table_name='judge_calls')
    op.drop_table('judge_calls')

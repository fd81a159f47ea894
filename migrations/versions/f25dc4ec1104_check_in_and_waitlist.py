"""check-in and the waitlist: an event's roll call settings, players' check-ins per roll call, the waitlist in order

Revision ID: f25dc4ec1104
Revises: f25f57ea0106
Create Date: 2026-11-27 17:09:36

New tables only: existing events have no row in check_in_settings, which reads as check-in off and no waitlist.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f25dc4ec1104'
down_revision = "f25f57ea0106"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('check_in_settings',
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('no_shows', sa.String(length=8), nullable=False),
    sa.Column('waitlist', sa.Boolean(), nullable=False),
    sa.CheckConstraint("no_shows IN ('drop', 'decide')", name=op.f('ck_check_in_settings_no_shows')),
    sa.CheckConstraint('round > 0', name=op.f('ck_check_in_settings_round_positive')),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_check_in_settings_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('tournament_id', name=op.f('pk_check_in_settings'))
    )
    op.create_table('check_ins',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('by_staff', sa.Boolean(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id', 'tournament_id'], ['players.id', 'players.tournament_id'], name=op.f('fk_check_ins_player_id_tournament_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_check_ins_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_check_ins')),
    sa.UniqueConstraint('player_id', 'round', name=op.f('uq_check_ins_player_id_round'))
    )
    with op.batch_alter_table('check_ins', schema=None) as batch_op:
        batch_op.create_index('ix_check_ins_tournament_round', ['tournament_id', 'round'], unique=False)

    op.create_table('waitlist',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('promoted_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint('position > 0', name=op.f('ck_waitlist_position_positive')),
    sa.ForeignKeyConstraint(['player_id', 'tournament_id'], ['players.id', 'players.tournament_id'], name=op.f('fk_waitlist_player_id_tournament_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_waitlist_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_waitlist')),
    sa.UniqueConstraint('player_id', name=op.f('uq_waitlist_player_id')),
    sa.UniqueConstraint('tournament_id', 'position', name=op.f('uq_waitlist_tournament_id_position'))
    )


def downgrade():
    op.drop_table('waitlist')
    with op.batch_alter_table('check_ins', schema=None) as batch_op:
        batch_op.drop_index('ix_check_ins_tournament_round')

    op.drop_table('check_ins')
    op.drop_table('check_in_settings')

"""penalties and deck checks (app/models/penalties.py), and the reason a rule gives for a result change

Revision ID: f25e9e4a1705
Revises: f25c5ced0103
Create Date: 2026-11-27 17:09:02.455763

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f25e9e4a1705'
down_revision = "f25c5ced0103"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('deck_check_draws',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('round_number', sa.Integer(), nullable=True),
    sa.Column('seed', sa.String(length=32), nullable=False),
    sa.Column('pool', sa.String(length=8), nullable=False),
    sa.Column('top_tables', sa.Integer(), server_default='4', nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('candidates', sa.JSON(), nullable=False),
    sa.Column('picked', sa.JSON(), nullable=False),
    sa.Column('drawn_by_id', sa.Integer(), nullable=True),
    sa.Column('drawn_by', sa.String(length=254), server_default='', nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("pool IN ('field', 'top')", name=op.f('ck_deck_check_draws_deck_check_pool')),
    sa.CheckConstraint('count > 0', name=op.f('ck_deck_check_draws_deck_check_count')),
    sa.CheckConstraint('top_tables > 0', name=op.f('ck_deck_check_draws_deck_check_top_tables')),
    sa.ForeignKeyConstraint(['drawn_by_id'], ['users.id'], name=op.f('fk_deck_check_draws_drawn_by_id_users'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_deck_check_draws_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deck_check_draws'))
    )
    with op.batch_alter_table('deck_check_draws', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_deck_check_draws_tournament_id'), ['tournament_id'], unique=False)

    op.create_table('deck_checks',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('round_number', sa.Integer(), nullable=False),
    sa.Column('draw_id', sa.Integer(), nullable=True),
    sa.Column('checked_by_id', sa.Integer(), nullable=True),
    sa.Column('checked_by', sa.String(length=254), server_default='', nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('round_number >= 0', name=op.f('ck_deck_checks_deck_check_round')),
    sa.ForeignKeyConstraint(['checked_by_id'], ['users.id'], name=op.f('fk_deck_checks_checked_by_id_users'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['draw_id'], ['deck_check_draws.id'], name=op.f('fk_deck_checks_draw_id_deck_check_draws'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['player_id', 'tournament_id'], ['players.id', 'players.tournament_id'], name=op.f('fk_deck_checks_player_id_tournament_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_deck_checks_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deck_checks')),
    sa.UniqueConstraint('player_id', 'round_number', name=op.f('uq_deck_checks_player_id_round_number'))
    )
    with op.batch_alter_table('deck_checks', schema=None) as batch_op:
        batch_op.create_index('ix_deck_checks_tournament_id', ['tournament_id'], unique=False)

    op.create_table('penalties',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('round_number', sa.Integer(), nullable=True),
    sa.Column('game', sa.Integer(), server_default='0', nullable=False),
    sa.Column('infraction', sa.String(length=24), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('notes', sa.String(length=1000), server_default='', nullable=False),
    sa.Column('recorded_by_id', sa.Integer(), nullable=True),
    sa.Column('recorded_by', sa.String(length=254), server_default='', nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('result_before', sa.String(length=16), nullable=True),
    sa.Column('result_after', sa.String(length=16), nullable=True),
    sa.CheckConstraint("NOT (kind IN ('game_loss', 'match_loss')) OR round_number IS NOT NULL", name=op.f('ck_penalties_penalty_loss_round')),
    sa.CheckConstraint("infraction IN ('missed_trigger', 'extra_cards_seen', 'extra_cards_drawn', 'starting_hand', 'illegal_install', 'hidden_information', 'game_state', 'slow_play', 'tardiness', 'deck_error', 'outside_assistance', 'marked_cards', 'communication', 'conduct_minor', 'conduct_major', 'cheating', 'collusion', 'bribery', 'other')", name=op.f('ck_penalties_penalty_infraction')),
    sa.CheckConstraint("kind IN ('warning', 'game_loss', 'match_loss', 'disqualification')", name=op.f('ck_penalties_penalty_kind')),
    sa.CheckConstraint('game IN (0, 1, 2)', name=op.f('ck_penalties_penalty_game')),
    sa.CheckConstraint('round_number IS NULL OR round_number > 0', name=op.f('ck_penalties_penalty_round_positive')),
    sa.ForeignKeyConstraint(['player_id', 'tournament_id'], ['players.id', 'players.tournament_id'], name=op.f('fk_penalties_player_id_tournament_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['recorded_by_id'], ['users.id'], name=op.f('fk_penalties_recorded_by_id_users'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_penalties_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_penalties'))
    )
    with op.batch_alter_table('penalties', schema=None) as batch_op:
        batch_op.create_index('ix_penalties_tournament_id_id', ['tournament_id', 'id'], unique=False)
        batch_op.create_index('uq_penalties_one_loss', ['player_id', 'round_number', 'game'], unique=True, sqlite_where=sa.text("kind IN ('game_loss', 'match_loss')"), postgresql_where=sa.text("kind IN ('game_loss', 'match_loss')"))

    with op.batch_alter_table('result_changes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reason', sa.String(length=200), nullable=True))



def downgrade():
    with op.batch_alter_table('result_changes', schema=None) as batch_op:
        batch_op.drop_column('reason')

    with op.batch_alter_table('penalties', schema=None) as batch_op:
        batch_op.drop_index('uq_penalties_one_loss', sqlite_where=sa.text("kind IN ('game_loss', 'match_loss')"), postgresql_where=sa.text("kind IN ('game_loss', 'match_loss')"))
        batch_op.drop_index('ix_penalties_tournament_id_id')

    op.drop_table('penalties')
    with op.batch_alter_table('deck_checks', schema=None) as batch_op:
        batch_op.drop_index('ix_deck_checks_tournament_id')

    op.drop_table('deck_checks')
    with op.batch_alter_table('deck_check_draws', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_deck_check_draws_tournament_id'))

    op.drop_table('deck_check_draws')

"""cut games kept as played: each imported game's table, and for cuts no layout describes its round and players

Revision ID: d8e2f4a6b1c3
Revises: 5e1f7a3c9b20
Create Date: 2026-11-23 09:20:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'd8e2f4a6b1c3'
down_revision = '5e1f7a3c9b20'
branch_labels = None
depends_on = None

PLAYED = ("(player1_id IS NULL AND player2_id IS NULL AND round IS NULL)"
          " OR (player1_id IS NOT NULL AND player2_id IS NOT NULL AND round IS NOT NULL AND round > 0"
          " AND player1_id <> player2_id)")


def upgrade():
    with op.batch_alter_table('cut_results', schema=None) as batch_op:
        batch_op.add_column(sa.Column('table', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('round', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('player1_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('player2_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_cut_results_player1_id_tournament_id_players'), 'players',
                                    ['player1_id', 'tournament_id'], ['id', 'tournament_id'], ondelete='CASCADE')
        batch_op.create_foreign_key(batch_op.f('fk_cut_results_player2_id_tournament_id_players'), 'players',
                                    ['player2_id', 'tournament_id'], ['id', 'tournament_id'], ondelete='CASCADE')
        batch_op.create_check_constraint('played', PLAYED)
        batch_op.create_check_constraint('table_positive', '"table" IS NULL OR "table" > 0')


def downgrade():
    with op.batch_alter_table('cut_results', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_cut_results_table_positive'), type_='check')
        batch_op.drop_constraint(batch_op.f('ck_cut_results_played'), type_='check')
        batch_op.drop_constraint(batch_op.f('fk_cut_results_player2_id_tournament_id_players'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('fk_cut_results_player1_id_tournament_id_players'), type_='foreignkey')
        batch_op.drop_column('player2_id')
        batch_op.drop_column('player1_id')
        batch_op.drop_column('round')
        batch_op.drop_column('table')

"""an imported file's penalties (points a seat lost at its table), twoForOne flags and swiss ranks

Revision ID: f24e0f11e505
Revises: f23b1c2d3e4f
Create Date: 2026-11-27 14:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f24e0f11e505'
down_revision = 'f23b1c2d3e4f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('penalty', sa.Integer(), nullable=False, server_default='0'))
        batch.create_check_constraint(batch.f('ck_seats_penalty'), 'penalty >= 0')
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('two_for_one', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('file_rank', sa.Integer(), nullable=True))
        batch.create_check_constraint(batch.f('ck_players_file_rank_positive'), 'file_rank IS NULL OR file_rank > 0')


def downgrade():
    with op.batch_alter_table('players') as batch:
        batch.drop_constraint(batch.f('ck_players_file_rank_positive'), type_='check')
        batch.drop_column('file_rank')
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('two_for_one')
    with op.batch_alter_table('seats') as batch:
        batch.drop_constraint(batch.f('ck_seats_penalty'), type_='check')
        batch.drop_column('penalty')

"""an imported file's faction of an identity SASS does not know; an imported file's own ranking of its cut

Revision ID: f21e0a7c3b94
Revises: f18b2c3d4e5f
Create Date: 2026-11-26 08:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f21e0a7c3b94'
down_revision = 'f18b2c3d4e5f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('corp_faction', sa.String(length=24), nullable=True))
        batch.add_column(sa.Column('runner_faction', sa.String(length=24), nullable=True))
    with op.batch_alter_table('cut_entries') as batch:
        batch.add_column(sa.Column('rank', sa.Integer(), nullable=True))
        batch.create_check_constraint(batch.f('ck_cut_entries_rank_positive'), 'rank IS NULL OR rank > 0')


def downgrade():
    with op.batch_alter_table('cut_entries') as batch:
        batch.drop_constraint(batch.f('ck_cut_entries_rank_positive'), type_='check')
        batch.drop_column('rank')
    with op.batch_alter_table('players') as batch:
        batch.drop_column('runner_faction')
        batch.drop_column('corp_faction')

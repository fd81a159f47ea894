"""NetrunnerDB accounts (id, username, history public or not) and the player entries linked to them

Revision ID: f24b0d5b1a02
Revises: f24f0a3e1506
Create Date: 2026-11-27 14:05:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f24b0d5b1a02'
down_revision = 'f24f0a3e1506'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'nrdb_accounts',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('nrdb_id', sa.Integer(), nullable=False),
        sa.Column('username', sa.String(length=100), nullable=False),
        sa.Column('history_public', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('nrdb_id', name=op.f('uq_nrdb_accounts_nrdb_id')),
        sa.CheckConstraint('nrdb_id > 0', name=op.f('ck_nrdb_accounts_nrdb_id_positive')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_nrdb_accounts')),
    )
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('nrdb_account_id', sa.Integer(), nullable=True))
        batch.create_foreign_key('fk_players_nrdb_account_id_nrdb_accounts', 'nrdb_accounts',
                                 ['nrdb_account_id'], ['id'], ondelete='SET NULL')
        batch.create_index('ix_players_nrdb_account_id', ['nrdb_account_id'])
        batch.create_unique_constraint('uq_players_nrdb_account', ['tournament_id', 'nrdb_account_id'])


def downgrade():
    with op.batch_alter_table('players') as batch:
        batch.drop_constraint('uq_players_nrdb_account', type_='unique')
        batch.drop_index('ix_players_nrdb_account_id')
        batch.drop_constraint('fk_players_nrdb_account_id_nrdb_accounts', type_='foreignkey')
        batch.drop_column('nrdb_account_id')
    op.drop_table('nrdb_accounts')

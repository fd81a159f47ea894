"""decklists: the event's card format, restriction list and decklist visibility; players' lists

Revision ID: f21d0c4d1157
Revises: f21e0a7c3b94
Create Date: 2026-11-26 08:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'f21d0c4d1157'
down_revision = 'f21e0a7c3b94'
branch_labels = None
depends_on = None


def upgrade():
    # Plain ADD COLUMNs (no batch rebuild): on SQLite a rebuilt tournaments table would cascade-delete its rows.
    op.add_column('tournaments', sa.Column('decklists', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column('tournaments', sa.Column('card_format', sa.String(length=10), nullable=False,
                                           server_default='standard'))
    op.add_column('tournaments', sa.Column('restriction', sa.String(length=64), nullable=True))
    op.add_column('tournaments', sa.Column('decklist_visibility', sa.String(length=8), nullable=False,
                                           server_default='closed'))
    op.create_table(
        'decklists',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('side', sa.String(length=6), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('identity', sa.String(length=100), nullable=True),
        sa.Column('cards', sa.JSON(), nullable=False),
        sa.Column('valid', sa.Boolean(), nullable=False),
        sa.Column('problems', sa.JSON(), nullable=False),
        sa.Column('identity_was', sa.String(length=100), nullable=True),
        sa.Column('updated_by', sa.String(length=10), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('unlocked', sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.CheckConstraint("side IN ('corp', 'runner')", name=op.f('ck_decklists_side')),
        sa.CheckConstraint("updated_by IN ('player', 'organizer', 'staff')", name=op.f('ck_decklists_updated_by')),
        sa.ForeignKeyConstraint(['player_id', 'tournament_id'], ['players.id', 'players.tournament_id'],
                                name=op.f('fk_decklists_player_id_tournament_id_players'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_decklists_tournament_id_tournaments'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_decklists')),
        sa.UniqueConstraint('tournament_id', 'player_id', 'side', name=op.f('uq_decklists_tournament_id_player_id_side')),
    )


def downgrade():
    op.drop_table('decklists')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('decklist_visibility')
        batch_op.drop_column('restriction')
        batch_op.drop_column('card_format')
        batch_op.drop_column('decklists')

"""series (leagues, seasons, circuits): their staff, events, and the TO's decisions about their players

Revision ID: f25a1c0e5e01
Revises: f24d0e11e504
Create Date: 2026-11-27 17:09:32.915576

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f25a1c0e5e01'
down_revision = "f24d0e11e504"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('series',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('slug', sa.String(length=16), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('points_table', sa.String(length=500), nullable=False),
    sa.Column('participation', sa.String(length=16), server_default='0', nullable=False),
    sa.Column('best_n', sa.Integer(), nullable=True),
    sa.Column('field_reference', sa.Integer(), nullable=True),
    sa.Column('tiers', sa.String(length=500), server_default='', nullable=False),
    sa.Column('tie_breaks', sa.String(length=100), server_default='countback', nullable=False),
    sa.Column('invite_top', sa.Integer(), server_default='0', nullable=False),
    sa.Column('invite_winners', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('version', sa.Integer(), server_default='0', nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind IN ('league', 'season', 'circuit')", name=op.f('ck_series_kind')),
    sa.CheckConstraint('best_n IS NULL OR best_n > 0', name=op.f('ck_series_best_n_positive')),
    sa.CheckConstraint('field_reference IS NULL OR field_reference > 0', name=op.f('ck_series_field_reference_positive')),
    sa.CheckConstraint('invite_top >= 0', name=op.f('ck_series_invite_top')),
    sa.ForeignKeyConstraint(['owner_id'], ['users.id'], name=op.f('fk_series_owner_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_series')),
    sa.UniqueConstraint('slug', name=op.f('uq_series_slug'))
    )
    with op.batch_alter_table('series', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_series_owner_id'), ['owner_id'], unique=False)

    op.create_table('series_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('series_id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('tier', sa.String(length=40), server_default='', nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_series_events_series_id_series'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_series_events_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_series_events')),
    sa.UniqueConstraint('series_id', 'tournament_id', name=op.f('uq_series_events_series_id_tournament_id'))
    )
    with op.batch_alter_table('series_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_series_events_tournament_id'), ['tournament_id'], unique=False)

    op.create_table('series_players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('series_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=24), nullable=False),
    sa.Column('holds_invitation', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('declined', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('note', sa.String(length=200), server_default='', nullable=False),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_series_players_series_id_series'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_series_players')),
    sa.UniqueConstraint('series_id', 'key', name=op.f('uq_series_players_series_id_key'))
    )
    op.create_table('series_staff',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('series_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('role', sa.String(length=12), nullable=False),
    sa.CheckConstraint("role IN ('organizer')", name=op.f('ck_series_staff_role')),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_series_staff_series_id_series'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_series_staff_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_series_staff')),
    sa.UniqueConstraint('series_id', 'user_id', name=op.f('uq_series_staff_series_id_user_id'))
    )
    with op.batch_alter_table('series_staff', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_series_staff_user_id'), ['user_id'], unique=False)

    op.create_table('series_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('series_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('target_player_id', sa.Integer(), nullable=True),
    sa.Column('target_account_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('(target_player_id IS NULL) <> (target_account_id IS NULL)', name=op.f('ck_series_links_one_target')),
    sa.CheckConstraint('target_player_id IS NULL OR target_player_id <> player_id', name=op.f('ck_series_links_not_itself')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_series_links_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_series_links_series_id_series'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['target_account_id'], ['nrdb_accounts.id'], name=op.f('fk_series_links_target_account_id_nrdb_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['target_player_id'], ['players.id'], name=op.f('fk_series_links_target_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_series_links')),
    sa.UniqueConstraint('series_id', 'player_id', name=op.f('uq_series_links_series_id_player_id'))
    )
    with op.batch_alter_table('series_links', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_series_links_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_series_links_target_account_id'), ['target_account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_series_links_target_player_id'), ['target_player_id'], unique=False)

    op.create_table('series_rejections',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('series_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('target', sa.String(length=24), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_series_rejections_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_series_rejections_series_id_series'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_series_rejections')),
    sa.UniqueConstraint('series_id', 'player_id', 'target', name=op.f('uq_series_rejections_series_id_player_id_target'))
    )


def downgrade():
    op.drop_table('series_rejections')
    with op.batch_alter_table('series_links', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_series_links_target_player_id'))
        batch_op.drop_index(batch_op.f('ix_series_links_target_account_id'))
        batch_op.drop_index(batch_op.f('ix_series_links_player_id'))

    op.drop_table('series_links')
    with op.batch_alter_table('series_staff', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_series_staff_user_id'))

    op.drop_table('series_staff')
    op.drop_table('series_players')
    with op.batch_alter_table('series_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_series_events_tournament_id'))

    op.drop_table('series_events')
    with op.batch_alter_table('series', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_series_owner_id'))

    op.drop_table('series')

"""staff roles, self-registration settings, player pronouns

Revision ID: 5e1f7a3c9b20
Revises: c4d1e7a9b3f2
Create Date: 2026-11-23 06:20:00

"""
from alembic import op
import sqlalchemy as sa


revision = '5e1f7a3c9b20'
down_revision = 'c4d1e7a9b3f2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'staff',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('role', sa.String(length=12), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("role IN ('organizer', 'scorekeeper')", name=op.f('ck_staff_role')),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_staff_tournament_id_tournaments'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_staff_user_id_users'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_staff')),
        sa.UniqueConstraint('tournament_id', 'user_id', name=op.f('uq_staff_tournament_id_user_id')),
    )
    with op.batch_alter_table('staff', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_staff_user_id'), ['user_id'], unique=False)
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('registration_open', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
        batch_op.add_column(sa.Column('registration_cap', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('late_registration', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
        batch_op.create_check_constraint(batch_op.f('ck_tournaments_registration_cap_positive'),
                                         'registration_cap IS NULL OR registration_cap > 0')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pronouns', sa.String(length=40), server_default='', nullable=False))
        batch_op.add_column(sa.Column('self_registered', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('self_registered')
        batch_op.drop_column('pronouns')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_tournaments_registration_cap_positive'), type_='check')
        batch_op.drop_column('late_registration')
        batch_op.drop_column('registration_cap')
        batch_op.drop_column('registration_open')
    with op.batch_alter_table('staff', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_staff_user_id'))
    op.drop_table('staff')

"""what travels with a moved event: its slip key, each round's slip reference, and staff still to sign up

Revision ID: f24f0a3e1506
Revises: f24e0f11e505
Create Date: 2026-11-27 14:20:00

Existing events get a random slip key, and their rounds keep their id as slip reference: the codes already printed
name the round by its id and stay valid on this server by the former scheme (app/services/results/slip_codes.py
`_legacy`).
"""
import secrets

from alembic import op
import sqlalchemy as sa


revision = 'f24f0a3e1506'
down_revision = 'f24e0f11e505'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('slip_key', sa.String(length=64), nullable=True))
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('slip_ref', sa.Integer(), nullable=True))
    bind = op.get_bind()
    tournaments = sa.table('tournaments', sa.column('id', sa.Integer), sa.column('slip_key', sa.String))
    ids = bind.execute(sa.select(tournaments.c.id)).scalars().all()
    if ids:
        bind.execute(sa.update(tournaments).where(tournaments.c.id == sa.bindparam('tid'))
                     .values(slip_key=sa.bindparam('key')),
                     [{'tid': tid, 'key': secrets.token_hex(32)} for tid in ids])
    rounds = sa.table('rounds', sa.column('id', sa.Integer), sa.column('slip_ref', sa.Integer))
    bind.execute(sa.update(rounds).values(slip_ref=rounds.c.id))
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.alter_column('slip_key', existing_type=sa.String(length=64), nullable=False)
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.alter_column('slip_ref', existing_type=sa.Integer(), nullable=False)
    op.create_table(
        'pending_staff',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('role', sa.String(length=12), nullable=False),
        sa.CheckConstraint("role IN ('organizer', 'scorekeeper')", name=op.f('ck_pending_staff_role')),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_pending_staff_tournament_id_tournaments'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_pending_staff')),
        sa.UniqueConstraint('tournament_id', 'email', name=op.f('uq_pending_staff_tournament_id_email')),
    )
    with op.batch_alter_table('pending_staff', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_pending_staff_email'), ['email'], unique=False)


def downgrade():
    with op.batch_alter_table('pending_staff', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_pending_staff_email'))
    op.drop_table('pending_staff')
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_column('slip_ref')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('slip_key')

"""user session token: cookies carry a revocable token instead of the user id

Revision ID: c5e55a10a7e1
Revises: b7c8d9e0f1a2
Create Date: 2026-11-23 06:20:00

"""
import secrets

from alembic import op
import sqlalchemy as sa


revision = 'c5e55a10a7e1'
down_revision = 'b7c8d9e0f1a2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_token', sa.String(length=64), nullable=True))
    users = sa.table('users', sa.column('id', sa.Integer), sa.column('session_token', sa.String))
    conn = op.get_bind()
    for (uid,) in conn.execute(sa.select(users.c.id)).all():  # old cookies (carrying the id) stop working
        conn.execute(users.update().where(users.c.id == uid).values(session_token=secrets.token_urlsafe(32)))
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.alter_column('session_token', existing_type=sa.String(length=64), nullable=False)
        batch_op.create_unique_constraint(batch_op.f('uq_users_session_token'), ['session_token'])


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_users_session_token'), type_='unique')
        batch_op.drop_column('session_token')

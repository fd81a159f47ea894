"""pairing jobs (a pairing in the background, one per tournament and round) and each round's proof: certified, gap

Revision ID: f23b1c2d3e4f
Revises: f21a7c4e9d10
Create Date: 2026-11-26 07:55:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f23b1c2d3e4f'
down_revision = 'f21a7c4e9d10'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('rounds') as batch:
        batch.add_column(sa.Column('certified', sa.Boolean(), nullable=True))
        batch.add_column(sa.Column('gap', sa.String(length=64), nullable=True))
    op.create_table(
        'pairing_jobs',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('tournament_id', sa.Integer(), sa.ForeignKey('tournaments.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('state', sa.String(length=8), nullable=False),
        sa.Column('progress', sa.String(length=200), nullable=False),
        sa.Column('message', sa.Text(), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('tournament_id', 'number', name='uq_pairing_jobs_round'),
        sa.CheckConstraint("state IN ('running', 'failed', 'done')", name='pairing_job_state'),
    )


def downgrade():
    op.drop_table('pairing_jobs')
    with op.batch_alter_table('rounds') as batch:
        batch.drop_column('gap')
        batch.drop_column('certified')

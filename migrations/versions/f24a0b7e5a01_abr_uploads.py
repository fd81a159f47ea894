"""results to AlwaysBeRunning: the event's ABR id and the upload queue (one row per version of the file)

Revision ID: f24a0b7e5a01
Revises: f24b0d5b1a02
Create Date: 2026-11-27 14:10:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f24a0b7e5a01'
down_revision = 'f24b0d5b1a02'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('abr_id', sa.Integer(), nullable=True))
    op.create_table(
        'abr_uploads',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('tournament_id', sa.Integer(), sa.ForeignKey('tournaments.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('digest', sa.String(length=64), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('abr_id', sa.Integer(), nullable=True),
        sa.Column('state', sa.String(length=10), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('next_try_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=False),
        sa.Column('code', sa.String(length=16), nullable=False),
        sa.Column('abr_url', sa.String(length=300), nullable=False),
        sa.Column('note', sa.Text(), nullable=False),
        sa.Column('replaces_id', sa.Integer(), sa.ForeignKey('abr_uploads.id', ondelete='SET NULL'), nullable=True),
        sa.Column('queued_by_id', sa.Integer(), sa.ForeignKey('users.id', ondelete='SET NULL'), nullable=True),
        sa.Column('queued_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint('tournament_id', 'digest', name='uq_abr_uploads_file'),
        sa.CheckConstraint("state IN ('queued', 'sending', 'sent', 'failed', 'superseded')",
                           name='abr_upload_state'),
    )
    op.create_index('ix_abr_uploads_due', 'abr_uploads', ['state', 'next_try_at'])


def downgrade():
    op.drop_index('ix_abr_uploads_due', table_name='abr_uploads')
    op.drop_table('abr_uploads')
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('abr_id')

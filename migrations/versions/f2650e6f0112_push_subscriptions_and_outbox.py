"""push to players' phones: their subscriptions, the events waiting to become messages, the messages waiting to
leave

Revision ID: f2650e6f0112
Revises: f2640d5e0111
Create Date: 2026-12-08 00:00:00
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f2650e6f0112'
down_revision = "f2640d5e0111"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'push_subscriptions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('endpoint', sa.String(length=1000), nullable=False),
        sa.Column('p256dh', sa.String(length=120), nullable=False),
        sa.Column('auth', sa.String(length=120), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['player_id', 'tournament_id'], ['players.id', 'players.tournament_id'],
                                name=op.f('fk_push_subscriptions_player_id_tournament_id_players'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_push_subscriptions')),
        sa.UniqueConstraint('player_id', 'endpoint', name='uq_push_subscriptions_player_endpoint'),
    )
    op.create_index(op.f('ix_push_subscriptions_tournament_id'), 'push_subscriptions', ['tournament_id'])
    op.create_table(
        'push_events',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('round', sa.Integer(), nullable=True),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.Column('ref', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_push_events_tournament_id_tournaments'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_push_events')),
    )
    op.create_index(op.f('ix_push_events_tournament_id'), 'push_events', ['tournament_id'])
    op.create_table(
        'push_messages',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('subscription_id', sa.Integer(), nullable=False),
        sa.Column('payload', sa.Text(), nullable=False),
        sa.Column('topic', sa.String(length=32), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('due_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('claim', sa.String(length=32), nullable=True),
        sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint('attempts >= 0', name=op.f('ck_push_messages_push_attempts')),
        sa.ForeignKeyConstraint(['subscription_id'], ['push_subscriptions.id'],
                                name=op.f('fk_push_messages_subscription_id_push_subscriptions'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_push_messages')),
    )
    op.create_index(op.f('ix_push_messages_subscription_id'), 'push_messages', ['subscription_id'])
    op.create_index(op.f('ix_push_messages_due_at'), 'push_messages', ['due_at'])


def downgrade():
    op.drop_table('push_messages')
    op.drop_table('push_events')
    op.drop_table('push_subscriptions')

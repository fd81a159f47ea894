"""who took a player out (players.drop_reason), and one standing disqualification per player

Revision ID: f2630c4d0110
Revises: f2620b3c0109
Create Date: 2026-12-07 20:45:00
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f2630c4d0110'
down_revision = "f2620b3c0109"
branch_labels = None
depends_on = None

STANDING_DQ = "kind = 'disqualification' AND voided_at IS NULL"


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('drop_reason', sa.String(length=16), nullable=True))
        batch_op.create_check_constraint(
            'drop_reason', "drop_reason IS NULL OR drop_reason IN ('player', 'organizer', 'no_show', 'disqualified')")
    # a disqualification recorded twice (the form sent twice at once) keeps its first row; the others are voided
    op.execute(sa.text(
        "UPDATE penalties SET voided_at = created_at, voided_by = 'SASS', "
        "void_reason = 'Recorded twice: the first disqualification stands.' "
        f"WHERE {STANDING_DQ} AND EXISTS (SELECT 1 FROM penalties AS first WHERE first.player_id = penalties.player_id "
        "AND first.kind = 'disqualification' AND first.voided_at IS NULL AND first.id < penalties.id)"))
    op.execute(sa.text(
        "UPDATE players SET drop_reason = 'disqualified' WHERE dropped AND EXISTS (SELECT 1 FROM penalties "
        f"WHERE penalties.player_id = players.id AND penalties.{STANDING_DQ.replace('voided_at', 'penalties.voided_at')})"))
    with op.batch_alter_table('penalties', schema=None) as batch_op:
        batch_op.create_index('uq_penalties_one_disqualification', ['player_id'], unique=True,
                              sqlite_where=sa.text(STANDING_DQ), postgresql_where=sa.text(STANDING_DQ))


def downgrade():
    with op.batch_alter_table('penalties', schema=None) as batch_op:
        batch_op.drop_index('uq_penalties_one_disqualification')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_constraint('drop_reason', type_='check')
        batch_op.drop_column('drop_reason')

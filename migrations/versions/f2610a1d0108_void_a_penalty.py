"""void a penalty: who voided it, when and why; the one-loss index counts standing losses only

Revision ID: f2610a1d0108
Revises: f25dc4ec1104
Create Date: 2026-11-27 18:40:00

Existing penalties stand (the new columns are NULL).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f2610a1d0108'
down_revision = "f25dc4ec1104"
branch_labels = None
depends_on = None

LOSSES = "kind IN ('game_loss', 'match_loss')"
STANDING = LOSSES + " AND voided_at IS NULL"


def upgrade():
    with op.batch_alter_table('penalties', schema=None) as batch_op:
        batch_op.drop_index('uq_penalties_one_loss', sqlite_where=sa.text(LOSSES), postgresql_where=sa.text(LOSSES))
        batch_op.add_column(sa.Column('voided_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('voided_by_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('voided_by', sa.String(length=254), nullable=True))
        batch_op.add_column(sa.Column('void_reason', sa.String(length=200), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_penalties_voided_by_id_users'), 'users', ['voided_by_id'], ['id'],
                                    ondelete='SET NULL')
        batch_op.create_check_constraint(batch_op.f('ck_penalties_penalty_void_reason'), "(voided_at IS NULL) = (void_reason IS NULL)")
        batch_op.create_index('uq_penalties_one_loss', ['player_id', 'round_number', 'game'], unique=True,
                              sqlite_where=sa.text(STANDING), postgresql_where=sa.text(STANDING))


def downgrade():
    with op.batch_alter_table('penalties', schema=None) as batch_op:
        batch_op.drop_index('uq_penalties_one_loss', sqlite_where=sa.text(STANDING),
                            postgresql_where=sa.text(STANDING))
    op.execute("DELETE FROM penalties WHERE voided_at IS NOT NULL")  # the old index allows one loss, voided or not
    with op.batch_alter_table('penalties', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_penalties_penalty_void_reason'), type_='check')
        batch_op.drop_constraint(batch_op.f('fk_penalties_voided_by_id_users'), type_='foreignkey')
        batch_op.drop_column('void_reason')
        batch_op.drop_column('voided_by')
        batch_op.drop_column('voided_by_id')
        batch_op.drop_column('voided_at')
        batch_op.create_index('uq_penalties_one_loss', ['player_id', 'round_number', 'game'], unique=True,
                              sqlite_where=sa.text(LOSSES), postgresql_where=sa.text(LOSSES))

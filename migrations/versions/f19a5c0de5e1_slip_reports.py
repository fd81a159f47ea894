"""slip reports: a result reported through a match slip's table code is logged as the slip's, not a player's

Revision ID: f19a5c0de5e1
Revises: f20c0b7a5e11
Create Date: 2026-11-26 05:30:00

"""
from alembic import op


revision = 'f19a5c0de5e1'
down_revision = 'f20c0b7a5e11'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('result_changes', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_result_changes_actor'), type_='check')
        batch_op.create_check_constraint('actor', "actor IN ('organizer', 'staff', 'player', 'slip')")


def downgrade():
    # a slip's changes become an unnamed staff member's: the closest kind the old schema has
    op.execute("UPDATE result_changes SET actor = 'staff' WHERE actor = 'slip'")
    with op.batch_alter_table('result_changes', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_result_changes_actor'), type_='check')
        batch_op.create_check_constraint('actor', "actor IN ('organizer', 'staff', 'player')")

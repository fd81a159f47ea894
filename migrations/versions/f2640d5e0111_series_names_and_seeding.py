"""a series may link identical names by itself (series.link_identical), a series player's public name as the TO
chose it (series_players.name), and whether ratings seeded a round (rounds.seeded_by_rating)

Revision ID: f2640d5e0111
Revises: f2630c4d0110
Create Date: 2026-12-08 10:00:00
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f2640d5e0111'
down_revision = "f2630c4d0110"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('series', schema=None) as batch_op:
        batch_op.add_column(sa.Column('link_identical', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('series_players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name', sa.String(length=80), nullable=False, server_default=''))
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seeded_by_rating', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_column('seeded_by_rating')
    with op.batch_alter_table('series_players', schema=None) as batch_op:
        batch_op.drop_column('name')
    with op.batch_alter_table('series', schema=None) as batch_op:
        batch_op.drop_column('link_identical')

"""One row per feedback client, written first in every feedback transaction so that the
rate limit's count and insert are one step for every worker and host.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "feedback_client",
        sa.Column("client", sa.String(64), primary_key=True),
        sa.Column("last_post", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("feedback_client")

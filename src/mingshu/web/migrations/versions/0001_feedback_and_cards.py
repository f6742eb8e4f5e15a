"""Feedback answers and cached share cards.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "feedback",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("article_id", sa.String(40), nullable=False),
        sa.Column("article_version", sa.String(40), nullable=False),
        sa.Column("helpful", sa.Boolean(), nullable=False),
        sa.Column("comment", sa.Text(), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_feedback_article_id", "feedback", ["article_id"])
    op.create_index("ix_feedback_client", "feedback", ["client"])
    op.create_index("ix_feedback_created", "feedback", ["created"])
    op.create_table(
        "share_card",
        sa.Column("article_id", sa.String(40), primary_key=True),
        sa.Column("article_version", sa.String(40), primary_key=True),
        sa.Column("png", sa.LargeBinary(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("share_card")
    op.drop_table("feedback")

"""Alembic environment of the web store: the URL comes from ``config.attributes["url"]``
(set by :func:`mingshu.web.store.migrate`).  On PostgreSQL an advisory lock lets only one
starting worker migrate at a time."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, text

from mingshu.web.store import Base

config = context.config
url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
engine = create_engine(str(url))
with engine.connect() as connection:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_lock(7466213)"))
        connection.commit()
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_unlock(7466213)"))
        connection.commit()
engine.dispose()

"""Alembic's environment: migrations run on the connection the app hands over."""

from __future__ import annotations

from alembic import context
from spielwerk_api.db import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through spielwerk_api.db.migrate (or `spielwerk serve`)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()

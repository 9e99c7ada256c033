"""The table a log line is about, for structured logs (set in each table actor's task)."""

from __future__ import annotations

from contextvars import ContextVar

TABLE_ID: ContextVar[str | None] = ContextVar("euchre_table_id", default=None)
"""The id of the table the running code works for, if any (a per-task value)."""

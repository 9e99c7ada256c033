"""Fixtures for the tournament tests: SQLite and PostgreSQL databases (``ledger_fixtures``)."""

from ledger_fixtures import db_url

__all__ = ["db_url"]

"""Fixtures for the euchre-night tests: SQLite and PostgreSQL databases (``ledger_fixtures``)."""

from ledger_fixtures import db_url

__all__ = ["db_url"]

"""Fixtures for the outside bots' tests: the shared databases (SQLite, and PostgreSQL when
``EUCHRE_TEST_DATABASE_URL`` is set)."""

from ledger_fixtures import db_url

__all__ = ["db_url"]

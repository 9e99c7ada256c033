"""Fixtures for the account tests: the shared ledger databases (``ledger_fixtures``)."""

from ledger_fixtures import db_url, engine

__all__ = ["db_url", "engine"]

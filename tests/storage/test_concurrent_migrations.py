"""Processes of one site starting together migrate one PostgreSQL database in turn."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from testdb import drop_postgres, fresh_postgres, postgres_url

MIGRATE = "import sys; from euchre.storage.sql import migrate; migrate(sys.argv[1])"


def test_three_processes_migrating_a_fresh_database_at_once_all_succeed():
    server = postgres_url()
    if server is None:
        pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
    url = asyncio.run(fresh_postgres(server))
    try:
        procs = [subprocess.Popen([sys.executable, "-c", MIGRATE, url], stderr=subprocess.PIPE,
                                  text=True) for _ in range(3)]
        errors = [p.communicate(timeout=120)[1] for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0], errors
    finally:
        asyncio.run(drop_postgres(url))

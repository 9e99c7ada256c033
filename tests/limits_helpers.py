"""The Redis used by limit tests: ``EUCHRE_TEST_REDIS_URL`` (scripts/start-redis), else the
tests that need it are skipped."""

from __future__ import annotations

import os
import secrets
from typing import Any

import pytest

REDIS_URL = os.environ.get("EUCHRE_TEST_REDIS_URL")

needs_redis = pytest.mark.skipif(not REDIS_URL, reason="set EUCHRE_TEST_REDIS_URL "
                                 "(scripts/start-redis prints one)")


def fresh_prefix() -> str:
    """A key prefix no other test (or engineer sharing the Redis) uses."""
    return f"euchre-test:{secrets.token_hex(6)}:"


class FakeClock:
    """Seconds that move only when told."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def roomy_limits() -> Any:
    """Rate limits no test of something else reaches: every browser test's requests come
    from 127.0.0.1 to one long-lived server."""
    from euchre.server.guards import LimitSettings

    lots = 100_000
    return LimitSettings(sign_up_attempts_per_address=lots, sign_ups_per_address=lots,
                         tables_per_address=lots, tables_per_account=lots,
                         open_online_per_creator=lots, sign_in_per_address=lots)

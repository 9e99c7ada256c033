"""The Redis of tests that need one: ``EUCHRE_TEST_REDIS_URL`` (``scripts/start-redis``
prints one; ``scripts/test`` sets it), else those tests are skipped. Every test writes under
a fresh key prefix, so tests (and engineers sharing the Redis) never see each other's keys."""

from __future__ import annotations

import os
import secrets

import pytest

REDIS_URL = os.environ.get("EUCHRE_TEST_REDIS_URL")
"""The test Redis, or None."""

needs_redis = pytest.mark.skipif(not REDIS_URL, reason="set EUCHRE_TEST_REDIS_URL "
                                 "(scripts/start-redis prints one)")
"""Marks a test (or a fixture parameter) that needs the test Redis."""


def fresh_prefix() -> str:
    """A key prefix no other test uses."""
    return f"euchre-test:{secrets.token_hex(6)}:"


class FakeClock:
    """Seconds that move only when told."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds

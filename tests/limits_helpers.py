"""Helpers for the limit tests: the test Redis (from ``redis_fixtures``) and limits roomy
enough that tests of something else never reach them."""

from __future__ import annotations

from typing import Any

from redis_fixtures import REDIS_URL, FakeClock, fresh_prefix, needs_redis

__all__ = ["REDIS_URL", "FakeClock", "fresh_prefix", "needs_redis", "roomy_limits"]


def roomy_limits() -> Any:
    """Rate limits no test of something else reaches: every browser test's requests come
    from 127.0.0.1 to one long-lived server."""
    from euchre.server.core.limit_settings import LimitSettings

    lots = 100_000
    return LimitSettings(sign_up_attempts_per_address=lots, sign_ups_per_address=lots,
                         sign_ups_per_address_day=lots,
                         tables_per_address=lots, tables_per_account=lots,
                         open_online_per_creator=lots, sign_in_per_address=lots,
                         seats_per_address=lots, seats_per_account=lots,
                         seats_held_per_person=lots)

"""The limits interface: ``hit(key, limit, window)`` counts one attempt and answers.

Every implementation keeps, per key, the times of the attempts it let through (a sliding
log): an attempt is allowed while fewer than ``limit`` were allowed in the last ``window``
seconds, and then counted in the same atomic step. So a burst of parallel requests cannot
all pass the check before any of them is counted. A refused attempt is not counted (a
locked-out key frees up a window after its last allowed attempt, whatever is thrown at it).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Decision:
    """What :meth:`Limits.hit` answered."""

    allowed: bool
    """Whether the attempt may go ahead (it has been counted)."""
    retry_after: float
    """Seconds until an attempt would be allowed again (0 when allowed)."""
    remaining: int
    """Attempts still allowed in the window after this one."""
    ticket: str = ""
    """Names the counted attempt, for :meth:`Limits.give_back` ("" when refused)."""


class LimitsUnavailable(Exception):
    """The counters cannot be reached (Redis is down): nothing can be counted."""


def retry_seconds(decision: Decision) -> int:
    """The whole seconds to put in a ``Retry-After`` header (at least 1)."""
    return max(1, math.ceil(decision.retry_after))


class Limits(ABC):
    """Counters of attempts per key within sliding windows."""

    @abstractmethod
    async def hit(self, key: str, limit: int, window: float) -> Decision:
        """Count one attempt at ``key`` if fewer than ``limit`` were counted in the last
        ``window`` seconds; answer whether it was, and when to retry if not."""

    @abstractmethod
    async def give_back(self, key: str, ticket: str) -> None:
        """Uncount the attempt :meth:`hit` counted with ``ticket`` (it turned out not to
        need counting, like a correct password); nothing if it is gone."""

    @abstractmethod
    async def count(self, key: str, window: float) -> int:
        """The attempts counted at ``key`` in the last ``window`` seconds."""

    async def close(self) -> None:  # noqa: B027 - most implementations hold nothing
        """Release connections (nothing to do in memory)."""

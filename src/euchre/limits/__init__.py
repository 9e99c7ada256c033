"""Rate limits behind one small interface: count an attempt when it starts, atomically.

:class:`Limits` has a memory implementation (one process) and a Redis one (counts shared by
every process of a site). :func:`open_limits` picks one (given the
process's Redis client, or None).
"""

from .base import Decision, Limits, LimitsUnavailable, retry_seconds
from .gate import GateFull, SharedShares
from .memory import MemoryLimits
from .open import open_limits

__all__ = ["Decision", "GateFull", "Limits", "LimitsUnavailable", "MemoryLimits",
           "SharedShares", "open_limits", "retry_seconds"]

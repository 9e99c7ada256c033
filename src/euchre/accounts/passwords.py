"""Password hashing with argon2id, run in a worker thread so the event loop never waits.

The default profile costs about a quarter of a second here (RFC 9106 low-memory);
tests use the cheapest profile.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from .errors import AccountError

MIN_PASSWORD = 8
"""The shortest password allowed."""
MAX_PASSWORD = 200
"""The longest password allowed (hashing very long inputs wastes time)."""

HASHES_AT_ONCE = 1
"""Password hashes computed at the same time per process: each takes a core for about a
quarter of a second, so a burst of sign-ins must queue rather than take every core from
the tables."""

MAX_WAITING = 32
"""Password checks that may wait for their turn per process; more are refused at once
(:class:`PasswordsBusy`), so a flood from many addresses cannot queue sign-ins for minutes."""

PROFILES = {
    "default": profiles.RFC_9106_LOW_MEMORY,
    "cheapest": profiles.CHEAPEST,
}
"""The argon2 parameter sets by name."""


class PasswordsBusy(AccountError):
    """Too many password checks are waiting: try again in a moment; nothing changed."""

    status = 503


class Passwords:
    """Hash and check passwords with one argon2 profile."""

    def __init__(self, profile: str = "default", max_waiting: int = MAX_WAITING) -> None:
        """A hasher using the named profile (``default`` or ``cheapest``); at most
        ``max_waiting`` hashes wait for their turn."""
        self.hasher = PasswordHasher.from_parameters(PROFILES[profile])
        """The argon2-cffi hasher."""
        self._dummy: str | None = None
        self._gates: dict[int, asyncio.Semaphore] = {}
        self.max_waiting = max_waiting
        """Hashes allowed to wait for their turn."""
        self._waiting = 0

    def _gate(self) -> asyncio.Semaphore:
        loop = id(asyncio.get_running_loop())
        gate = self._gates.get(loop)
        if gate is None:
            gate = self._gates[loop] = asyncio.Semaphore(HASHES_AT_ONCE)
        return gate

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """Wait for the hashing thread, or raise :class:`PasswordsBusy` if too many wait."""
        gate = self._gate()
        if gate.locked() and self._waiting >= self.max_waiting:
            raise PasswordsBusy("the server is busy checking passwords: try again in a moment")
        self._waiting += 1
        try:
            await gate.acquire()
        finally:
            self._waiting -= 1
        try:
            yield
        finally:
            gate.release()

    async def hash(self, password: str) -> str:
        """The argon2id hash of ``password`` (encoded with its parameters and salt)."""
        async with self._turn():
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, encoded: str, password: str) -> bool:
        """Whether ``password`` matches ``encoded``; never raises for a mismatch."""
        async with self._turn():
            return await asyncio.to_thread(self._verify, encoded, password)

    async def verify_nobody(self, password: str) -> None:
        """Spend the time of one check, so an unknown username answers as slowly as a known."""
        if self._dummy is None:
            self._dummy = await self.hash("not the password of anybody")
        await self.verify(self._dummy, password)

    def needs_rehash(self, encoded: str) -> bool:
        """Whether a stored hash was made with other parameters."""
        try:
            return self.hasher.check_needs_rehash(encoded)
        except InvalidHashError:
            return True

    def _verify(self, encoded: str, password: str) -> bool:
        try:
            return self.hasher.verify(encoded, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

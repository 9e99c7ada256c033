"""A message rate for every socket: a token bucket per connection.

Each message a client sends takes a token before it is even parsed; tokens come back at a
steady rate up to a burst. A message that finds the bucket empty is a flood: the socket is
told once why (``error`` with code ``rate_limited``) and closed with :data:`CLOSE_FLOOD`.

What a person does at a table never empties it: a move or a seed the table accepts gives
its token back (the game itself paces those: a seat moves only in its turn), so a fast
player or a bot playing through the same door is held only by the game; what is left to
count is what a client sends beyond the game's pace (refused moves, a double click's
second move, pings, hints, bad messages), and a person sends a handful of those in a
minute. The counts live with the connection, in the process that reads its messages.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

CLOSE_FLOOD = 4429
"""Close code of a socket that sent too many messages (the code of every "too many" close:
the web client then stops reconnecting and shows the reason)."""

FLOOD_CODE = "rate_limited"
"""The ``error`` code a flooding socket is told, once, before it is closed."""

FLOOD_REASON = "too many messages: reconnect later"
"""The close reason of a flooding socket (at most 123 bytes)."""


@dataclass(frozen=True)
class MessageRate:
    """A socket's rate: ``burst`` messages at once, then ``per_second``."""

    burst: int = 20
    """Messages a socket may send at once (a full bucket)."""
    per_second: float = 2.0
    """Tokens that come back each second."""

    def refusal(self) -> str:
        """What the flooding client is told."""
        return (f"too many messages: a connection may send {self.burst} at once and "
                f"{self.per_second:g} a second after that (moves the table accepts are not "
                f"counted); this connection is closed")


TABLE_RATE = MessageRate()
"""The rate of a table socket (``/ws/tables/{id}``)."""

LOBBY_RATE = MessageRate(burst=10, per_second=1.0)
"""The rate of a lobby socket, which only ever sends ``ping`` (the web client: one in 25 s)."""


class Bucket:
    """One socket's tokens."""

    __slots__ = ("_last", "now", "rate", "tokens")

    def __init__(self, rate: MessageRate = TABLE_RATE,
                 now: Callable[[], float] = time.monotonic) -> None:
        """A full bucket; ``now`` is the clock in seconds (tests pass a fake one)."""
        self.rate = rate
        """The rate it keeps."""
        self.now = now
        """The clock."""
        self.tokens = float(rate.burst)
        """Tokens left now (messages that may still be sent at once)."""
        self._last = now()

    def take(self) -> bool:
        """Take a token for one message: False if there is none (a flood)."""
        now = self.now()
        self.tokens = min(float(self.rate.burst),
                          self.tokens + (now - self._last) * self.rate.per_second)
        self._last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def is_full(self) -> bool:
        """Whether the bucket has filled up again (nothing taken lately: it may be
        forgotten, as a new one would be full)."""
        return self.tokens + (self.now() - self._last) * self.rate.per_second >= self.rate.burst

    def give_back(self) -> None:
        """Return the token of a message that turned out not to count (an accepted move)."""
        self.tokens = min(float(self.rate.burst), self.tokens + 1.0)

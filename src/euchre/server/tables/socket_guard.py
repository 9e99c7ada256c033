"""What a table socket may hold: a join deadline and caps per address, seat, table and server.

A socket costs an open file and, once joined, a share of every event's fan-out. So a socket
must join within :attr:`SocketLimits.join_within` seconds or is closed; one client address
may hold only so many sockets; a seat and a table only so many subscribers; a table only so
many spectators (counted apart, so watchers never crowd out the players); and the whole
server stays well below its open-file limit. An address whose sockets were closed for their
message rate (:mod:`.socket_rate`) three times in a minute opens no more for the rest of
that minute. Opening itself has a rate (a token bucket per address, an IPv6 address as its
/64, and wider ones per /56 and /48, the blocks a home is given), so a reconnect storm is
refused at the door instead of costing a join each time (this machine's own loopback
addresses are not rated: the tests and load benchmarks open sockets from there). A refusal
closes the socket with a close code and a reason a person can read (``4408``: no join in
time, ``4429``: too many).

The socket layer calls :meth:`SocketGuard.admit` when a socket opens (a :class:`Ticket`,
released when it closes) and :meth:`Ticket.join` when it joins a seat (or watches: seat
None). Counts live in this process: every socket is held by exactly one process.
"""

from __future__ import annotations

import ipaddress
import resource
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...table.actor.pacing import LoopScheduler, Scheduler, TimerHandle
from .socket_rate import LOBBY_RATE, TABLE_RATE, Bucket, MessageRate

CLOSE_NO_JOIN = 4408
"""Close code: the socket did not join a seat in time."""

CLOSE_TOO_MANY = 4429
"""Close code: a cap on sockets was reached (per address, seat, table or server)."""

CLOSE_TABLE_STOPPED = 1012
"""Close code: the table stopped in this process (the client reconnects and finds it)."""


OPEN_RATE = MessageRate(burst=60, per_second=5.0)
"""Sockets one address (IPv6: its /64) may open: 60 at once, then 5 a second."""

WIDE_OPEN_RATES = ((56, MessageRate(burst=120, per_second=10.0)),
                   (48, MessageRate(burst=240, per_second=20.0)))
"""The open rates of the wider IPv6 blocks (prefix length, rate)."""


def _open_file_limit() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


UNRATED_LOOPBACK = frozenset({"127.0.0.1", "::1"})
"""The loopback addresses never rated, even with :attr:`SocketLimits.rate_loopback`."""


@dataclass(frozen=True)
class SocketLimits:
    """The caps (defaults fit a person with a few tabs, behind a shared address)."""

    join_within: float = 5.0
    """Seconds a new socket has to join a seat."""
    per_address: int = 40
    """Sockets open at once from one client address."""
    per_seat: int = 4
    """Sockets joined to one seat of one table (a person's tabs)."""
    per_table: int = 12
    """Sockets joined to one table, all seats together."""
    watchers_per_table: int = 100
    """Spectators watching one table."""
    total: int = 0
    """Sockets open at once in this process (0: half the open-file limit)."""
    table_rate: MessageRate = TABLE_RATE
    """Messages a table socket may send (:mod:`.socket_rate`; more close it)."""
    lobby_rate: MessageRate = LOBBY_RATE
    """Messages a lobby socket may send."""
    floods_per_address: int = 3
    """Sockets of one address closed for their message rate within :attr:`flood_window`
    after which the address may open no more sockets until the window has passed (a flood
    that reconnects at once would otherwise get a burst answered on each new socket)."""
    flood_window: float = 60.0
    """Seconds."""
    opens_per_network: MessageRate = OPEN_RATE
    """Sockets one address (IPv6: its /64) may open at once, then a second (a person
    reconnecting a few tabs never meets it; a reconnect loop does)."""
    opens_per_wide_network: tuple[tuple[int, MessageRate], ...] = WIDE_OPEN_RATES
    """The same for the IPv6 blocks a home or an office is given (prefix length, rate)."""
    rate_loopback: bool = False
    """Rate opening from this machine's loopback addresses too, all but ``127.0.0.1`` and
    ``::1`` (a benchmark's attackers bind 127.0.0.2, 127.0.0.3, ...: ``euchre serve
    --rate-loopback``). Off: no loopback address is rated (tests, load benchmarks)."""

    def server_cap(self) -> int:
        """The cap on sockets in this process."""
        return self.total or max(64, _open_file_limit() // 2)


@dataclass(frozen=True)
class Refusal:
    """Why a socket is refused: its close code and reason (at most 123 bytes)."""

    code: int
    """The WebSocket close code."""
    reason: str
    """The reason, for a person."""


class SocketGuard:
    """The counts of open and joined sockets in this process, and the caps on them."""

    def __init__(self, limits: SocketLimits | None = None,
                 scheduler: Scheduler | None = None) -> None:
        """A guard with nothing open (``scheduler``: where join deadlines are timed)."""
        self.limits = limits or SocketLimits()
        """The caps."""
        self.scheduler: Scheduler = scheduler or LoopScheduler()
        """Times the join deadlines."""
        self.open = 0
        """Sockets open now."""
        self.by_address: Counter[str] = Counter()
        """Sockets open now, by client address."""
        self.by_seat: Counter[tuple[str, int]] = Counter()
        """Joined sockets, by (table id, seat)."""
        self.by_table: Counter[str] = Counter()
        """Joined sockets, by table id."""
        self.watching: Counter[str] = Counter()
        """Spectators' sockets, by table id."""
        self.floods: dict[str, deque[float]] = {}
        """When sockets of an address were closed for their message rate (the last
        :attr:`SocketLimits.flood_window` seconds)."""
        self.opening: dict[str, Bucket] = {}
        """The open rate's buckets, by network (``/64``, ``/56``, ``/48`` or an IPv4
        address); full ones are forgotten when there are many."""

    def admit(self, address: str, on_no_join: Callable[[Refusal], None] | None = None
              ) -> Ticket | Refusal:
        """A ticket for a new socket from ``address``, or why it is refused. Unless it
        joins in time, ``on_no_join`` is called with the refusal to close it with."""
        limits = self.limits
        if self.open >= limits.server_cap():
            return Refusal(CLOSE_TOO_MANY, "the server is full: try again in a minute")
        if self.by_address[address] >= limits.per_address:
            return Refusal(CLOSE_TOO_MANY, f"too many connections from your address (at most "
                                           f"{limits.per_address}): close some tabs")
        if self._flooding(address):
            return Refusal(CLOSE_TOO_MANY, f"too many messages from your address: wait "
                                           f"{limits.flood_window:g} seconds")
        if not self._may_open(address):
            return Refusal(CLOSE_TOO_MANY, "too many new connections from your network: "
                                           "wait a few seconds before reconnecting")
        self.open += 1
        self.by_address[address] += 1
        return Ticket(self, address, on_no_join)

    def _may_open(self, address: str) -> bool:
        """Take a token for a new socket at ``address`` and each wider block of it (none
        is taken unless all have one)."""
        limits = self.limits
        own = limits.opens_per_network
        if limits.per_address > own.burst:  # a load test from one machine raised the cap
            own = MessageRate(burst=limits.per_address,
                              per_second=max(own.per_second, limits.per_address / 10))
        keys = [(address, own)]
        try:
            network = ipaddress.ip_network(address, strict=False)
        except ValueError:  # no address (a test client, a Unix socket): nothing to key
            return True
        if network.is_loopback and not (  # this machine: the tests, a load benchmark
                limits.rate_loopback and address not in UNRATED_LOOPBACK):
            return True
        if isinstance(network, ipaddress.IPv6Network):
            keys += [(str(network.supernet(new_prefix=bits)), rate)
                     for bits, rate in limits.opens_per_wide_network
                     if network.prefixlen > bits]
        if len(self.opening) > 10_000:
            self._forget_full_buckets()
        buckets = [self.opening.get(key) or self.opening.setdefault(
            key, Bucket(rate, self.scheduler.now)) for key, rate in keys]
        taken: list[Bucket] = []
        for bucket in buckets:
            if not bucket.take():
                for done in taken:
                    done.give_back()
                return False
            taken.append(bucket)
        return True

    def _forget_full_buckets(self) -> None:
        for key, bucket in list(self.opening.items()):
            if bucket.is_full():
                del self.opening[key]

    def flooded(self, address: str) -> None:
        """A socket of ``address`` was closed for its message rate."""
        self._flooding(address)
        self.floods.setdefault(address, deque()).append(self.scheduler.now())

    def _flooding(self, address: str) -> bool:
        """Whether ``address`` had its share of flood closes in the window (forgets older
        ones)."""
        times = self.floods.get(address)
        if times is None:
            return False
        since = self.scheduler.now() - self.limits.flood_window
        while times and times[0] <= since:
            times.popleft()
        if not times:
            del self.floods[address]
            return False
        return len(times) >= self.limits.floods_per_address

    def _count(self, counter: Counter[Any], key: Any, step: int) -> None:
        counter[key] += step
        if counter[key] <= 0:
            del counter[key]


class Ticket:
    """One open socket's place in the counts; :meth:`release` it when the socket closes."""

    def __init__(self, guard: SocketGuard, address: str,
                 on_no_join: Callable[[Refusal], None] | None) -> None:
        """A ticket counted in ``guard`` (made by :meth:`SocketGuard.admit`)."""
        self.guard = guard
        """The guard that counts it."""
        self.address = address
        """The client address."""
        self.seat: tuple[str, int | None] | None = None
        """(table id, seat) once joined; the seat is None for a spectator."""
        self.released = False
        """Whether the socket closed."""
        self._timer: TimerHandle | None = None
        if on_no_join is not None:
            refusal = Refusal(CLOSE_NO_JOIN, f"join a seat within "
                                             f"{guard.limits.join_within:g} seconds")
            self._timer = guard.scheduler.call_later(
                guard.limits.join_within, lambda: self._expire(on_no_join, refusal))

    def _expire(self, on_no_join: Callable[[Refusal], None], refusal: Refusal) -> None:
        if self.seat is None and not self.released:
            on_no_join(refusal)

    def join(self, table_id: str, seat: int | None) -> Refusal | None:
        """Count the socket on ``seat`` of ``table_id`` (None: a spectator); a refusal if a
        cap is reached."""
        guard, limits = self.guard, self.guard.limits
        if self.seat is not None:
            return None
        if seat is None:
            if guard.watching[table_id] >= limits.watchers_per_table:
                return Refusal(CLOSE_TOO_MANY, f"too many spectators at this table (at most "
                                               f"{limits.watchers_per_table})")
            self.seat = (table_id, None)
            guard._count(guard.watching, table_id, 1)
        else:
            refusal = self._seat(table_id, seat)
            if refusal is not None:
                return refusal
        if self._timer is not None:
            self._timer.cancel()
        return None

    def _seat(self, table_id: str, seat: int) -> Refusal | None:
        guard, limits = self.guard, self.guard.limits
        if guard.by_seat[(table_id, seat)] >= limits.per_seat:
            return Refusal(CLOSE_TOO_MANY, f"this seat is open in too many places (at most "
                                           f"{limits.per_seat}): close another tab")
        if guard.by_table[table_id] >= limits.per_table:
            return Refusal(CLOSE_TOO_MANY, f"too many connections to this table (at most "
                                           f"{limits.per_table})")
        self.seat = (table_id, seat)
        guard._count(guard.by_seat, self.seat, 1)
        guard._count(guard.by_table, table_id, 1)
        return None

    def flooded(self) -> None:
        """The socket is closed for its message rate: counted against its address."""
        self.guard.flooded(self.address)

    def release(self) -> None:
        """The socket closed: uncount it (once)."""
        if self.released:
            return
        self.released = True
        if self._timer is not None:
            self._timer.cancel()
        guard = self.guard
        guard.open -= 1
        guard._count(guard.by_address, self.address, -1)
        if self.seat is not None and self.seat[1] is None:
            guard._count(guard.watching, self.seat[0], -1)
        elif self.seat is not None:
            guard._count(guard.by_seat, self.seat, -1)
            guard._count(guard.by_table, self.seat[0], -1)

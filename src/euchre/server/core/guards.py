"""The site's rate limits, each called from one line at its entry point.

Every limit counts an attempt when it starts (:meth:`euchre.limits.Limits.hit`), so requests
sent at once cannot all pass before any is counted; a refused request changes nothing and
is answered 429 with ``Retry-After`` and a plain-English JSON error (:class:`Limited`, a
domain refusal with the code ``rate_limited``, answered by the app's exception handlers).
The counts live in the site's limits (:attr:`.site.Site.limits`): in memory, or in Redis
when the server is given ``--redis-url`` (shared by its processes).

- Sign-in: at most :attr:`LimitSettings.sign_in_per_user` guesses per username and
  :attr:`~LimitSettings.sign_in_per_address` per address in a window; a correct password
  gives its own place back.
- Sign-up: every attempt from an address counts (a taken name too), and new accounts from an
  address are limited further, per hour and per day (each gets the welcome coins); an IPv6
  address counts as its /64 (:func:`network_of`).
- Tables: new tables of any kind per address, and per account when signed in; open online
  tables per creator (the registry's count).
- Lobby: ``Play now`` and seat claims per address (and per account when signed in); seats
  one person (account, else address) holds at once across waiting tables (the lobby's
  count; the creator's own seat at an invite table does not count, the cap on open tables
  covers it).
- Expensive reads (a game's replay, record and statistics, a person's statistics): per
  address (IPv6: per /64), so one client cannot keep the server's loop busy with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import math
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

from starlette.requests import HTTPConnection, Request

from ...errors import DomainError
from ...leases import Leases
from ...limits import Decision, Limits, LimitsUnavailable, retry_seconds
from ...table.actor.errors import TooManySeats
from .limit_settings import LimitSettings
from .site import CoreSite, kept_site

log = logging.getLogger(__name__)


class Limited(DomainError):
    """A request refused by a limit: 429, ``Retry-After`` and the message; nothing changed."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        """The refusal; ``message`` ends with when to try again."""
        super().__init__(message)
        self.retry_after = retry_after
        """Whole seconds to wait."""


class LimitsDown(Limited):
    """The counters cannot be reached: the request is refused (503), not let through
    uncounted."""

    code = "limits_unavailable"


RETRY_WHEN_DOWN = 5
"""Seconds a client is told to wait when the counters cannot be reached."""


class OpenTables(Protocol):
    """What the caps on open online tables and seats read of the lobby (the online kind's,
    which this module does not import)."""

    async def open_by(self, creator: str) -> list[Any]:
        """The tables ``creator`` opened that wait for their start."""
        ...

    async def seats_held(self, holder: str) -> list[Any]:
        """The waiting tables where ``holder`` holds a seat, one entry per seat (their own
        seat at an invite table they opened left out)."""
        ...

    def expires_at(self, table: Any) -> float:
        """When an open table is forgotten."""
        ...

    now: Callable[[], float]
    """The registry's clock."""


class GuardedSite(CoreSite, Protocol):
    """What the limits read of the site."""

    limit_settings: LimitSettings
    """How much each limit allows."""
    person_locks: PersonLocks
    """One lock per person (site-wide with a Redis URL)."""


def guarded_site(conn: Any) -> GuardedSite:
    """The site of ``conn`` (a request, a socket or the app), as the limits read it."""
    return cast(GuardedSite, kept_site(conn))


def limits_of(conn: HTTPConnection) -> Limits:
    """The site's limits."""
    return guarded_site(conn).limits


def settings_of(conn: HTTPConnection) -> LimitSettings:
    """The site's limit settings."""
    return guarded_site(conn).limit_settings


def address_of(conn: HTTPConnection) -> str:
    """The client's address (the peer of the connection)."""
    return conn.client.host if conn.client else "unknown"


def network_of(address: str) -> str:
    """The network a household or club is reached at: an IPv4 address itself, an IPv6
    address's /64 (one home or office is given a whole /64, and picks any address in it)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d is the IPv4 address
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def household_of(conn: HTTPConnection) -> str:
    """:func:`network_of` the client's address."""
    return network_of(address_of(conn))


WIDER_SHARES = (2, 4)
"""New accounts a /56 and a /48 may make, as multiples of one address's (a /64's) share:
a /56 holds up to 256 /64s (a home's, or a small office's networks), a /48 65,536 (a
site's); twice and four times a club's evening is room for a building of neighbours, far
below what rotating through the block would otherwise give (256 or 65,536 times)."""

WIDER_PREFIXES = (56, 48)
"""The wider IPv6 blocks one home or site may be given (a /56 is the common home delegation,
a /48 a site's): what a person can rotate their address through without asking anyone."""


def wider_networks_of(address: str) -> list[str]:
    """The /56 and /48 around an IPv6 address (none for IPv4: its own address is all one
    home has, and a carrier's NAT shares it with strangers already)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return []
    if not isinstance(ip, ipaddress.IPv6Address) or ip.ipv4_mapped is not None:
        return []
    return [str(ipaddress.IPv6Network((ip, p), strict=False)) for p in WIDER_PREFIXES]


def _refusal(what: str, decision: Decision) -> Limited:
    wait = retry_seconds(decision)
    return Limited(f"{what}: try again in {wait} seconds", wait)


@dataclass
class Counted:
    """Attempts counted at several keys (to give back if the attempt need not count)."""

    limits: Limits
    """Where they were counted."""
    tickets: list[tuple[str, str]]
    """(key, ticket) of each."""

    async def give_back(self) -> None:
        """Uncount every one of them (if the counters cannot be reached they stay counted:
        the safe side)."""
        for key, ticket in self.tickets:
            try:
                await self.limits.give_back(key, ticket)
            except LimitsUnavailable as e:
                log.warning("could not give back a counted attempt: %s", e)


async def hit_all(limits: Limits, checks: list[tuple[str, int, float, str]]) -> Counted:
    """Count one attempt at every ``(key, limit, window, what)``, or none of them: the first
    refusal gives back those already counted and raises :class:`Limited` saying ``what``."""
    counted = Counted(limits, [])
    try:
        for key, limit, window, what in checks:
            decision = await limits.hit(key, limit, window)
            if not decision.allowed:
                await counted.give_back()
                raise _refusal(what, decision)
            counted.tickets.append((key, decision.ticket))
    except LimitsUnavailable as e:
        log.error("rate limits unavailable, refusing: %s", e)
        raise LimitsDown("the server cannot check its limits just now: try again in "
                         f"{RETRY_WHEN_DOWN} seconds", RETRY_WHEN_DOWN) from None
    return counted


# -- accounts ----------------------------------------------------------------------------


def _username_key(username: Any) -> str:
    return username.strip().lower()[:64] if isinstance(username, str) else ""


async def sign_in_attempt(request: Request, username: Any) -> Counted:
    """Count a sign-in attempt for ``username`` before its password is checked (raises
    :class:`Limited`); give the places back when the password was right."""
    s = settings_of(request)
    return await hit_all(limits_of(request), [
        (f"signin:ip:{address_of(request)}", s.sign_in_per_address, s.sign_in_window,
         "too many sign-in attempts from your address"),
        (f"signin:user:{_username_key(username)}", s.sign_in_per_user, s.sign_in_window,
         "too many sign-in attempts for this username"),
    ])


async def sign_up_attempt(request: Request) -> Counted:
    """Count a sign-up attempt from the client's address, refused ones included, and
    reserve a new account's place (give it back if no account was made)."""
    s = settings_of(request)
    network = household_of(request)
    checks = [
        (f"signup:ip:{network}", s.sign_up_attempts_per_address, s.sign_up_window,
         "too many sign-up attempts from your address"),
        (f"newaccount:ip:{network}", s.sign_ups_per_address, s.sign_up_window,
         "too many new accounts from your address this hour"),
        (f"newaccount-day:ip:{network}", s.sign_ups_per_address_day, s.sign_up_day,
         "too many new accounts from your address today"),
    ]
    # An IPv6 home may rotate through its /56 or /48: each has a larger share of its own.
    for block, times in zip(wider_networks_of(address_of(request)), WIDER_SHARES,
                            strict=False):  # IPv4: no wider block
        checks += [
            (f"newaccount:net:{block}", s.sign_ups_per_address * times, s.sign_up_window,
             "too many new accounts from your network this hour"),
            (f"newaccount-day:net:{block}", s.sign_ups_per_address_day * times,
             s.sign_up_day, "too many new accounts from your network today"),
        ]
    counted = await hit_all(limits_of(request), checks)
    return Counted(counted.limits, counted.tickets[1:])


# -- tables ------------------------------------------------------------------------------


async def account_of(request: Request) -> int | None:
    """The signed-in account's id, if the request carries a live session (or the bot's
    own account, for an outside bot's bearer token: bots are counted as accounts)."""
    sessions = guarded_site(request).sessions
    if sessions is None:
        return None
    from ...accounts import COOKIE_NAME
    from .people import bearer_token, bot_of

    bearer = bearer_token(request)
    if bearer is not None:
        return (await bot_of(request, bearer)).account_id

    cookie = request.cookies.get(COOKIE_NAME)
    if not cookie:
        return None
    session = await sessions.find(cookie)
    return None if session is None else int(session.account_id)


async def expensive_read(request: Request) -> None:
    """Count a read that costs the server (a replay, a record, statistics) per address,
    IPv6 per /64 (429 past :attr:`LimitSettings.reads_per_address`)."""
    s = settings_of(request)
    await hit_all(limits_of(request), [
        (f"reads:net:{household_of(request)}", s.reads_per_address, s.reads_window,
         "too many replays and statistics read from your address")])


async def creator_of(request: Request) -> str:
    """Who opens a table or holds a seat, for the per-person caps (open tables, seats
    held): the account, else the address. An outside bot counts as its owner: one
    person's bot accounts share that person's caps (alone, one held 3 waiting tables;
    through bot accounts, 23)."""
    if guarded_site(request).sessions is not None:
        from .people import bearer_token, bot_of

        bearer = bearer_token(request)
        if bearer is not None:
            return f"account:{(await bot_of(request, bearer)).owner_id}"
    account = await account_of(request)
    return f"account:{account}" if account is not None else f"ip:{address_of(request)}"


async def table_attempt(request: Request, kind: str) -> None:
    """Count the opening of a table of any kind, per address and per signed-in account."""
    s = settings_of(request)
    checks = [(f"tables:ip:{address_of(request)}", s.tables_per_address, s.tables_window,
               "too many new tables from your address")]
    account = await account_of(request)
    if account is not None:
        checks.append((f"tables:account:{account}", s.tables_per_account, s.tables_window,
                       "too many new tables for your account"))
    await hit_all(limits_of(request), checks)


async def online_creator(request: Request, tables: OpenTables) -> str:
    """The creator of a new online table (account, else address), refused with
    :class:`Limited` while they have their share of tables waiting to start."""
    creator = await creator_of(request)
    waiting = await tables.open_by(creator)
    cap = settings_of(request).open_online_per_creator
    if len(waiting) >= cap:
        wait = max(1, math.ceil(min(tables.expires_at(t) for t in waiting) - tables.now()))
        raise Limited(f"you already have {len(waiting)} online tables waiting to start: "
                      f"start one, or try again in {wait} seconds", wait)
    return creator


class PersonBusy(DomainError):
    """Another request of the same person held their lock for too long; nothing changed."""

    code = "unavailable"


PERSON_LOCK_TTL = 10.0
"""Seconds a person's site-wide lock lives if its process dies holding it."""

PERSON_LOCK_WAIT = 5.0
"""Seconds a request waits for the person's lock before it is refused (503)."""


class PersonLocks:
    """One lock per person (account or address): their checks of a cap and the change the
    check allows run one at a time, so a burst of requests cannot all pass the check
    before any of them changed anything. With site-wide ``leases`` (Redis) the lock holds
    across every process of the site, not only this one."""

    def __init__(self, leases: Leases | None = None, owner: str = "") -> None:
        """No locks yet; ``leases`` make them site-wide (``owner`` names this process)."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._users: Counter[str] = Counter()
        self.leases = leases
        """The site's leases, or None (this process only)."""
        self.owner = owner or f"process-{secrets.token_hex(4)}"
        """This process, as the holder of a site-wide lock."""

    @contextlib.asynccontextmanager
    async def hold(self, person: str) -> AsyncIterator[None]:
        """Hold ``person``'s lock for the block (forgotten when nobody wants it)."""
        lock = self._locks.setdefault(person, asyncio.Lock())
        self._users[person] += 1
        try:
            async with lock:  # this process's requests queue here, not at Redis
                if self.leases is None:
                    yield
                else:
                    async with self._site_lock(person):
                        yield
        finally:
            self._users[person] -= 1
            if not self._users[person]:
                del self._users[person]
                del self._locks[person]

    @contextlib.asynccontextmanager
    async def _site_lock(self, person: str) -> AsyncIterator[None]:
        assert self.leases is not None
        name = f"person:{person}"
        loop = asyncio.get_running_loop()
        give_up = loop.time() + PERSON_LOCK_WAIT
        delay = 0.005
        while True:
            lease = await self.leases.acquire(name, self.owner, PERSON_LOCK_TTL)
            if lease is not None:
                break
            if loop.time() >= give_up:
                raise PersonBusy("another of your requests is still being handled: try "
                                 "again in a moment")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.1)
        try:
            yield
        finally:
            await self.leases.release(lease)


def person_locks(conn: HTTPConnection) -> PersonLocks:
    """The app's :class:`PersonLocks`: site-wide when the site has a Redis URL."""
    return guarded_site(conn).person_locks


async def seat_attempt(request: Request, tables: OpenTables, holder: str) -> str:
    """Count a seat claim or ``Play now`` per address and account (:class:`Limited`), and
    refuse (:class:`TooManySeats`) a person who holds their share of seats; returns who
    holds the seat, ``holder`` (the account, else the address: :func:`creator_of`). Call
    it holding the person's lock (:func:`person_locks`) until the seat is taken. This
    early check gives the answer before any limit is counted; the lobby checks again in
    the transaction that seats them (across processes, and starts undone meanwhile)."""
    s = settings_of(request)
    held = await tables.seats_held(holder)
    if len(held) >= s.seats_held_per_person:
        raise TooManySeats(f"you already hold {len(held)} seats at tables waiting to start "
                           f"(at most {s.seats_held_per_person}): leave one first")
    checks = [(f"seats:ip:{address_of(request)}", s.seats_per_address, s.seats_window,
               "too many seat claims from your address")]
    if holder.startswith("account:"):
        checks.append((f"seats:{holder}", s.seats_per_account, s.seats_window,
                       "too many seat claims for your account"))
    await hit_all(limits_of(request), checks)
    return holder

"""A broker over Redis pub/sub, shared by every process of a site.

One pub/sub connection per process carries every channel this process listens to; a
reader task hands each message to the local subscribers. The connection is always
subscribed to a private control channel, so it exists from :meth:`RedisBroker.connect`
on, and :meth:`RedisBroker.ping` checks the whole path by sending itself a message.
``subscribe`` returns once Redis confirmed the subscription, so nothing published after
it is missed.

Publishing goes through one writer task: messages are queued in call order and sent in
pipelines (one round trip for everything queued meanwhile), each batch after the one
before, so they reach Redis, and every subscriber, in the order ``publish`` was called.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from .base import BUFFER, Broker, BrokerUnavailable, as_bytes

log = logging.getLogger(__name__)

PREFIX = "euchre:relay:"
"""Every channel name this module uses starts with this."""

PING_TIMEOUT = 2.0
"""Seconds :meth:`RedisBroker.ping` waits for its message to come back."""

BATCH = 512
"""Messages sent in one pipeline at most."""


class RedisBroker(Broker):
    """Channels in Redis pub/sub."""

    def __init__(self, url: str, prefix: str = PREFIX, buffer: int = BUFFER) -> None:
        """A broker for the Redis at ``url`` (``redis://host:port/db``); not connected."""
        super().__init__(buffer)
        self.url = url
        """The Redis URL."""
        self.prefix = prefix
        """Prepended to every channel name."""
        self.name = f"euchre-broker-{secrets.token_hex(6)}"
        """This broker's connection name in Redis (``CLIENT LIST`` shows it), when it makes
        its own connections."""
        self._shared: Redis | None = None
        self._control = f"{prefix}_broker:{self.name}"
        self._client: Redis | None = None
        self._pubsub: PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._outbox: list[tuple[str, bytes, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._confirming: dict[str, list[asyncio.Future[None]]] = {}
        self._pings: dict[bytes, asyncio.Future[None]] = {}
        self._wanted = False
        self._connecting = asyncio.Lock()

    @classmethod
    def on(cls, client: Redis, prefix: str = PREFIX, buffer: int = BUFFER) -> RedisBroker:
        """A broker over ``client``, the process's shared one (its pub/sub takes one of the
        client's connections; the client is left open when the broker disconnects)."""
        kwargs = client.connection_pool.connection_kwargs
        where = kwargs.get("path") or f"{kwargs.get('host')}:{kwargs.get('port')}"
        broker = cls(f"redis://{where}/{kwargs.get('db', 0)}", prefix, buffer)
        broker._shared = client
        return broker

    @property
    def connected(self) -> bool:
        """Whether the reader is running."""
        return self._reader is not None and not self._reader.done()

    async def connect(self) -> None:
        """Open the connections and subscribe to the control channel."""
        self._wanted = True
        async with self._connecting:
            if self.connected:
                return
            await self._close_connections()
            # No silent reconnects: a broken pub/sub connection ends the subscriptions
            # (their consumers resync), and the next publish or subscribe connects again.
            client = self._shared or Redis.from_url(self.url, retry=Retry(NoBackoff(), 0),
                                                    client_name=self.name)
            pubsub = client.pubsub()
            self._client, self._pubsub = client, pubsub
            try:
                waiting = self._confirm_later(self._control)
                await pubsub.subscribe(self._control)
                self._reader = asyncio.ensure_future(self._read(pubsub))
                await asyncio.wait_for(waiting, PING_TIMEOUT)
            except Exception as e:
                self._confirming.pop(self._control, None)
                await self._close_connections()
                raise BrokerUnavailable(f"cannot reach Redis at {self.url}: {e!r}") from e

    async def disconnect(self) -> None:
        """Send what is queued, end every subscription, close the connections."""
        self._wanted = False
        writer = self._writer
        if writer is not None and not writer.done() and self._outbox:
            with contextlib.suppress(Exception):
                await asyncio.gather(*(f for _, _, f in self._outbox), return_exceptions=True)
        self._end_all()
        await self._close_connections()

    async def _close_connections(self) -> None:
        for task in (self._reader, self._writer):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._reader = self._writer = None
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        if self._client is not None and self._client is not self._shared:
            with contextlib.suppress(Exception):
                await self._client.aclose()
        self._pubsub = self._client = None
        for _, _, future in self._outbox:
            if not future.done():
                future.set_exception(BrokerUnavailable("the broker disconnected"))
        self._outbox = []

    async def publish(self, channel: str, message: bytes | str) -> None:
        """Queue the message (in call order) and wait until Redis has it."""
        await self._ensure_connected()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outbox.append((self.prefix + channel, as_bytes(message), done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write())
        self._wake.set()
        await done

    async def _write(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                batch, self._outbox = self._outbox[:BATCH], self._outbox[BATCH:]
                client = self._client
                try:
                    if client is None:
                        raise BrokerUnavailable("the broker is not connected")
                    async with client.pipeline(transaction=False) as pipe:
                        for channel, data, _ in batch:
                            pipe.publish(channel, data)
                        await pipe.execute()
                except Exception as e:
                    error = e if isinstance(e, BrokerUnavailable) else \
                        BrokerUnavailable(f"cannot publish to Redis: {e}")
                    for _, _, future in batch:
                        if not future.done():
                            future.set_exception(error)
                    continue
                for _, _, future in batch:
                    if not future.done():
                        future.set_result(None)

    async def ping(self) -> None:
        """Send a message to this broker's own control channel and wait for it."""
        if not self.connected:
            raise BrokerUnavailable("the broker is not connected")
        token = secrets.token_hex(8).encode()
        back: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pings[token] = back
        try:
            await self.publish(self._control[len(self.prefix):], token)
            await asyncio.wait_for(back, PING_TIMEOUT)
        except TimeoutError as e:
            raise BrokerUnavailable("Redis pub/sub did not answer in time") from e
        finally:
            self._pings.pop(token, None)

    async def _ensure_connected(self) -> None:
        """Connect again if the connection broke (not if :meth:`disconnect` was called)."""
        if self.connected:
            return
        if not self._wanted:
            raise BrokerUnavailable("the broker is not connected")
        await self.connect()

    def _confirm_later(self, full_channel: str) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._confirming.setdefault(full_channel, []).append(future)
        return future

    async def _listen(self, channel: str) -> None:
        """Subscribe on Redis and wait for its confirmation."""
        await self._ensure_connected()
        assert self._pubsub is not None
        full = self.prefix + channel
        confirmed = self._confirm_later(full)
        try:
            await self._pubsub.subscribe(full)
            await asyncio.wait_for(confirmed, PING_TIMEOUT)
        except Exception as e:
            raise BrokerUnavailable(f"cannot subscribe to {channel}: {e}") from e

    async def _unlisten(self, channel: str) -> None:
        """Unsubscribe on Redis (not waiting for the confirmation)."""
        if self._pubsub is not None and self.connected:
            await self._pubsub.unsubscribe(self.prefix + channel)

    async def _read(self, pubsub: PubSub) -> None:
        try:
            async for message in pubsub.listen():
                self._handle(message)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.warning("Redis broker: the pub/sub connection broke: %s", e)
            error = BrokerUnavailable(f"lost the Redis pub/sub connection: {e}")
            for futures in self._confirming.values():
                for future in futures:
                    if not future.done():
                        future.set_exception(error)
            self._confirming.clear()
            self._end_all(error)

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        channel = message["channel"]
        channel = channel.decode() if isinstance(channel, bytes) else str(channel)
        if kind == "message":
            data = message["data"]
            if channel == self._control:
                back = self._pings.get(data)
                if back is not None and not back.done():
                    back.set_result(None)
                return
            self._deliver(channel[len(self.prefix):], data)
        elif kind == "subscribe":
            waiting = self._confirming.get(channel)
            if waiting:
                future = waiting.pop(0)
                if not future.done():
                    future.set_result(None)
                if not waiting:
                    del self._confirming[channel]

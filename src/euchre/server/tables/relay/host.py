"""The host side of socket relays: this process runs a table, and sockets (or requests)
that reached another process reach it through the broker.

Every process listens on its own inbox, ``relay:in:{owner}``, for :data:`.relay_messages.ToHost`
frames. An :class:`~.messages.Open` gives relay R a connection of its own here, whose
socket is a :class:`ReplySocket`: each message it writes is published to ``relay:out:{R}``
as a :class:`~.messages.Send`, its close as a :class:`~.messages.Shut`. The
connection is handled by the same code as a direct socket, so joins, moves, seeds, watching,
hints and rejoining with ``since`` work unchanged, and the broker keeps one publisher's
messages in order, so versioned events arrive in order with no gap. A host drops relays
whose edge it has not heard of for a while (the edge died), and all of them when its inbox
link breaks (their edges see the break too and close their sockets).

It also answers the questions asked of an owner: :class:`~.messages.Closing` (end a
table, say how it ended), :class:`~.messages.Replace` (give a seat to a computer, say
what the table decided) and :class:`~.messages.Handover` (let the table go if nobody is
connected to it here: saved, lease released). The edge side is :mod:`.edge`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field

from starlette.datastructures import Address
from starlette.websockets import WebSocketState

from ....broker import Broker
from ....table.actor.actor import TableActor
from ....table.hosting.manager import TableManager
from ..bot_gate import BotGate
from ..hints import HintService
from ..session import Connection, Session
from ..socket_rate import TABLE_RATE, Bucket, MessageRate
from .messages import (
    BadRelayFrame,
    Beat,
    Bye,
    ClientText,
    Closed,
    Closing,
    HandedOver,
    Handover,
    Open,
    Replace,
    Replaced,
    Shut,
    ToEdge,
    ToHost,
    decode_to_host,
    encode,
    send_frame,
)

log = logging.getLogger(__name__)

MOVED = "the table moved to another server: reconnect to carry on"
"""Why a relayed socket is closed when its table changed hands."""

BROKEN = "the link between servers broke: reconnect to carry on"
"""Why a relayed socket is closed when the broker lost its connection."""


def inbox_channel(owner: str) -> str:
    """The channel a process reads relay messages from."""
    return f"relay:in:{owner}"


def out_channel(relay_id: str) -> str:
    """The channel one relayed connection's messages (or one answer) go back on."""
    return f"relay:out:{relay_id}"


class ReplySocket:
    """What a relayed connection writes to: its edge's reply channel, through the broker
    (the socket a :class:`~..session.Connection` needs, for a client in another process)."""

    def __init__(self, broker: Broker, channel: str, address: str) -> None:
        """Writes to ``channel``; the client's ``address`` as its edge saw it."""
        self.broker = broker
        """The pub/sub between processes."""
        self.channel = channel
        """The edge's reply channel."""
        self.client: Address | None = Address(address, 0)
        """The client's address (the port is not known here)."""
        self.application_state = WebSocketState.CONNECTED
        """DISCONNECTED once closed."""

    async def send_text(self, data: str) -> None:
        """Send one encoded message to the client."""
        await self.broker.publish(self.channel, send_frame(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close the client's socket with ``code`` and ``reason``."""
        self.application_state = WebSocketState.DISCONNECTED
        await self.broker.publish(self.channel, encode(Shut(code, reason or "")))


@dataclass
class Hosted:
    """A relayed connection at its host."""

    relay_id: str
    table_id: str
    conn: Connection
    inputs: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    heard: float = field(default_factory=time.monotonic)
    task: asyncio.Task[None] | None = None
    dropped: bool = False


class RelayHost:
    """One process's inbox: the relayed connections of the tables it runs, and its answers
    to the other processes' questions about them."""

    def __init__(self, broker: Broker, manager: TableManager, owner: str, ttl: float,
                 hints: HintService, gate: BotGate | None = None,
                 rate: MessageRate = TABLE_RATE) -> None:
        """The inbox of the process ``owner`` (leases of ``ttl`` seconds) over ``broker``
        for ``manager``'s tables (``gate``: the outside bots' check, as on a direct
        socket); a relayed socket's messages are held to ``rate`` here, where they are
        handled."""
        self.broker = broker
        """The pub/sub between processes."""
        self.manager = manager
        """This process's tables."""
        self.owner = owner
        """This process as a lease owner."""
        self.ttl = ttl
        """Seconds a table's lease lives unrenewed."""
        self.hints = hints
        """Hints for relayed connections (worked out here, at the host)."""
        self.gate = gate
        """The outside bots' token check for relayed connections."""
        self.rate = rate
        """The message rate of each relayed connection (counted here, at the host)."""
        self.remotes: dict[str, Hosted] = {}
        """Relayed connections hosted here, by relay id."""
        self.ready = asyncio.Event()
        """Set once the inbox is subscribed."""
        self._task: asyncio.Task[None] | None = None
        self._jobs: set[asyncio.Future[None]] = set()

    @property
    def inbox(self) -> str:
        """This process's inbox channel."""
        return inbox_channel(self.owner)

    @property
    def beat_every(self) -> float:
        """Seconds between an edge's beats."""
        return self.ttl / 3

    def start(self) -> None:
        """Listen on the inbox (in the background, reconnecting after a broken link)."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._listen())

    async def stop(self) -> None:
        """Stop listening and end every hosted connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task = None
        for remote in list(self.remotes.values()):
            self._drop(remote)

    async def _listen(self) -> None:
        while True:
            try:
                async with self.broker.subscribe(self.inbox) as sub:
                    self.ready.set()
                    reaper = asyncio.ensure_future(self._reap())
                    try:
                        async for frame in sub:
                            try:
                                self.receive(decode_to_host(frame))
                            except BadRelayFrame as e:
                                log.warning("relay inbox: %s", e)
                            except Exception:
                                log.exception("relay: a bad inbox message")
                    finally:
                        reaper.cancel()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("relay inbox: %s; listening again shortly", e)
            self.ready.clear()
            for remote in list(self.remotes.values()):  # their edges see the break too
                self._drop(remote)
            await asyncio.sleep(self.beat_every)

    async def _reap(self) -> None:
        """Drop hosted connections whose edge has not been heard of for a while."""
        while True:
            await asyncio.sleep(self.beat_every)
            stale = time.monotonic() - 3 * self.beat_every - 1.0
            for remote in [r for r in self.remotes.values() if r.heard < stale]:
                log.info("relay %s: its edge went quiet; dropped", remote.relay_id)
                self._drop(remote)

    def receive(self, message: ToHost) -> None:
        """Act on one inbox message."""
        match message:
            case ClientText(relay=relay_id, text=text):
                remote = self.remotes.get(relay_id)
                if remote is not None:
                    remote.heard = time.monotonic()
                    remote.inputs.put_nowait(text)
            case Open():
                self._open(message)
            case Beat(relays=relays):
                now = time.monotonic()
                for relay_id in relays:
                    remote = self.remotes.get(relay_id)
                    if remote is not None:
                        remote.heard = now
            case Bye(relay=relay_id):
                remote = self.remotes.get(relay_id)
                if remote is not None:
                    remote.inputs.put_nowait(None)
            case Closing():
                self._job(self._closing(message))
            case Replace():
                self._job(self._replace(message))
            case Handover():
                self._job(self._hand_over(message))

    def _job(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.ensure_future(work)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)
        task.add_done_callback(_log_failure)

    def _open(self, message: Open) -> None:
        if not message.relay or message.relay in self.remotes:
            return
        socket = ReplySocket(self.broker, out_channel(message.relay), message.address)
        conn = Connection(socket)
        conn.person = message.person  # found from the cookie at the edge
        conn.rate = Bucket(self.rate)
        remote = Hosted(message.relay, message.table, conn)
        self.remotes[message.relay] = remote
        remote.task = asyncio.ensure_future(self._host(remote))

    async def _host(self, remote: Hosted) -> None:
        """Serve one relayed connection: its messages in order, as a direct socket's."""
        conn = remote.conn
        writer = asyncio.ensure_future(conn.write_all())
        actor: TableActor | None = self.manager.peek(remote.table_id)
        try:
            if actor is None or not actor.running:
                conn.release(MOVED)  # not (or no longer) ours: the edge reconnects
                return
            session = Session(conn, actor, self.hints, self.gate)
            while not conn.overflowed and conn.close_with is None:
                data = await remote.inputs.get()
                if data is None:
                    if remote.dropped:  # not the edge's goodbye: tell it to reconnect
                        conn.release(BROKEN)
                    break
                await session.handle(data)
                await conn.write_queued()
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("relay %s: error", remote.relay_id)
        finally:
            await conn.finish(actor, writer)
            if self.remotes.get(remote.relay_id) is remote:
                del self.remotes[remote.relay_id]

    def _drop(self, remote: Hosted) -> None:
        remote.dropped = True
        remote.inputs.put_nowait(None)
        if self.remotes.get(remote.relay_id) is remote:
            del self.remotes[remote.relay_id]

    async def _answer(self, reply: str, answer: ToEdge) -> None:
        await self.broker.publish(out_channel(reply), encode(answer))

    async def _closing(self, ask: Closing) -> None:
        actor = self.manager.peek(ask.table)
        answer = Closed(here=False)
        if actor is not None and actor.running:
            try:
                if ask.after_hand:  # it plays the hand in play out, here
                    ends = await actor.close_after_hand(ask.reason)
                    answer = Closed(here=True, closed=(actor.closed or actor.last_hand)
                                    if ends else None)
                else:
                    await actor.close(ask.reason)
                    answer = Closed(here=True, closed=actor.closed)
                    await self.manager.forget(ask.table)
            except Exception as e:  # stopped meanwhile, or not stored: the caller says so
                answer = Closed(here=False, error=str(e))
        await self._answer(ask.reply, answer)

    async def _replace(self, ask: Replace) -> None:
        actor = self.manager.peek(ask.table)
        answer = Replaced(here=False)
        if actor is not None and actor.running:
            try:
                now = await actor.replace(ask.seat, ask.reason)
                answer = Replaced(here=True, now=now, replaced=actor.is_replaced(ask.seat))
            except Exception as e:  # stopped meanwhile, or refused: the caller says so
                answer = Replaced(here=False, error=str(e))
        await self._answer(ask.reply, answer)

    async def _hand_over(self, ask: Handover) -> None:
        actor = self.manager.peek(ask.table)
        kept = actor is not None and actor.subscribed > 0
        if actor is not None and not kept:
            await self.manager.forget(ask.table)  # saved, then the lease released
        await self._answer(ask.reply, HandedOver(let_go=not kept))


def _log_failure(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("relay: answering another process failed: %r", task.exception())

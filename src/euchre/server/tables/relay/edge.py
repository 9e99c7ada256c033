"""The edge side of socket relays: a socket (or a request) reached this process, and its
table runs in another.

A socket for table T that lands here while process A holds T's lease is relayed: the edge
picks a relay id R, subscribes to ``relay:out:{R}``, and sends A's inbox an
:class:`~.messages.Open`, then each of the client's messages as a
:class:`~.messages.ClientText`; what comes back (:data:`~.messages.ToEdge`) is
written to the socket, and a :class:`~.messages.Shut` closes it. A relayed socket is as
good as its lease: every third of a lease the edge looks at the leases of all its relayed
tables (one ``MGET``) and tells each host which of its relays are still here (one
:class:`~.messages.Beat` per host); if a table's lease moved or is gone, or the relay
breaks, the edge closes that socket with 1012 and the client reconnects and rejoins with
``since`` wherever the table is now.

The questions a process asks a table's owner are here too, each answered on a reply channel
of its own: :meth:`RelayEdge.close_and_tell`, :meth:`RelayEdge.replace_remote` and
:meth:`RelayEdge.hand_over`. Callers do not use this module: they open a table through the
door (:mod:`..door`), which relays, hands over and asks behind one handle.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import msgspec
from starlette.websockets import WebSocket

from ....broker import Broker
from ....table.hosting.owners import TableOwners
from ..session import Connection, receive_each
from ..socket_guard import Refusal
from ..socket_rate import CLOSE_FLOOD, FLOOD_REASON
from .host import BROKEN, MOVED, inbox_channel, out_channel
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
    Send,
    Shut,
    ToEdge,
    ToHost,
    decode_to_edge,
    encode,
)

log = logging.getLogger(__name__)

HANDOVER_WAIT = 2.0
"""Seconds to wait for the owner's answer to a handover (it saves the table first) before
looking up where the table is anyway (an owner that died, or does not answer)."""

ASK_WAIT = 5.0
"""Seconds to wait for an owner's answer to a close or a replace."""


@dataclass
class Edge:
    """A socket relayed from here to its table's owner."""

    relay_id: str
    inbox: str
    table_id: str
    owner: str
    conn: Connection


class RelayEdge:
    """This process's side of the sockets it relays to other processes, and the questions
    it asks them."""

    def __init__(self, broker: Broker, owners: TableOwners,
                 relayed: Callable[[], None] | None = None) -> None:
        """Relays over ``broker``; table leases looked up in ``owners``; each client
        message relayed is counted by ``relayed`` (``/metrics``)."""
        self.broker = broker
        """The pub/sub between processes."""
        self.owners = owners
        """Table leases (who runs what)."""
        self.relayed = relayed
        """Counts the client messages relayed from here."""
        self.edges: dict[str, Edge] = {}
        """Sockets relayed from here to their table's owner, by relay id."""
        self._watcher: asyncio.Task[None] | None = None

    @property
    def beat_every(self) -> float:
        """Seconds between looks at the relayed tables' leases."""
        return self.owners.ttl / 3

    async def stop(self) -> None:
        """Stop watching the relayed sockets."""
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        self._watcher = None

    async def _tell(self, owner: str, message: ToHost) -> None:
        await self.broker.publish(inbox_channel(owner), encode(message))

    async def _ask(self, owner: str, question: Callable[[str], ToHost], wait: float
                   ) -> ToEdge | None:
        """Send ``question(reply id)`` to ``owner`` and wait ``wait`` s for its answer
        (None: no answer)."""
        reply = secrets.token_hex(8)
        async with self.broker.subscribe(out_channel(reply)) as sub:
            await self._tell(owner, question(reply))
            try:
                async with asyncio.timeout(wait):
                    async for frame in sub:
                        try:
                            return decode_to_edge(frame)
                        except BadRelayFrame as e:
                            log.warning("relay answer: %s", e)
            except TimeoutError:
                return None
        return None

    async def close_and_tell(self, owner: str, table_id: str, reason: str,
                             wait: float = ASK_WAIT, *, after_hand: bool = False
                             ) -> tuple[bool, str | None]:
        """Have ``owner`` end its table ``table_id`` before its game is over (``after_hand``:
        once the hand in play is over), and tell what its table decided in the order its
        queue saw things: (True, how it was closed or closes: ``reason`` now, an earlier
        reason, or None when the game had ended first), or (False, None) if ``owner`` no
        longer runs it (or did not answer in ``wait`` s)."""
        answer = await self._ask(owner, lambda reply: Closing(reply, table_id, reason,
                                                              after_hand), wait)
        if not isinstance(answer, Closed) or not answer.here:
            return False, None
        return True, answer.closed or None

    async def replace_remote(self, owner: str, table_id: str, seat: int, reason: str,
                             wait: float = ASK_WAIT) -> str | None:
        """Have ``owner`` give ``seat`` of its table ``table_id`` to a computer (a person
        left at another process). What its table decided, in the order its queue saw
        things: ``"now"`` (taken over by this request), ``"already"`` (taken over
        before), ``"over"`` (the game had ended first: nothing changed); None if
        ``owner`` no longer runs the table (or did not answer in ``wait`` seconds)."""
        answer = await self._ask(owner, lambda reply: Replace(reply, table_id, seat, reason),
                                 wait)
        if not isinstance(answer, Replaced) or not answer.here:
            return None
        if answer.now:
            return "now"
        return "already" if answer.replaced else "over"

    async def hand_over(self, owner: str, table_id: str, wait: float = HANDOVER_WAIT
                        ) -> bool | None:
        """Ask ``owner`` to let the table go (it does when nobody is connected to it there:
        saved, lease released): True if it did (or did not run it), False if it kept it,
        None if it did not answer in ``wait`` s. One question and its answer, not a poll."""
        answer = await self._ask(owner, lambda reply: Handover(table_id, reply), wait)
        return answer.let_go if isinstance(answer, HandedOver) else None

    async def serve(self, conn: Connection, websocket: WebSocket, table_id: str,
                    owner: str) -> None:
        """Relay this socket to ``owner``, which runs ``table_id``, until either side ends."""
        relay_id = secrets.token_hex(8)
        inbox = inbox_channel(owner)
        address = websocket.client.host if websocket.client else "?"
        async with self.broker.subscribe(out_channel(relay_id)) as sub:
            await self._tell(owner, Open(relay_id, table_id, address, conn.person))
            pump = asyncio.ensure_future(_pump(sub, conn, table_id))
            self.edges[relay_id] = Edge(relay_id, inbox, table_id, owner, conn)
            if self._watcher is None or self._watcher.done():
                self._watcher = asyncio.ensure_future(self._watch())

            async def relay(data: str | bytes) -> None:
                text = data if isinstance(data, str) else data.decode("utf-8", "replace")
                await self.broker.publish(inbox, encode(ClientText(relay_id, text)))
                if self.relayed is not None:
                    self.relayed()

            try:
                await receive_each(conn, websocket, relay)
            finally:
                self.edges.pop(relay_id, None)
                with contextlib.suppress(Exception):
                    await self.broker.publish(inbox, encode(Bye(relay_id)))
                pump.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await pump

    async def _watch(self) -> None:
        """Every third of a lease, while sockets are relayed from here: :meth:`watch_once`."""
        while self.edges:
            await asyncio.sleep(self.beat_every)
            try:
                await self.watch_once()
            except Exception:  # never stop watching the others
                log.exception("relay: watching the relayed sockets failed")

    async def watch_once(self) -> None:
        """Tell each host which of its relays are still here (one :class:`Beat` each), look
        at every relayed table's lease at once, and close the sockets whose table changed
        hands (or all of them if Redis cannot be reached)."""
        edges = list(self.edges.values())
        if not edges:
            return
        by_inbox: dict[str, list[str]] = {}
        for edge in edges:
            by_inbox.setdefault(edge.inbox, []).append(edge.relay_id)
        try:
            await asyncio.gather(*(self.broker.publish(inbox, encode(Beat(ids)))
                                   for inbox, ids in by_inbox.items()))
            holders = await self.owners.holders(sorted({edge.table_id for edge in edges}))
        except Exception as e:
            log.info("relays: %s", e)
            for edge in edges:
                edge.conn.release(BROKEN)
            return
        for edge in edges:
            if holders.get(edge.table_id) != edge.owner:
                edge.conn.release(MOVED)


class _Seated(msgspec.Struct):
    """The seat of a ``joined`` message (read at the edge to count the socket's place)."""

    seat: int | None = None


_joined = msgspec.json.Decoder(_Seated)


async def _pump(sub: AsyncIterator[bytes], conn: Connection, table_id: str) -> None:
    """The host's messages to the client; its close closes the socket. The socket's place
    in this process's counts is taken when the host says it joined (caps and the join
    deadline hold at the process the client reached)."""
    try:
        async for frame in sub:
            message = decode_to_edge(frame)
            if isinstance(message, Send):
                text = message.text
                if conn.ticket is not None and conn.ticket.seat is None \
                        and text.startswith('{"type":"joined"'):
                    refusal = conn.ticket.join(table_id, _joined.decode(text).seat)
                    if refusal is not None:
                        conn.refuse(refusal)
                        return
                conn.send_text(text)
            elif isinstance(message, Shut):
                if (message.code, message.reason) == (CLOSE_FLOOD, FLOOD_REASON) \
                        and conn.ticket is not None:
                    conn.ticket.flooded()  # the host closed it for its message rate
                conn.refuse(Refusal(message.code, message.reason))
                return
    except asyncio.CancelledError:
        raise
    except Exception as e:  # a broken link, or a frame that is not a relay message
        log.info("relay broke: %s", e)
    conn.release(BROKEN)

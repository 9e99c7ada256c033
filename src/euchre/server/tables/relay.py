"""Socket relays: a table socket that reaches a process which does not run the table is
relayed through the broker to the process that does, and back.

Every process listens on its own inbox channel, ``relay:in:{owner}``. A socket at table T
that lands on process B while process A holds T's lease (the *edge*, B) picks a relay id
R, subscribes to ``relay:out:{R}``, and sends A ``open R T address``; then each of the
client's messages as ``msg R text``. A (the *host*) gives R a connection of its own, whose
"socket" publishes each encoded message to ``relay:out:{R}`` (``T`` + text) and its close
(``C`` + ``[code, reason]``); the connection is handled by the same code as a direct
socket, so joins, moves, seeds, watching, hints and rejoining with ``since`` work
unchanged, and the broker keeps one publisher's messages in order, so versioned events
arrive in order with no gap. A relayed connection is as good as its lease: every third of
a lease the edge looks at the leases of all its relayed tables (one ``MGET``) and tells
each host which of its relays are still there (one ``beat`` per host); if a table's lease
moved or is gone, or the relay breaks, the edge closes that socket with 1012 and the
client reconnects and rejoins with ``since`` wherever the table is now. A host drops
relays it has not heard of for a while (their edge died).

``close T reason`` asks the host to end table T (a person left a coin game at another
process). ``handover T R`` asks it to let T go if nobody is connected to it there: the
table is saved, its lease released, and the host answers on ``relay:out:{R}`` (``1``: let
go, or not there; ``0``: kept), so the asking process takes the table at once or relays
without looking again; a table follows its first socket and a one-person table is not
relayed at all (:meth:`Relays.take_over`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

from starlette.websockets import WebSocket, WebSocketState

from ...broker import Broker
from ...table.actor import TableActor
from ...table.manager import Elsewhere, TableManager
from ...table.owners import TableOwners
from ...table.seats import AccountKey
from ..core.people import key_from_text, key_text
from .bot_gate import BotGate
from .hints import HintService
from .socket_guard import Refusal
from .socket_rate import CLOSE_FLOOD, FLOOD_REASON, TABLE_RATE, Bucket, MessageRate
from .ws import Connection, handle_message

log = logging.getLogger(__name__)

MOVED = "the table moved to another server: reconnect to carry on"
"""Why a relayed socket is closed when its table changed hands."""

BROKEN = "the link between servers broke: reconnect to carry on"
"""Why a relayed socket is closed when the broker lost its connection."""

HANDOVER_WAIT = 2.0
"""Seconds to wait for the owner's answer to a handover (it saves the table first) before
looking up where the table is anyway (an owner that died, or does not answer)."""


def inbox_channel(owner: str) -> str:
    """The channel a process reads relayed messages from."""
    return f"relay:in:{owner}"


def out_channel(relay_id: str) -> str:
    """The channel a host sends one relayed connection's messages on."""
    return f"relay:out:{relay_id}"


class _BrokerSocket:
    """What a relayed connection writes to: the edge's channel, through the broker."""

    def __init__(self, broker: Broker, channel: str, host: str) -> None:
        self.broker = broker
        self.channel = channel
        self.client = SimpleNamespace(host=host)
        self.application_state = WebSocketState.CONNECTED

    async def send_text(self, text: str) -> None:
        await self.broker.publish(self.channel, "T" + text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.application_state = WebSocketState.DISCONNECTED
        await self.broker.publish(self.channel, "C" + json.dumps([code, reason]))


@dataclass
class _Edge:
    """A socket relayed from here to its table's owner."""

    relay_id: str
    inbox: str
    table_id: str
    owner: str
    conn: Connection


@dataclass
class _Remote:
    """A relayed connection at its host."""

    relay_id: str
    table_id: str
    conn: Connection
    inputs: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    heard: float = field(default_factory=time.monotonic)
    task: asyncio.Task[None] | None = None
    dropped: bool = False


class Relays:
    """One process's relays: the host of its tables' remote sockets, the edge of sockets
    whose table runs elsewhere."""

    def __init__(self, broker: Broker, manager: TableManager, owners: TableOwners,
                 hints: HintService, gate: BotGate | None = None,
                 rate: MessageRate = TABLE_RATE) -> None:
        """Relays over ``broker`` for ``manager``'s tables, leases in ``owners``
        (``gate``: the outside bots' check, as on a direct socket); a relayed socket's
        messages are held to ``rate`` here, where they are handled."""
        self.broker = broker
        """The pub/sub between processes."""
        self.manager = manager
        """This process's tables."""
        self.owners = owners
        """Table leases (who runs what)."""
        self.hints = hints
        """Hints for relayed connections (worked out here, at the host)."""
        self.gate = gate
        """The outside bots' token check for relayed connections."""
        self.rate = rate
        """The message rate of each relayed connection (counted here, at the host)."""
        self.remotes: dict[str, _Remote] = {}
        """Relayed connections hosted here, by relay id."""
        self.edges: dict[str, _Edge] = {}
        """Sockets relayed from here to their table's owner, by relay id."""
        self.ready = asyncio.Event()
        """Set once the inbox is subscribed."""
        self._task: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None

    @property
    def inbox(self) -> str:
        """This process's inbox channel."""
        return inbox_channel(self.owners.owner)

    @property
    def beat_every(self) -> float:
        """Seconds between an edge's looks at its table's lease."""
        return self.owners.ttl / 3

    def start(self) -> None:
        """Listen on the inbox (in the background, reconnecting after a broken link)."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._listen())

    async def stop(self) -> None:
        """Stop listening and watching, and end every hosted connection."""
        for task in (self._task, self._watcher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = self._watcher = None
        for remote in list(self.remotes.values()):
            self._drop(remote)

    async def _listen(self) -> None:
        while True:
            try:
                async with self.broker.subscribe(self.inbox) as sub:
                    self.ready.set()
                    reaper = asyncio.ensure_future(self._reap())
                    try:
                        async for raw in sub:
                            try:
                                self._on_message(raw.decode())
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

    def _on_message(self, text: str) -> None:
        op, _, rest = text.partition(" ")
        if op == "msg":
            relay_id, _, data = rest.partition(" ")
            remote = self.remotes.get(relay_id)
            if remote is not None:
                remote.heard = time.monotonic()
                remote.inputs.put_nowait(data)
        elif op == "open":
            relay_id, table_id, host, person = [*rest.split(" "), "", "", "", ""][:4]
            self._open(relay_id, table_id, host, key_from_text(person))
        elif op == "beat":
            now = time.monotonic()
            for relay_id in rest.split(","):
                remote = self.remotes.get(relay_id)
                if remote is not None:
                    remote.heard = now
        elif op == "bye":
            remote = self.remotes.get(rest)
            if remote is not None:
                remote.inputs.put_nowait(None)
        elif op == "close":
            table_id, _, reason = rest.partition(" ")
            task = asyncio.ensure_future(self._close_table(table_id, reason))
            task.add_done_callback(_log_failure)
        elif op == "closing":
            reply, table_id, reason = [*rest.split(" ", 2), "", "", ""][:3]
            task = asyncio.ensure_future(self._closing(reply, table_id, reason))
            task.add_done_callback(_log_failure)
        elif op == "replace":
            relay_id, table_id, seat, reason = [*rest.split(" ", 3), "", "", "", ""][:4]
            task = asyncio.ensure_future(self._replace(relay_id, table_id, seat, reason))
            task.add_done_callback(_log_failure)
        elif op == "handover":
            task = asyncio.ensure_future(self._hand_over(rest))
            task.add_done_callback(_log_failure)

    def _open(self, relay_id: str, table_id: str, host: str,
              person: AccountKey | None = None) -> None:
        if not relay_id or relay_id in self.remotes:
            return
        socket = _BrokerSocket(self.broker, out_channel(relay_id), host)
        conn = Connection(cast(WebSocket, socket))
        conn.person = person  # found from the cookie at the edge
        conn.rate = Bucket(self.rate)
        remote = _Remote(relay_id, table_id, conn)
        self.remotes[relay_id] = remote
        remote.task = asyncio.ensure_future(self._host(remote))

    async def _host(self, remote: _Remote) -> None:
        """Serve one relayed connection: its messages in order, as a direct socket's."""
        conn = remote.conn
        writer = asyncio.ensure_future(conn.write_all())
        actor: TableActor | None = self.manager.peek(remote.table_id)
        try:
            if actor is None or not actor.running:
                conn.release(MOVED)  # not (or no longer) ours: the edge reconnects
                return
            while not conn.overflowed and conn.close_with is None:
                data = await remote.inputs.get()
                if data is None:
                    if remote.dropped:  # not the edge's goodbye: tell it to reconnect
                        conn.release(BROKEN)
                    break
                await handle_message(conn, actor, data, self.hints, self.gate)
                await conn.write_queued()
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("relay %s: error", remote.relay_id)
        finally:
            await conn.finish(actor, writer)
            if self.remotes.get(remote.relay_id) is remote:
                del self.remotes[remote.relay_id]

    def _drop(self, remote: _Remote) -> None:
        remote.dropped = True
        remote.inputs.put_nowait(None)
        if self.remotes.get(remote.relay_id) is remote:
            del self.remotes[remote.relay_id]

    async def _close_table(self, table_id: str, reason: str) -> None:
        actor = self.manager.peek(table_id)
        if actor is not None:
            await actor.close(reason or "closed")
            await self.manager.forget(table_id)

    async def _closing(self, reply: str, table_id: str, reason: str) -> None:
        actor = self.manager.peek(table_id)
        answer: dict[str, Any] = {"here": False}
        if actor is not None and actor.running:
            try:
                await actor.close(reason)
                answer = {"here": True, "closed": actor.closed}
                await self.manager.forget(table_id)
            except Exception as e:  # stopped meanwhile, or not stored: the caller says so
                answer = {"here": False, "error": str(e)}
        await self.broker.publish(out_channel(reply), json.dumps(answer))

    async def close_and_tell(self, owner: str, table_id: str, reason: str,
                             wait: float = 5.0) -> tuple[bool, str | None]:
        """Have ``owner`` end its table ``table_id`` before its game is over, and tell what
        its table decided in the order its queue saw things: (True, how it was closed:
        ``reason`` now, an earlier reason, or None when the game had ended first), or
        (False, None) if ``owner`` no longer runs it (or did not answer in ``wait`` s)."""
        reply = secrets.token_hex(8)
        async with self.broker.subscribe(out_channel(reply)) as sub:
            await self.broker.publish(inbox_channel(owner),
                                      f"closing {reply} {table_id} {reason}")
            try:
                async with asyncio.timeout(wait):
                    async for raw in sub:
                        answer = json.loads(raw)
                        if not answer.get("here"):
                            return False, None
                        closed = answer.get("closed")
                        return True, str(closed) if closed else None
            except TimeoutError:
                return False, None
        return False, None

    async def _replace(self, relay_id: str, table_id: str, seat: str, reason: str) -> None:
        actor = self.manager.peek(table_id)
        answer: dict[str, Any] = {"here": False}
        if actor is not None and actor.running:
            try:
                now = await actor.replace(int(seat), reason)
                answer = {"here": True, "now": now, "replaced": actor.is_replaced(int(seat))}
            except Exception as e:  # stopped meanwhile, or refused: the caller says so
                answer = {"here": False, "error": str(e)}
        await self.broker.publish(out_channel(relay_id), json.dumps(answer))

    async def replace_remote(self, owner: str, table_id: str, seat: int, reason: str,
                             wait: float = 5.0) -> str | None:
        """Have ``owner`` give ``seat`` of its table ``table_id`` to a computer (a person
        left at another process). What its table decided, in the order its queue saw
        things: ``"now"`` (taken over by this request), ``"already"`` (taken over
        before), ``"over"`` (the game had ended first: nothing changed); None if
        ``owner`` no longer runs the table (or did not answer in ``wait`` seconds)."""
        relay_id = secrets.token_hex(8)
        async with self.broker.subscribe(out_channel(relay_id)) as sub:
            await self.broker.publish(inbox_channel(owner),
                                      f"replace {relay_id} {table_id} {seat} {reason}")
            try:
                async with asyncio.timeout(wait):
                    async for raw in sub:
                        answer = json.loads(raw)
                        if not answer.get("here"):
                            return None
                        if answer["now"]:
                            return "now"
                        return "already" if answer.get("replaced") else "over"
            except TimeoutError:
                return None
        return None

    async def _hand_over(self, rest: str) -> None:
        table_id, _, reply = rest.partition(" ")
        actor = self.manager.peek(table_id)
        kept = actor is not None and actor.subscribed > 0
        if actor is not None and not kept:
            await self.manager.forget(table_id)  # saved, then the lease released
        if reply:
            await self.broker.publish(out_channel(reply), "0" if kept else "1")

    async def take_over(self, table_id: str, owner: str, wait: float = HANDOVER_WAIT
                        ) -> TableActor | Elsewhere | None:
        """Ask ``owner`` to hand the table over and take it if it does (it does when
        nobody is connected to the table there); else where the table runs now. One
        question and its answer, not a poll: a kept table is relayed to ``owner`` at once."""
        reply = secrets.token_hex(8)
        let_go: bool | None = None
        async with self.broker.subscribe(out_channel(reply)) as sub:
            await self.broker.publish(inbox_channel(owner), f"handover {table_id} {reply}")
            try:
                async with asyncio.timeout(wait):
                    async for raw in sub:
                        let_go = raw == b"1"
                        break
            except TimeoutError:
                pass  # no answer: look where it is now
        if let_go is False:
            return Elsewhere(owner)
        return await self.manager.locate(table_id)

    async def close_remote(self, owner: str, table_id: str, reason: str) -> None:
        """Ask ``owner`` to end ``table_id`` (the manager's ``remote_close``)."""
        await self.broker.publish(inbox_channel(owner), f"close {table_id} {reason}")

    # -- the edge -------------------------------------------------------------------------

    async def serve_edge(self, conn: Connection, websocket: WebSocket, table_id: str,
                         owner: str) -> None:
        """Relay this socket to ``owner``, which runs ``table_id``, until either side ends."""
        relay_id = secrets.token_hex(8)
        inbox = inbox_channel(owner)
        host = websocket.client.host if websocket.client else "?"
        async with self.broker.subscribe(out_channel(relay_id)) as sub:
            await self.broker.publish(
                inbox, f"open {relay_id} {table_id} {host} {key_text(conn.person)}".rstrip())
            pump = asyncio.ensure_future(_pump(sub, conn, table_id))
            self.edges[relay_id] = _Edge(relay_id, inbox, table_id, owner, conn)
            if self._watcher is None or self._watcher.done():
                self._watcher = asyncio.ensure_future(self._watch())
            try:
                while not conn.overflowed and conn.close_with is None:
                    message = await websocket.receive()
                    if message["type"] == "websocket.disconnect":
                        break
                    data = message.get("text")
                    if data is None:
                        data = (message.get("bytes") or b"").decode("utf-8", "replace")
                    await self.broker.publish(inbox, f"msg {relay_id} {data}")
            finally:
                self.edges.pop(relay_id, None)
                with contextlib.suppress(Exception):
                    await self.broker.publish(inbox, f"bye {relay_id}")
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
        """Tell each host which of its relays are still here (one ``beat`` each), look at
        every relayed table's lease at once, and close the sockets whose table changed
        hands (or all of them if Redis cannot be reached)."""
        edges = list(self.edges.values())
        if not edges:
            return
        by_inbox: dict[str, list[str]] = {}
        for edge in edges:
            by_inbox.setdefault(edge.inbox, []).append(edge.relay_id)
        try:
            await asyncio.gather(*(self.broker.publish(inbox, "beat " + ",".join(ids))
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


async def _pump(sub: Any, conn: Connection, table_id: str) -> None:
    """The host's messages to the client; its close closes the socket. The socket's place
    in this process's counts is taken when the host says it joined (caps and the join
    deadline hold at the process the client reached)."""
    try:
        async for raw in sub:
            if raw[:1] == b"T":
                text = raw[1:].decode()
                if conn.ticket is not None and conn.ticket.seat is None \
                        and text.startswith('{"type":"joined"'):
                    refusal = conn.ticket.join(table_id, json.loads(text).get("seat"))
                    if refusal is not None:
                        conn.refuse(refusal)
                        return
                conn.send_text(text)
            elif raw[:1] == b"C":
                code, reason = json.loads(raw[1:])
                if (code, reason) == (CLOSE_FLOOD, FLOOD_REASON) and conn.ticket is not None:
                    conn.ticket.flooded()  # the host closed it for its message rate
                conn.refuse(Refusal(int(code), str(reason)))
                return
    except asyncio.CancelledError:
        raise
    except Exception as e:
        log.info("relay broke: %s", e)
    conn.release(BROKEN)


def _log_failure(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("relay: closing a table failed: %r", task.exception())


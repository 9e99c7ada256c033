"""A table socket's writes straight to the ASGI ``send`` (``DirectPeer``): the table queuing
from its own tasks, the socket's handler writing what is queued after each message and the
connection's writer task all racing, over a ``send`` that takes a while (it yields to the
loop a seeded random number of times). Every message is written once, in the order queued,
and nothing is written after the socket is closed."""

from __future__ import annotations

import asyncio
import json
import logging
import random

import pytest
from starlette.types import Message
from starlette.websockets import WebSocket

from euchre.server.tables.session import Connection
from euchre.server.tables.socket_guard import Refusal
from euchre.server.tables.ws import DirectPeer
from euchre.server.wire.socket import error_message


class SlowSend:
    """An ASGI server's ``send`` whose socket writes yield to the loop 0-3 times first."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.texts: list[str] = []
        """The text of each websocket.send, in the order it was written."""
        self.after_close: list[Message] = []
        """Anything sent once a websocket.close was sent."""
        self.closed = False
        self.writing = False
        self.overlaps = 0
        """Writes started while another was still under way (must stay 0)."""

    async def __call__(self, message: Message) -> None:
        if self.closed:
            self.after_close.append(message)
            return
        if message["type"] == "websocket.close":
            self.closed = True
        if message["type"] != "websocket.send":
            return
        if self.writing:
            self.overlaps += 1
        self.writing = True
        for _ in range(self.rng.randrange(4)):
            await asyncio.sleep(0)
        self.texts.append(message["text"])
        self.writing = False


async def _accepted(send: SlowSend) -> WebSocket:
    async def receive() -> Message:
        return {"type": "websocket.connect"}

    scope = {"type": "websocket", "path": "/ws/tables/t", "headers": [], "query_string": b""}
    websocket = WebSocket(scope, receive, send)
    await websocket.accept()
    return websocket


@pytest.mark.parametrize("seed", range(20))
async def test_racing_writes_send_each_message_once_in_order(seed: int) -> None:
    send = SlowSend(seed)
    conn = Connection(DirectPeer(await _accepted(send), send))
    writer = asyncio.create_task(conn.write_all())
    queued: list[str] = []
    rng = random.Random(seed + 1000)

    async def table(name: str) -> None:  # the actor's fan-out, its computers, its clock
        for n in range(150):
            conn.send(error_message(f"{name}{n}"))
            queued.append(f"{name}{n}")  # send() queues at once: this is the order
            for _ in range(rng.randrange(3)):
                await asyncio.sleep(0)

    async def handler() -> None:  # after each client message, what is queued is written
        for _ in range(200):
            await conn.write_queued()
            for _ in range(rng.randrange(3)):
                await asyncio.sleep(0)

    await asyncio.gather(table("a"), table("b"), handler())
    conn.refuse(Refusal(4000, "done"))
    await asyncio.wait_for(writer, timeout=5)
    assert [json.loads(t)["message"] for t in send.texts] == queued
    assert send.overlaps == 0
    assert send.closed and not send.after_close
    assert conn.queued == conn.written == len(queued)  # the socket's record says so too


async def test_the_sockets_record_is_logged_at_debug_when_it_ends(
        caplog: pytest.LogCaptureFixture) -> None:
    send = SlowSend(0)
    conn = Connection(DirectPeer(await _accepted(send), send))
    conn.seat = 2
    writer = asyncio.create_task(conn.write_all())
    for n in range(5):
        conn.send(error_message(str(n)))
    with caplog.at_level(logging.DEBUG, logger="euchre.server.tables.session"):
        conn.refuse(Refusal(4000, "done"))
        await asyncio.wait_for(writer, timeout=5)
    assert "socket of seat 2 ends: 5 messages queued, 5 written, 0 dropped" in caplog.text


async def test_a_peer_gone_mid_write_is_a_disconnect_and_nothing_more_is_written() -> None:
    class GoneSend(SlowSend):
        async def __call__(self, message: Message) -> None:
            if message["type"] == "websocket.send" and len(self.texts) == 3:
                raise OSError("connection reset")
            await super().__call__(message)

    send = GoneSend(0)
    websocket = await _accepted(send)
    peer = DirectPeer(websocket, send)
    conn = Connection(peer)
    writer = asyncio.create_task(conn.write_all())
    for n in range(10):
        conn.send(error_message(str(n)))
    await conn.write_queued()  # the failed write is a disconnect, taken as the peer gone
    assert conn.broken and conn.closing
    conn.send(error_message("late"))  # the table carries on: dropped, not queued
    await asyncio.wait_for(writer, timeout=5)
    assert [json.loads(t)["message"] for t in send.texts] == ["0", "1", "2"]
    with pytest.raises(RuntimeError):  # the socket is marked gone (Starlette's state)
        await peer.send_text("again")
